"""The load test's client processes (``manage.py loadtest``).

Each client process has its own asyncio loop, a share of the room's screens (whole tables: a
table's device and its three phones, and some of the TVs) and the taps of its tables. Every
time it writes down is ``time.time()``: one clock for every process on the machine, so a tap
sent by one process and a frame received by another are measured on the same clock.

A screen records every frame it receives after its snapshot as (time, id, seq, bell, bytes):
the id and ``data-seq`` of the frame's first element (a table's fragment for a tap, the banner
for a room-wide push such as the bell), and whether that banner says the bell has rung. A frame
that draws many tables at once (the TV's and the host's part of a room-wide event) also records
each table inside it as (time, id, seq), apart: the screen shows that table at that seq too.
The command compares what each screen got with what it should have got.

A table taps like the page's outbox over HTTP (``Table``). The schedule makes each tap (an
intent) at its slot, with its key, and queues it at its table; the queue sends one at a time.
An intent names the position after the one before it while that one is still waiting, or the
position the table last showed when none waits; when a tap is refused (or given up before it
was ever sent), the intents behind it are renumbered down by one. A tap is sent again with
the same key and fields after a "busy" answer (429 or ``retry``) or any 5xx (0.5 s, doubling
to 8 s), or after no answer at all (a dropped connection, a timeout: 2 s). Every intent is
reported with its key and how it ended, so the command can look the keys up in the night's
log.

Nothing here imports Django: the processes are forked by the command and talk to the server
only over the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from bench.frames import BrowserDeflate, head, inner_tables, on_wire, shown_in, sync_message

CONNECT_PARALLEL = 20  # each connect renders a snapshot on the server
GIVE_UP_SECONDS = 60.0  # a tap still not answered this long after its slot has failed
RETRY_FIRST = 0.5  # a "busy" or 5xx answer: the tap is sent again after this, doubling...
RETRY_MOST = 8.0  # ... up to this
NETWORK_RETRY = 2.0  # no answer at all (a dropped connection, a timeout): sent again after this
DRAIN_SECONDS = 2.0  # after the room's last answer, pushes are awaited until this long quiet
DRAIN_AT_MOST = 30.0  # ... but no longer than this after it
#: A plan's screens sync this often unless it says (the load test reads the server's pages'
#: data-sync-every: 0, never, on one process, whose server asks them; 10 s with several
#: workers).
SYNC_EVERY = 10.0


@dataclass
class ScreenSpec:
    path: str
    kind: str  # "device", "phone", "tv" or "host"
    table: int | None = None
    cookie: str | None = None
    worker: int = 0  # which server process it connects to (several workers)


@dataclass
class Plan:
    """What one client process does."""

    ws_bases: list[str]  # per server process (one, or each worker's)
    http_bases: list[str]
    screens: list[ScreenSpec]
    tables: dict[int, str]  # the tables this process taps: number -> link token
    slots: list[tuple[float, int]]  # (seconds after the start, table)
    positions: dict[int, int] = field(default_factory=dict)  # each table's position at start
    csrf: str = ""
    night: int = 0
    bells: list[float] = field(default_factory=list)  # seconds after the start
    bell_hold: float = 2.0  # the host takes the bell back this long after ringing it
    host_cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30.0
    tap_workers: dict[int, int] = field(default_factory=dict)  # table -> worker (else n % N)
    sync: bool = True  # screens sync every sync_every seconds, as the pages do
    sync_every: float = SYNC_EVERY


@dataclass
class Tally:
    accepted: list[tuple[int, int, float, float]] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)  # slot -> final answer, seconds
    busy_answers: list[float] = field(default_factory=list)  # send -> 429 answer, seconds
    refused: Counter = field(default_factory=Counter)
    failed: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)  # network failures, each resent
    already: int = 0
    resent_5xx: int = 0  # 5xx answers, each resent
    late: int = 0  # slots this process reached more than 50 ms late (its own lag)
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
    sent: bool = False


class Table:
    """One table's outbox: its taps queued in order, sent one at a time over ``http``."""

    def __init__(self, number: int, token: str, pos: int, plan: Plan, tally: Tally,
                 http: httpx.AsyncClient):
        self.number, self.token, self.plan, self.tally, self.http = (
            number, token, plan, tally, http)
        self.shown = pos  # the position the table last showed (from the answers)
        self.queue: deque[Intent] = deque()  # not finally answered; the first is on its way
        self.sender: asyncio.Task | None = None

    def make(self, slot: float) -> Intent:
        """A tap made at ``slot``: it names the position after the last tap still waiting,
        or the one the table last showed when none waits."""
        intent = Intent(slot, str(uuid.uuid4()),
                        self.queue[-1].pos + 1 if self.queue else self.shown)
        self.queue.append(intent)
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self.flush())
        return intent

    async def flush(self) -> None:
        while self.queue:
            intent = self.queue[0]
            outcome = await self.send(intent)
            self.queue.popleft()
            if outcome in ("refused", "failed") or not intent.sent:
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
        data = {"key": intent.key, "set": "1", "round": "1", "table": str(self.number),
                "pos": str(intent.pos), "quick": "miss"}
        delay = RETRY_FIRST
        while True:
            if time.time() > intent.slot + GIVE_UP_SECONDS:
                return self.ended(intent, "gave up",
                                  f"no answer {GIVE_UP_SECONDS:g} s after its slot")
            sent, intent.sent = time.time(), True
            try:
                answer = await self.http.post(f"/t/{self.token}/roll/", data=data,
                                              headers={"X-CSRFToken": self.plan.csrf})
            except httpx.HTTPError as exc:
                self.tally.errors[type(exc).__name__] += 1
                await asyncio.sleep(NETWORK_RETRY)
                continue
            now = time.time()
            try:
                body = answer.json()
            except ValueError:
                body = None
            if not isinstance(body, dict):
                body = None
            status = answer.status_code
            if status >= 500 or status == 429 or (body is not None and body.get("retry")):
                if status >= 500:
                    self.tally.resent_5xx += 1
                else:
                    self.tally.busy_answers.append(now - sent)
                await asyncio.sleep(delay)
                delay = min(RETRY_MOST, delay * 2)
                continue
            self.tally.answers.append(now - intent.slot)
            if body is None:
                return self.ended(intent, "failed", f"HTTP {status}, not JSON")
            self.follow(body)
            seq = body.get("recorded")
            if status == 200 and body.get("ok"):
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
            error = str(body.get("error"))
            if 400 <= status < 500 and not body.get("ok"):
                self.tally.refused[error[:80]] += 1
                return self.ended(intent, "refused", error)
            return self.ended(intent, "failed", f"HTTP {status}: {error[:80]}")

    def ended(self, intent: Intent, outcome: str, why: str = "") -> str:
        if outcome in ("failed", "gave up"):
            self.tally.failed[why[:120]] += 1
        self.tally.intents.append((self.number, intent.key, intent.pos, outcome, why[:200]))
        return outcome

    def follow(self, body: dict) -> None:
        """Take the position the table now shows, as the page does from the answer."""
        html = str(body.get("html") or "").encode()
        mark = html.find(b'data-pos="')
        if mark >= 0:
            digits = html[mark + 10:html.find(b'"', mark + 10)]
            if digits.isdigit():
                self.shown = int(digits)


async def open_screen(plan: Plan, spec: ScreenSpec, gate: asyncio.Semaphore
                      ) -> tuple[ClientConnection, int, dict[str, int], int] | None:
    """The screen's socket, its snapshot's bytes, what the snapshot shows (``shown_in``) and
    its bytes on the wire; None if it could not connect."""
    headers = {"Cookie": spec.cookie} if spec.cookie else None
    async with gate:
        try:
            ws = await connect(f"{plan.ws_bases[spec.worker]}{spec.path}",
                               origin=plan.http_bases[spec.worker],
                               additional_headers=headers, compression=None,
                               extensions=[BrowserDeflate()], proxy=None,
                               ping_interval=None, max_size=None, open_timeout=60)
        except (OSError, TimeoutError, WebSocketException):
            return None
        try:
            snapshot = await asyncio.wait_for(ws.recv(decode=False), timeout=60)
            shown: dict[str, int] = {}
            shown_in(snapshot, shown)
            if plan.sync:  # the page says what it shows as its socket opens (live.js)
                await ws.send(sync_message(shown))
        except (TimeoutError, WebSocketException):
            await ws.close()
            return None
    return ws, len(snapshot), shown, on_wire(ws, snapshot)


async def listen(ws: ClientConnection, log: list, inner: list, closed: list,
                 heard: list[float], shown: dict[str, int]) -> None:
    try:
        while True:
            data = await ws.recv(decode=False)
            if data.startswith(b"{"):  # the server's word, not a push ("here", an error)
                if data.startswith(ASKED):  # it asks what the screen shows: as live.js
                    await ws.send(sync_message(shown))
                continue
            heard[0] = time.time()
            record(data, heard[0], log, inner)
            shown_in(data, shown)
    except WebSocketException:
        closed.append(1)


#: The server asking a screen what it shows (``bunco.live.watch``).
ASKED = b'{"type": "sync"'


async def keep_syncing(ws: ClientConnection, shown: dict[str, int], syncs: list,
                       every: float = SYNC_EVERY) -> None:
    """The page's periodic sync: every ``every`` seconds, from a moment of its own."""
    await asyncio.sleep(random.uniform(0, every))
    with contextlib.suppress(WebSocketException):
        while True:
            await ws.send(sync_message(shown))
            syncs.append(1)
            await asyncio.sleep(every)


def record(data: bytes, now: float, log: list, inner: list) -> None:
    """Write down a frame a screen got: its first element in ``log``; if it draws tables
    besides (the TV's part of a room-wide event, the host's every table), each in ``inner``."""
    found = head(data)
    if found is None:
        return
    log.append((now, *found, len(data)))
    if not found[0].startswith("table-") or data.count(b'id="table-') > 1:
        inner.extend((now, *t) for t in inner_tables(data))


async def drain(heard: list[float]) -> float:
    """Wait for the pushes still on their way: until no screen of this process has heard
    anything for DRAIN_SECONDS, at most DRAIN_AT_MOST. The time of the last frame heard."""
    ended = time.time()
    while time.time() - ended < DRAIN_AT_MOST:
        quiet = time.time() - heard[0]
        if quiet >= DRAIN_SECONDS:
            break
        await asyncio.sleep(DRAIN_SECONDS - quiet)
    return heard[0]


async def ring(plan: Plan, start: float, bells: list[dict]) -> None:
    """The host's bell under load, as the host's page posts it, taken back after a while so
    the round goes on."""
    cookies = "; ".join(f"{k}={v}" for k, v in plan.host_cookies.items())
    headers = {"Cookie": cookies, "X-CSRFToken": plan.host_cookies.get("csrftoken", "")}
    async with httpx.AsyncClient(base_url=plan.http_bases[0], trust_env=False,
                                 timeout=plan.timeout, headers=headers) as host:
        for offset in plan.bells:
            await asyncio.sleep(max(0.0, start + offset - time.time()))
            bell = {"sent": time.time()}
            try:
                answer = await host.post(f"/host/nights/{plan.night}/bell/",
                                         data={"key": str(uuid.uuid4()), "set": "1",
                                               "round": "1"})
                bell["status"] = answer.status_code
            except httpx.HTTPError as exc:
                bell["status"] = type(exc).__name__
            bell["answered"] = time.time()
            await asyncio.sleep(plan.bell_hold)
            try:
                answer = await host.post(f"/host/nights/{plan.night}/void/",
                                         data={"what": "bell", "key": str(uuid.uuid4())})
                bell["void_status"] = answer.status_code
            except httpx.HTTPError as exc:
                bell["void_status"] = type(exc).__name__
            bell["void_answered"] = time.time()
            bells.append(bell)


async def client(conn, plan: Plan) -> None:
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(CONNECT_PARALLEL)
    got = await asyncio.gather(*(open_screen(plan, s, gate) for s in plan.screens))
    logs: list[list] = [[] for _ in plan.screens]
    inners: list[list] = [[] for _ in plan.screens]
    closed: list = []
    syncs: list = []
    heard = [0.0]  # when any screen of this process last got a frame
    shown: list[dict[str, int]] = [g[2] if g is not None else {} for g in got]
    listeners = [asyncio.create_task(listen(g[0], logs[i], inners[i], closed, heard, shown[i]))
                 for i, g in enumerate(got) if g is not None]
    if plan.sync and plan.sync_every > 0:
        listeners += [asyncio.create_task(keep_syncing(g[0], shown[i], syncs, plan.sync_every))
                      for i, g in enumerate(got) if g is not None]
    # The biggest snapshot a TV got: its bytes, and its bytes on the wire.
    tv = max(((g[1], g[3]) for g, s in zip(got, plan.screens, strict=True)
              if g is not None and s.kind == "tv"), default=(0, 0))
    conn.send(("connected", sum(1 for g in got if g is not None),
               sum(g[1] for g in got if g is not None), tv))
    command, start = await loop.run_in_executor(None, conn.recv)
    tally, bells = Tally(), []
    ended = last_frame = 0.0
    if command == "go":
        await tap_the_room(plan, start, tally, bells)
        # Every screen listens on until the whole room's taps are answered: a TV here shows
        # the tables the other processes tap, and theirs may still be retrying.
        conn.send(("tapped",))
        await loop.run_in_executor(None, conn.recv)
        ended = time.time()
        last_frame = await drain(heard)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    result = {
        "screens": [{"kind": s.kind, "table": s.table, "connected": g is not None,
                     "frames": log, "inner": inner}
                    for s, g, log, inner in zip(plan.screens, got, logs, inners, strict=True)],
        "night": plan.night, "ended": ended, "last_frame": last_frame,
        "closed": len(closed), "syncs": len(syncs),
        "tally": {k: (dict(v) if isinstance(v, Counter) else v)
                  for k, v in tally.__dict__.items()},
        "bells": bells,
    }
    conn.send(("done", result))
    # The sockets close when the command says: the server's CPU over the run is read first
    # (400 screens closing at once are not the room's taps).
    with contextlib.suppress(EOFError, OSError):
        await loop.run_in_executor(None, conn.recv)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(g[0].close() for g in got if g is not None),
                                              return_exceptions=True), 20)


async def tap_the_room(plan: Plan, start: float, tally: Tally, bells: list[dict]) -> None:
    """Make each of the plan's taps at its slot, at its table's queue, and ring its bells."""
    limits = httpx.Limits(max_connections=max(10, len(plan.tables)),
                          max_keepalive_connections=None)
    async with contextlib.AsyncExitStack() as stack:
        https = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=base, trust_env=False, timeout=plan.timeout, limits=limits,
            cookies={"csrftoken": plan.csrf})) for base in plan.http_bases]
        # A table taps the worker a load balancer would send it to: one per table.
        tables = {n: Table(n, token, plan.positions.get(n, 0), plan, tally,
                           https[plan.tap_workers.get(n, n % len(https))])
                  for n, token in plan.tables.items()}
        bell_task = asyncio.create_task(ring(plan, start, bells)) if plan.bells else None
        for offset, number in plan.slots:
            delay = start + offset - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -0.05:
                tally.late += 1
            tables[number].make(start + offset)
        await asyncio.gather(*(table.done() for table in tables.values()))
        if bell_task is not None:
            await bell_task


def main(conn, plan: Plan) -> None:
    """A client process's entry point: its own event loop."""
    try:
        asyncio.run(client(conn, plan))
    except BaseException as exc:  # the command must hear of it, not wait forever
        with contextlib.suppress(Exception):
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        raise
    finally:
        conn.close()
