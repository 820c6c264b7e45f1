"""A table's outbox in the load test, as the page's (``static/bunco/outbox.js``).

The schedule makes each tap (an intent) at its slot, with its key, and queues it at its table;
the queue sends one at a time. A tap goes over the table's own screen's websocket while it is
open (``{"type": "tap", "action": "roll", "fields": ...}``, answered by an ``ack`` frame with
its key: ``tables.consumers.Taps``), as a form post while it is not; a table given no socket
(``--tap-over http``) always posts.

An intent names the position after the one before it while that one is still waiting, or the
position the table last showed when none waits (an answer's table, else its ``at``). When a
tap is refused (or given up before it was ever sent), the intents behind it are renumbered down
by one, unless the answer's ``at`` says the table had passed that position (another entry took
it). A tap is sent again with the same key and fields after a "busy" answer (408, 429 or
``retry``) or any 5xx (0.5 s, doubling to 8 s); after no answer at all, a form post after 2 s
(a dropped connection, a timeout), a socket tap after the backoff once it has waited
ACK_SECONDS for its ack or its socket closed (then it goes as a form post). An answer saying
the screen may be behind (a refusal; "already recorded" without the table) makes the screen
sync, as the page does. Every intent is reported with its key and how it ended, so the command
can look the keys up in the night's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException
from websockets.protocol import State

from bench.frames import sync_message
from bench.rolls import table_view

GIVE_UP_SECONDS = 60.0  # a tap still not answered this long after its slot has failed
RETRY_FIRST = 0.5  # a "busy" or 5xx answer: the tap is sent again after this, doubling...
RETRY_MOST = 8.0  # ... up to this
NETWORK_RETRY = 2.0  # a form post with no answer at all: sent again after this
ACK_SECONDS = 5.0  # a socket tap with no ack this long is sent again (the page's wait)
#: An ack frame as the server writes it (``send_json``).
ACK = b'{"type": "ack"'


@dataclass
class Tally:
    accepted: list[tuple[int, int, float, float]] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)  # slot -> final answer, seconds
    busy_answers: list[float] = field(default_factory=list)  # send -> 429 answer, seconds
    refused: Counter = field(default_factory=Counter)
    failed: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)  # no answer at all, each resent
    sent_over: Counter = field(default_factory=Counter)  # each send: "socket" or "http"
    already: int = 0
    resent_5xx: int = 0  # 5xx answers, each resent
    late: int = 0  # slots this process reached more than 50 ms late (its own lag)
    idle_slots: int = 0  # slots whose table's screen offered no roll: nothing tapped
    rolls: Counter = field(default_factory=Counter)  # each tap made: its button, or "dice"
    entered_from: Counter = field(default_factory=Counter)  # the table's or a player's phone
    # Every intent: (table, key, position sent, how it ended, the refusal's or failure's words).
    # How it ended: "recorded", "already" (its key was in the log: the answer names its seq),
    # "duplicate" (answered "already recorded" with no seq of its own: swallowed), "refused",
    # "failed" (an answer that is neither) or "gave up" (no answer GIVE_UP_SECONDS after it).
    intents: list[tuple[int, str, int, str, str]] = field(default_factory=list)


@dataclass
class Intent:
    """One tap as the outbox keeps it: made at its slot with its own key."""

    slot: float
    key: str
    pos: int
    what: dict = field(default_factory=lambda: {"quick": "miss"})  # a button, or the dice
    by: Device | None = None  # the screen that entered it (None: the table's own)
    tapped: str = ""  # when it was tapped (ms), sent with it as the page does
    sent: bool = False
    passed: bool = False  # refused for a position the table had passed: the next keep theirs


class Device:
    """A phone's screen's socket as its page's outbox uses it (a table's own, or a player's
    with the scorer toggle on): open or not, the acks its taps wait for (``heard`` from the
    screen's listener), its sync, and its table as it shows it (``view``, from ``saw``)."""

    def __init__(self, ws: ClientConnection, shown: dict[str, int], sync: bool = True,
                 number: int = 0, path: str = ""):
        self.ws, self.shown, self.syncs, self.number = ws, shown, sync, number
        self.waiting: dict[str, asyncio.Future] = {}
        # Its form posts' address: /ws/table/T/ posts to /t/T/, /ws/player/P/ to /p/P/.
        parts = path.strip("/").split("/")
        self.posts = f"/{parts[1][0]}/{parts[2]}/" if len(parts) == 3 else ""
        self.view: dict[str, str] = {}  # the table's fragment's attributes as last shown
        self.view_since = 0.0  # when it last showed a new position

    def saw(self, data: bytes, now: float) -> None:
        """A frame the screen drew: its table's fragment, if in it, is what it shows now."""
        view = table_view(data, self.number)
        if view is None:
            return
        if view.get("data-pos") != self.view.get("data-pos"):
            self.view_since = now
        if "data-keeps" not in view and "data-keeps" in self.view:
            view["data-keeps"] = self.view["data-keeps"]  # the same every turn of a round
        self.view = view

    @property
    def open(self) -> bool:
        return self.ws.state is State.OPEN

    def heard(self, data: bytes) -> None:
        """An ack frame: the answer of the tap with its key, if one waits for it."""
        with contextlib.suppress(ValueError):
            body = json.loads(data)
            waiter = self.waiting.get(body.get("key")) if isinstance(body, dict) else None
            if waiter is not None and not waiter.done():
                waiter.set_result(body)

    def dropped(self) -> None:
        """The socket closed: a tap waiting for its ack is kept and sent again."""
        for waiter in self.waiting.values():
            if not waiter.done():
                waiter.set_result(None)

    async def tap(self, fields: dict) -> tuple[dict | None, str]:
        """One tap sent: its ack, or None and why none came."""
        key = fields["key"]
        waiter = self.waiting[key] = asyncio.get_running_loop().create_future()
        try:
            await self.ws.send(json.dumps({"type": "tap", "action": "roll", "fields": fields}))
            if not self.open:
                self.dropped()
            body = await asyncio.wait_for(waiter, ACK_SECONDS)
        except TimeoutError:
            return None, "no ack"
        except WebSocketException:
            return None, "socket closed"
        finally:
            self.waiting.pop(key, None)
        return body, "" if body is not None else "socket closed"

    async def sync(self) -> None:
        """What the screen shows, as the page says it when it may be behind."""
        if self.syncs and self.open:
            with contextlib.suppress(WebSocketException):
                await self.ws.send(sync_message(self.shown))


class Table:
    """One table's outbox: its taps queued in order, sent one at a time over the socket of the
    screen that entered each (``device``, the table's own, unless the tap names another) while
    it is open and ``sockets`` holds, else over ``http``. One phone enters at a time
    (``bench.rolls.Scorekeeping``), so one queue is every phone's outbox in turn."""

    def __init__(self, number: int, token: str, pos: int, tally: Tally,
                 http: httpx.AsyncClient, csrf: str = "", device: Device | None = None,
                 sockets: bool = True):
        self.number, self.token, self.tally, self.http, self.csrf, self.device = (
            number, token, tally, http, csrf, device)
        self.sockets = sockets  # False: every tap a form post (``--tap-over http``)
        self.shown = pos  # the position the table last showed (from the answers)
        self.queue: deque[Intent] = deque()  # not finally answered; the first is on its way
        self.sender: asyncio.Task | None = None

    def make(self, slot: float, what: dict | None = None, by: Device | None = None) -> Intent:
        """A tap made at ``slot`` (``what``: a quick button or the dice; a miss unless said)
        on ``by``'s screen: it names the position after the last tap still waiting, or the
        one the table last showed when none waits."""
        intent = Intent(slot, str(uuid.uuid4()),
                        self.queue[-1].pos + 1 if self.queue else self.shown,
                        dict(what or {"quick": "miss"}), by or self.device,
                        str(round(time.time() * 1000)))
        self.queue.append(intent)
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self.flush())
        return intent

    async def flush(self) -> None:
        while self.queue:
            intent = self.queue[0]
            outcome = await self.send(intent)
            self.queue.popleft()
            if (outcome in ("refused", "failed") and not intent.passed) or not intent.sent:
                # Not taken (or never sent: given up behind a slow tap): the ones behind move
                # down one.
                for behind in self.queue:
                    behind.pos -= 1

    async def done(self) -> None:
        """Wait until every tap made so far has its final answer."""
        if self.sender is not None:
            await self.sender

    async def send(self, intent: Intent) -> str:
        """Send one tap until it has a final answer; how it ended."""
        fields = self.fields(intent)
        delay = RETRY_FIRST
        while True:
            if time.time() > intent.slot + GIVE_UP_SECONDS:
                return self.ended(intent, "gave up",
                                  f"no answer {GIVE_UP_SECONDS:g} s after its slot")
            sent, intent.sent = time.time(), True
            screen = intent.by
            socket = self.sockets and screen is not None and screen.open
            self.tally.sent_over["socket" if socket else "http"] += 1
            status, body, failure = await (self.over_socket(screen, fields) if socket
                                           else self.over_http(screen, fields))
            now = time.time()
            if failure:  # no answer at all
                self.tally.errors[failure] += 1
            elif status >= 500:
                self.tally.resent_5xx += 1
            elif status in (408, 429) or (body is not None and body.get("retry")):
                self.tally.busy_answers.append(now - sent)
            else:
                self.tally.answers.append(now - intent.slot)
                return await self.decided(intent, status, body, now)
            await asyncio.sleep(NETWORK_RETRY if failure and not socket else delay)
            if not failure or socket:
                delay = min(RETRY_MOST, delay * 2)

    def fields(self, intent: Intent) -> dict[str, str]:
        """What the page's outbox sends: the pad's form (a button or the dice), the claim from
        the table its screen shows (set, round, table, position), the key, when it was
        tapped."""
        view = intent.by.view if intent.by is not None else {}
        return {**intent.what, "set": view.get("data-set") or "1",
                "round": view.get("data-round") or "1", "table": str(self.number),
                "pos": str(intent.pos), "key": intent.key, "tapped": intent.tapped}

    async def over_http(self, screen: Device | None, fields: dict
                        ) -> tuple[int, dict | None, str]:
        """The tap as a form post to its screen's address: its status and JSON, or why no
        answer came."""
        posts = screen.posts if screen is not None and screen.posts else f"/t/{self.token}/"
        try:
            answer = await self.http.post(f"{posts}roll/", data=fields,
                                          headers={"X-CSRFToken": self.csrf})
        except httpx.HTTPError as exc:
            return 0, None, type(exc).__name__
        try:
            body = answer.json()
        except ValueError:
            body = None
        return answer.status_code, body if isinstance(body, dict) else None, ""

    @staticmethod
    async def over_socket(screen: Device, fields: dict) -> tuple[int, dict | None, str]:
        """The tap over its screen's socket: its ack's status and the ack, or why none came."""
        body, failure = await screen.tap(fields)
        if body is None:
            return 0, None, failure
        status = body.get("status")
        return (status if isinstance(status, int) and status else 200), body, ""

    async def decided(self, intent: Intent, status: int, body: dict | None, now: float) -> str:
        """A final answer: how the tap ended."""
        if body is None:
            return self.ended(intent, "failed", f"HTTP {status}, not JSON")
        self.follow(body)
        seq = body.get("recorded")
        if status == 200 and body.get("ok"):
            if body.get("message") and not body.get("html") and intent.by is not None:
                await intent.by.sync()  # recorded before: a push it missed is asked for
            if isinstance(seq, int) and not body.get("duplicate"):
                # Its own row: recorded now, or before (a resend whose first answer was
                # lost): either way its table's screens were sent that seq.
                self.tally.accepted.append((self.number, seq, intent.slot, now))
                if not body.get("message"):
                    self.shown = max(self.shown, intent.pos + 1)
                    return self.ended(intent, "recorded")
                self.tally.already += 1
                return self.ended(intent, "already", str(body.get("message")))
            self.tally.already += 1
            return self.ended(intent, "duplicate", str(body.get("message")))
        error, at = str(body.get("error")), self.at(body)
        intent.passed = at is not None and at > intent.pos
        if 400 <= status < 500 and not body.get("ok"):
            self.tally.refused[error[:80]] += 1
            if intent.by is not None:
                await intent.by.sync()  # the night moved on while it was not looking
            return self.ended(intent, "refused", error)
        return self.ended(intent, "failed", f"HTTP {status}: {error[:80]}")

    def ended(self, intent: Intent, outcome: str, why: str = "") -> str:
        if outcome in ("failed", "gave up"):
            self.tally.failed[why[:120]] += 1
        self.tally.intents.append((self.number, intent.key, intent.pos, outcome, why[:200]))
        return outcome

    def at(self, body: dict) -> int | None:
        """Where the answer says this table's next tap goes (``at``), if it says."""
        at = body.get("at")
        if isinstance(at, dict) and str(at.get("table")) == str(self.number):
            pos = at.get("pos")
            return pos if isinstance(pos, int) else None
        return None

    def follow(self, body: dict) -> None:
        """Take the position the table now shows, as the page does from the answer: the table
        a form post's answer brings, else the answer's ``at``."""
        html = str(body.get("html") or "").encode()
        mark = html.find(b'data-pos="')
        if mark >= 0:
            digits = html[mark + 10:html.find(b'"', mark + 10)]
            if digits.isdigit():
                self.shown = int(digits)
                return
        at = self.at(body)
        if at is not None:
            self.shown = at
