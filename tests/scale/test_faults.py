"""PostgreSQL and Redis restarted mid-night, for real, under two Daphne workers (make
test-scale): no tap is lost, and every screen comes back by itself.

The server a test restarts is its own (on a free port, removed at the end): a PostgreSQL
cluster made with initdb for the PostgreSQL test, a redis-server for each test (the Redis test
keeps the run's test database). Restarting the machine's cluster or the run's Redis would cut
the connections of every test running beside it.

Two tables tap steadily on both workers the way a phone's outbox does (``Outbox``): each tap
has its key, made once, and names the table's position after the tap before; a 5xx, a 429, a
timeout or a dropped connection sends the same tap again (0.2 s, doubling to 2 s) until a
final answer: recorded, "already recorded", or refused. Screens (the TV and each table's
device, on each worker) listen as the page does: a sync every 10 s and when the server asks
for one (after a push failed), and a reconnect (at once, then 300 ms doubling to 3 s) when
their socket closes. After each fault the taps go on until every screen has had a push again
(or a sync more has passed), so a screen back late is measured, not cut off by the clock.

Each prints its figures (``-s`` shows them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench.management.commands.livebench import (
    SETUP_SCRIPT,
    bench_env,
    free_port,
    run_checked,
)
from bunco import limits
from tests.scale.conftest import REQUIRED, start_both

#: Seconds between a table's answer and its next tap (two tables: about 6 taps a second).
TAP_GAP = 0.25
#: live.js: a screen says what it shows this often with several workers (data-sync-every)
SYNC_EVERY = float(limits.SYNC_EVERY_SHARED)
#: Close codes after which the page's websocket (htmx's ws extension) connects again.
RECONNECT_CODES = {1006, 1011, 1012, 1013}
FRAGMENT = re.compile(r'id="([\w-]+)"[^>]*?data-seq="(\d+)"')

LOG_SCRIPT = """
import json, sys
import django
django.setup()
from bunco.models import ScoreEvent
rows = ScoreEvent.objects.filter(night_id=int(sys.argv[1])).values_list("key", "seq")
print(json.dumps({"keys": [str(k) for k, _ in rows], "seqs": sorted(s for _, s in rows)}))
"""


def fail_or_skip(problem: str) -> None:
    if REQUIRED:
        pytest.fail(f"make test-scale needs {problem}", pytrace=False)
    pytest.skip(problem)


# -- servers of the test's own, restarted at will --------------------------------------------------

class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb in a temporary folder, a free port, local
    trust), run by the ``postgres`` account when this is root (PostgreSQL refuses root)."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                       key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
        initdb = found[-1] if found else shutil.which("initdb")
        if not initdb:
            fail_or_skip("PostgreSQL's server programs (initdb, pg_ctl): apt-get install -y "
                         "postgresql")
        self.bin = Path(initdb).parent
        self.as_postgres = os.geteuid() == 0
        self.folder = Path(tempfile.mkdtemp(prefix="bunco-faults-pg-"))
        if self.as_postgres:
            shutil.chown(self.folder, "postgres")
        self.data, self.port = self.folder / "data", free_port()
        self.run("initdb", "-D", str(self.data), "-U", "bunco", "--auth=trust", "-E", "UTF8",
                 "--no-sync", "--no-instructions")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "bunco", "faults")

    @property
    def url(self) -> str:
        return f"postgres://bunco@127.0.0.1:{self.port}/faults"

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder,
                              timeout=60)
        assert done.returncode == 0, f"{program} failed: {done.stderr}{done.stdout}"

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-o",
                 f"-p {self.port} -c listen_addresses=127.0.0.1 "
                 f"-c unix_socket_directories={self.folder}", "start")

    def crash(self) -> None:
        """Every server process quits at once, as in a crash (recovery runs at the start)."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(AssertionError, OSError, subprocess.SubprocessError):
            self.crash()
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivateRedis:
    """A Redis of the test's own, without persistence (as deploy/scale.py runs one): killed, it
    comes back empty, as a Redis restarted on a server without its files does."""

    def __init__(self, folder: Path) -> None:
        self.server = shutil.which("redis-server")
        if not self.server:
            fail_or_skip("redis-server: apt-get install -y redis-server")
        self.folder, self.port = folder, free_port()
        folder.mkdir(parents=True, exist_ok=True)
        self.proc: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with open(self.folder / "redis.log", "ab") as out:
            self.proc = subprocess.Popen(
                [self.server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        for _ in range(500):
            if self.answers():
                return
            time.sleep(0.01)
        raise AssertionError("Redis did not start")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def freeze(self) -> None:
        """Stopped, not killed: its sockets open, nothing answered (a machine swapping)."""
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def remove(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.thaw()
            self.kill()


# -- the phones' outbox and the screens ------------------------------------------------------------

@dataclass
class Tap:
    table: int
    key: str
    pos: int
    worker: int
    sent: float = 0.0  # first sending
    answered: float = 0.0  # its final answer
    seq: int | None = None  # where it is in the log, as the answer says
    already: bool = False  # "already recorded": an earlier sending had counted
    refused: str | None = None
    # (when the attempt that had to be resent was sent, why) per resend
    resent: list[tuple[float, str]] = field(default_factory=list)


class Outbox:
    """One table's scorekeeper: taps in order, each sent until it has a final answer."""

    def __init__(self, number: int, token: str, claim: dict, workers: list) -> None:
        self.number, self.token, self.workers = number, token, workers
        self.set, self.round, self.pos = claim["set"], claim["round"], claim["pos"]
        self.taps: list[Tap] = []

    async def run(self, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
            await http.get(f"{self.workers[0].base}/t/{self.token}/")
            csrf = http.cookies["csrftoken"]
            while not stop.is_set():
                # Taps alternate between the workers, as behind a proxy.
                tap = Tap(self.number, str(uuid.uuid4()), self.pos,
                          (len(self.taps) + self.number) % len(self.workers))
                self.taps.append(tap)
                await self.send(http, csrf, tap)
                if tap.refused is not None:
                    return
                self.pos += 1
                await asyncio.sleep(TAP_GAP)

    async def send(self, http: httpx.AsyncClient, csrf: str, tap: Tap) -> None:
        fields = {"key": tap.key, "set": self.set, "round": self.round, "table": self.number,
                  "pos": tap.pos, "quick": "miss"}
        url = f"{self.workers[tap.worker].base}/t/{self.token}/roll/"
        backoff = 0.2
        tap.sent = time.monotonic()
        while True:
            attempt = time.monotonic()
            try:
                answer = await http.post(url, data=fields, headers={"X-CSRFToken": csrf})
            except httpx.TimeoutException:
                why = "timeout"
            except httpx.TransportError:
                why = "connection"
            else:
                if answer.status_code < 500 and answer.status_code != 429:
                    tap.answered = time.monotonic()
                    try:
                        body = answer.json()
                    except ValueError:
                        body = {"ok": False, "error": answer.text[:200]}
                    if answer.status_code == 200 and body.get("ok"):
                        tap.seq = body.get("recorded") or body.get("seq")
                        tap.already = bool(body.get("message") or body.get("duplicate"))
                    else:
                        tap.refused = f"{answer.status_code} {body.get('error')}"
                    return
                why = str(answer.status_code)
            tap.resent.append((attempt, why))
            await asyncio.sleep(backoff)
            backoff = min(2.0, backoff * 2)


@dataclass
class Frame:
    at: float
    snapshot: bool  # a whole screen (on connecting, or a sync that found it behind)
    fragments: dict[str, int]  # element id -> data-seq


class Screen:
    """A live page's websocket: what it receives, a sync every 10 s (its own moment, as each
    page has), and a reconnect when the server closes it as the page would reconnect."""

    def __init__(self, name: str, base: str, path: str, tables: list[int], phase: float):
        self.name, self.base, self.path, self.tables = name, base, path, tables
        self.phase = phase
        self.frames: list[Frame] = []
        self.shows: dict[str, int] = {}
        self.opened: list[float] = []
        self.closed: list[tuple[float, int]] = []
        self.ws = None
        self.asking: asyncio.Future | None = None
        self.ready = asyncio.Event()

    async def run(self) -> None:
        syncing = asyncio.create_task(self.sync())
        retry = 0
        try:
            while True:
                code = 1006
                try:
                    async with connect(f"ws://{self.base.split('//')[1]}{self.path}",
                                       origin=self.base, compression=None, proxy=None,
                                       ping_interval=None, open_timeout=10) as ws:
                        self.ws, retry = ws, 0
                        self.opened.append(time.monotonic())
                        try:
                            async for message in ws:
                                self.got(message)
                        except ConnectionClosed:
                            pass
                        code = ws.close_code or 1006
                except (OSError, TimeoutError, InvalidHandshake):
                    code = 1006
                self.ws = None
                self.closed.append((time.monotonic(), code))
                if code not in RECONNECT_CODES:
                    return
                await asyncio.sleep(min(3.0, 0.3 * 2 ** retry))
                retry += 1
        finally:
            syncing.cancel()

    async def sync(self) -> None:
        await asyncio.sleep(self.phase)
        while True:
            await self.sync_now()
            await asyncio.sleep(SYNC_EVERY)

    async def sync_now(self) -> None:
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "sync", "shows": self.shows}))

    def got(self, message) -> None:
        if isinstance(message, str) and message.startswith("{"):
            with contextlib.suppress(ValueError):
                if json.loads(message).get("type") == "sync":  # the server asks (live.js)
                    self.asking = asyncio.ensure_future(self.sync_now())
            return
        if not isinstance(message, str):
            return
        fragments = {ident: int(seq) for ident, seq in FRAGMENT.findall(message)}
        self.frames.append(Frame(time.monotonic(), 'id="banner"' in message, fragments))
        for ident, seq in fragments.items():
            self.shows[ident] = max(seq, self.shows.get(ident, 0))
        if all(f"table-{n}" in self.shows for n in self.tables):
            self.ready.set()

    def pushed_after(self, moment: float) -> bool:
        return any(f.at > moment and not f.snapshot for f in self.frames)

    def shown_at(self, table: int, seq: int) -> float | None:
        """When this screen first showed ``table`` at ``seq`` or later."""
        for frame in self.frames:
            if frame.fragments.get(f"table-{table}", -1) >= seq:
                return frame.at
        return None


# -- one night with faults in the middle ----------------------------------------------------------

@dataclass
class Fault:
    name: str
    down: float  # the server stopped
    back: float  # the server answers again
    until: float = float("inf")  # the next fault, or the end of the taps


@dataclass
class Night:
    outboxes: list[Outbox]
    screens: list[Screen]
    faults: list[Fault]

    @property
    def taps(self) -> list[Tap]:
        return [t for o in self.outboxes for t in o.taps]


def script_env(folder: Path, shared: dict) -> dict:
    """The environment of a script run on the workers' database and Redis."""
    return {**bench_env(folder / "scripts"), **shared}


def setup_night(folder: Path, shared: dict) -> dict:
    """A night of three tables, round 1 started, in the workers' database."""
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "3"],
                                   script_env(folder, shared),
                                   "night setup").strip().splitlines()[-1])
    night["claim"] = {"set": 1, "round": 1, "pos": 0}
    return night


async def play(workers, night: dict, faults: list, before: float, after: float) -> Night:
    """Taps at tables 1 and 2 through both workers, a TV and both tables' devices listening
    on each worker. ``before`` seconds in, each of ``faults`` (name, a function run in a
    thread that returns when the server stopped and when it was back) in turn, the taps going
    on for ``after`` seconds past each and until every screen had a push again; then the
    screens get up to a sync more to show the last taps."""
    rng = random.Random(11)
    screens = []
    for w, server in enumerate(workers):
        name = "AB"[w]
        screens.append(Screen(f"TV on {name}", server.base, f"/ws/tv/{night['tv']}/",
                              [1, 2], rng.uniform(0, SYNC_EVERY)))
        for number in (1, 2):
            screens.append(Screen(f"table {number} on {name}", server.base,
                                  f"/ws/table/{night['tables'][str(number)]}/", [number],
                                  rng.uniform(0, SYNC_EVERY)))
    listening = [asyncio.create_task(s.run()) for s in screens]
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in screens)), 20)
    stop = asyncio.Event()
    outboxes = [Outbox(n, night["tables"][str(n)], night["claim"], workers) for n in (1, 2)]
    tapping = [asyncio.create_task(o.run(stop)) for o in outboxes]
    await asyncio.sleep(before)
    done: list[Fault] = []
    for name, fault in faults:
        down, back = await asyncio.to_thread(fault)
        if done:
            done[-1].until = down
        done.append(Fault(name, down, back))
        # ``after`` seconds of taps at least, and on until every screen had a push again (at
        # most a sync more): how late a screen came back is measured, never cut off.
        while time.monotonic() < back + after or (
                time.monotonic() < back + after + SYNC_EVERY
                and not all(s.pushed_after(back) for s in screens)):
            await asyncio.sleep(0.1)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tapping), 60)
    done[-1].until = time.monotonic()
    # The last taps reach every screen (at worst through the next sync's snapshot).
    last = {n: max(t.seq for t in o.taps if t.seq) for n, o in zip((1, 2), outboxes, strict=True)}
    deadline = time.monotonic() + SYNC_EVERY + 5
    while time.monotonic() < deadline and not all(
            s.shown_at(n, last[n]) for s in screens for n in s.tables):
        await asyncio.sleep(0.2)
    for task in listening:
        task.cancel()
    await asyncio.gather(*listening, return_exceptions=True)
    return Night(outboxes, screens, done)


def check_log(folder: Path, shared: dict, night: dict, played: Night) -> None:
    """Every tap made has a final answer that is not a refusal, and is in the log once, under
    its key; the log has no gap; every screen shows each table's last tap."""
    log = json.loads(run_checked([sys.executable, "-c", LOG_SCRIPT, str(night["night"])],
                                 script_env(folder, shared), "log check").strip().splitlines()[-1])
    counts = Counter(log["keys"])
    assert not [t for t in played.taps if t.refused], \
        [(t.table, t.pos, t.refused) for t in played.taps if t.refused]
    assert all(t.seq for t in played.taps)
    assert [t.key for t in played.taps if counts[t.key] != 1] == [], \
        "taps not in the log exactly once"
    assert log["seqs"] == list(range(1, len(log["seqs"]) + 1)), "the log has a gap"
    for o in played.outboxes:
        last = o.taps[-1]
        for screen in played.screens:
            if o.number in screen.tables:
                assert screen.shown_at(o.number, last.seq), (screen.name, "missed the last tap")


def back_after(fault: Fault, played: Night, screen: Screen) -> tuple[float, float]:
    """How the screen came back after ``fault``: its first push once the server was back (s
    after ``back``), and the latest that a tap answered after that push reached it (s after
    the tap's answer), up to the next fault."""
    pushes = [f.at for f in screen.frames if fault.back < f.at < fault.until and not f.snapshot]
    first = (min(pushes) - fault.back) if pushes else float("inf")
    late = 0.0
    for tap in played.taps:
        if (tap.table in screen.tables and tap.seq
                and fault.back + first < tap.answered < fault.until):
            shown = screen.shown_at(tap.table, tap.seq)
            late = max(late, (shown - tap.answered) if shown else float("inf"))
    return first, late


def report(played: Night) -> str:
    taps = played.taps
    resent = Counter(why for t in taps for _, why in t.resent)
    lines = [f"\n{len(taps)} taps made, {sum(1 for t in taps if t.seq)} recorded "
             f"({sum(t.already for t in taps)} answered 'already recorded'), "
             f"{sum(bool(t.refused) for t in taps)} refused; sendings again: "
             f"{dict(resent) or 'none'}"]
    slowest = max((t.answered - t.sent for t in taps if t.answered), default=0)
    lines.append(f"  slowest tap from its first sending to its answer: {slowest:.2f} s")
    for fault in played.faults:
        lines.append(f"  {fault.name}: down {fault.back - fault.down:.2f} s")
        for screen in played.screens:
            first, late = back_after(fault, played, screen)
            closed = [(round(at - fault.down, 2), code) for at, code in screen.closed
                      if fault.down <= at < fault.until]
            lines.append(f"    {screen.name}: first push {first:.2f} s after it was back, "
                         f"every later tap shown within {late:.2f} s of its answer"
                         + (f"; closed {closed}" if closed else ""))
    return "\n".join(lines)


def tracebacks(workers) -> list[str]:
    return [line for server in workers for line in server.problems() if "Traceback" in line]


# -- the tests -------------------------------------------------------------------------------------

@pytest.fixture
def redis_of_its_own(shared_stack, tmp_path):
    redis = PrivateRedis(tmp_path / "redis")
    yield redis
    redis.remove()


@pytest.fixture
def postgres_of_its_own(shared_stack):
    postgres = PrivatePostgres()
    yield postgres
    postgres.remove()


def down_for_a_second(stop, start):
    """A fault: the server stopped, down a second, started again; (when down, when back)."""
    def fault():
        stop()
        down = time.monotonic()
        time.sleep(1.0)
        start()
        return down, time.monotonic()
    return fault


def test_a_postgresql_restart_mid_taps_loses_no_tap(tmp_path, shared_stack, redis_of_its_own,
                                                    postgres_of_its_own):
    pg = postgres_of_its_own
    env = {**shared_stack, "DATABASE_URL": pg.url, "REDIS_URL": redis_of_its_own.url}
    run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                script_env(tmp_path, env), "migrate")
    night = setup_night(tmp_path, env)
    workers = start_both(tmp_path, env)

    try:
        played = asyncio.run(play(workers, night, [("PostgreSQL restarted",
                                                    down_for_a_second(pg.crash, pg.start))],
                                  before=3, after=8))
    finally:
        for server in workers:
            server.stop()
    print(report(played))
    check_log(tmp_path, env, night, played)
    (fault,) = played.faults
    # Only a tap a worker was writing at the instant the database died may fail; every other
    # tap waits for the database to be back instead of failing on a dead connection, and none
    # sent once it is back fails (one sent during the outage may be answered just after).
    errors = [(t.table, t.pos, round(when - fault.down, 2), why) for t in played.taps
              for when, why in t.resent if why.startswith("5")]
    assert len(errors) <= len(workers), errors
    assert not [e for e in errors if e[2] > fault.back - fault.down], errors
    for screen in played.screens:
        first, late = back_after(fault, played, screen)
        assert first < 5 and late < 5, (screen.name, first, late)


def test_a_redis_restart_mid_taps_loses_no_tap_and_screens_come_back(
        tmp_path, shared_stack, redis_of_its_own):
    """Redis restarted twice, coming back empty each time. First down for a second: every
    worker's read from it fails meanwhile. Then a restart quicker than the workers notice
    (both paused across it, as a worker busy with a big room is): most screens' next read
    finds Redis back, and without their groups."""
    redis = redis_of_its_own
    env = {**shared_stack, "REDIS_URL": redis.url}
    night = setup_night(tmp_path, env)
    workers = start_both(tmp_path, env)

    def quick_restart():
        for server in workers:
            server.proc.send_signal(signal.SIGSTOP)
        try:
            redis.kill()
            down = time.monotonic()
            redis.start()
            back = time.monotonic()
        finally:
            for server in workers:
                server.proc.send_signal(signal.SIGCONT)
        return down, back

    faults = [("Redis restarted, down 1 s", down_for_a_second(redis.kill, redis.start)),
              ("Redis restarted while the workers were paused", quick_restart)]
    try:
        played = asyncio.run(play(workers, night, faults, before=3, after=SYNC_EVERY + 3))
    finally:
        for server in workers:
            server.stop()
    print(report(played))
    check_log(tmp_path, env, night, played)
    # A tap needs no Redis to be counted: none failed or had to be sent again.
    assert not [t for t in played.taps if t.resent], "a tap had to be sent again"
    for fault in played.faults:
        for screen in played.screens:
            first, late = back_after(fault, played, screen)
            # Back by the screen's next sync (every 10 s), pushes on time after that.
            assert first < SYNC_EVERY + 2 and late < 2, (fault.name, screen.name, first, late)
    # No screen was cut off (every page reconnecting at once, a snapshot each), and no worker
    # failed: the layer's failures are warnings.
    assert not [s.name for s in played.screens if s.closed], [s.closed for s in played.screens]
    assert not tracebacks(workers), tracebacks(workers)

