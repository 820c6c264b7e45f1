"""livebench's client: one room's every screen opened against the real server, its tables'
devices tapping "miss" at a fixed rate, open loop (over their websockets or as form posts), and
then the baseline, a bare websocket ping at the same rate. What the screens received, the
server's CPU and each tap's latency to its table's own device come back in a ``Result``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import httpx
from django.core.management.base import CommandError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from bench.server import HOST, PHONES_PER_TABLE, Server

DRAIN_SECONDS = 1.0  # pushes still in flight when the last tap is answered
CONNECT_PARALLEL = 20  # each connect renders a snapshot; a burst of 400 would time out
LATE_SECONDS = 0.05  # a tap sent this much after its slot means the client fell behind


@dataclass
class Tally:
    """What the screens received while counting was on."""

    counting: bool = False
    bytes: int = 0
    messages: int = 0
    closed: int = 0
    # (table, seq) -> when that table's own device first showed the fragment of that seq
    arrivals: dict[tuple[int, int], float] = field(default_factory=dict)
    # a websocket tap's key -> the future its answer (an "ack" frame) resolves
    acks: dict[str, asyncio.Future] = field(default_factory=dict)


@dataclass
class Result:
    tables: int
    sockets: int = 0
    wanted_sockets: int = 0
    snapshot_bytes: int = 0
    idle_ms_per_s: float = 0.0
    taps: int = 0
    failed: int = 0
    failures: Counter = field(default_factory=Counter)
    late: int = 0
    tap_seconds: float = 0.0
    cpu_ms_per_tap: float = 0.0
    bytes_per_tap: float = 0.0
    messages_per_tap: float = 0.0
    latencies: list[float] = field(default_factory=list)
    missing_pushes: int = 0
    pings: int = 0
    ping_failed: int = 0
    cpu_ms_per_ping: float = 0.0
    ping_rtts: list[float] = field(default_factory=list)
    closed: int = 0
    log_problems: list[str] = field(default_factory=list)


@dataclass
class Screen:
    path: str
    device_of: int | None = None  # the table whose own device this is
    cookie: str | None = None


def room_screens(night: dict, host_session: str) -> list[Screen]:
    out = [Screen(f"/ws/tv/{night['tv']}/"),
           Screen(f"/ws/host/{night['night']}/", cookie=f"sessionid={host_session}")]
    for number, token in sorted(night["tables"].items(), key=lambda kv: int(kv[0])):
        out.append(Screen(f"/ws/table/{token}/", device_of=int(number)))
        seated = [p for p in night["players"] if p["table"] == int(number)]
        out += [Screen(f"/ws/player/{p['token']}/") for p in seated[:PHONES_PER_TABLE]]
    return out


async def open_screen(server: Server, screen: Screen,
                      gate: asyncio.Semaphore) -> tuple[ClientConnection, int] | None:
    headers = {"Cookie": screen.cookie} if screen.cookie else None
    async with gate:
        try:
            ws = await connect(f"ws://{HOST}:{server.port}{screen.path}", origin=server.base,
                               additional_headers=headers, compression=None, proxy=None,
                               ping_interval=None, max_size=None, open_timeout=30)
        except (OSError, TimeoutError, WebSocketException):
            return None
        try:
            snapshot = await asyncio.wait_for(ws.recv(), timeout=30)
        except (TimeoutError, WebSocketException):
            await ws.close()
            return None
    return ws, len(snapshot.encode() if isinstance(snapshot, str) else snapshot)


async def listen(ws: ClientConnection, screen: Screen, tally: Tally) -> None:
    try:
        async for message in ws:
            now = time.perf_counter()
            data = message.encode() if isinstance(message, str) else message
            if data[:1] == b"{":  # a tap's answer, like an HTTP response: not a push
                answer = json.loads(data)
                waiting = tally.acks.pop(str(answer.get("key")), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(answer)
                continue
            if not tally.counting:
                continue
            tally.bytes += len(data)
            tally.messages += 1
            if screen.device_of is not None:
                seq = fragment_seq(data, screen.device_of)
                if seq is not None:
                    tally.arrivals.setdefault((screen.device_of, seq), now)
    except WebSocketException:
        pass
    tally.closed += 1


def fragment_seq(data: bytes, table: int) -> int | None:
    """The data-seq of a table's own fragment in a push (its opening tag carries it)."""
    start = data.find(b'id="table-%d"' % table)
    if start < 0:
        return None
    end = data.find(b">", start)
    mark = data.find(b'data-seq="', start, end)
    if mark < 0:
        return None
    close = data.find(b'"', mark + 10)
    digits = data[mark + 10:close]
    return int(digits) if digits.isdigit() else None


@dataclass
class Tapper:
    """One table's device tapping: one tap in flight at a time, like a person's thumb, at the
    position the screen shows."""

    number: int
    token: str
    pos: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ws: ClientConnection | None = None  # the device's own websocket, for --via ws
    tally: Tally | None = None

    async def tap(self, http: httpx.AsyncClient, csrf: str, result: Result,
                  accepted: list[tuple[int, int, float]]) -> None:
        async with self.lock:
            data = {"key": str(uuid.uuid4()), "set": "1", "round": "1",
                    "table": str(self.number), "pos": str(self.pos), "quick": "miss"}
            sent = time.perf_counter()
            try:
                body = await (self.over_ws(data) if self.ws is not None
                              else self.over_http(http, csrf, data))
            except (httpx.HTTPError, WebSocketException, TimeoutError) as exc:
                result.failed += 1
                result.failures[f"{type(exc).__name__}: {exc}"[:120]] += 1
                return
            seq = body.get("recorded")
            status = body.get("status", 200)
            # "message" marks a tap answered but not applied (already recorded)
            if body.get("ok") and isinstance(seq, int) and "message" not in body:
                self.pos += 1
                accepted.append((self.number, seq, sent))
            else:
                result.failed += 1
                why = body.get("error") or body.get("message") or f"status {status}"
                result.failures[str(why)[:120]] += 1

    async def over_http(self, http: httpx.AsyncClient, csrf: str, data: dict) -> dict:
        answer = await http.post(f"/t/{self.token}/roll/", data=data,
                                 headers={"X-CSRFToken": csrf})
        try:
            body = answer.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):  # e.g. a CSRF refusal, which is an HTML page
            body = {"error": f"HTTP {answer.status_code}, not JSON"}
        return {"status": answer.status_code, **body}

    async def over_ws(self, data: dict) -> dict:
        waiting = asyncio.get_running_loop().create_future()
        self.tally.acks[data["key"]] = waiting
        await self.ws.send(json.dumps({"type": "tap", "action": "roll", "fields": data}))
        return await asyncio.wait_for(waiting, timeout=30)


async def drive(server: Server, night: dict, tables: int, taps: int, rate: float,
                idle: float, via: str = "ws") -> Result:
    """One room of ``tables`` against ``server``: every screen open, the warm-up tap, the
    server's idle CPU, then ``taps`` taps and as many pings at ``rate`` a second."""
    result = Result(tables=tables, taps=taps, pings=taps)
    tally = Tally()
    opened: list[ClientConnection] = []
    listeners: list[asyncio.Task] = []
    tokens = {int(n): t for n, t in night["tables"].items()}
    async with (httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=10) as host,
                httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=10) as http):
        try:
            host_session, csrf = await _sign_in(server, host, http, tokens[1])
            screens = room_screens(night, host_session)
            devices = await _open_room(server, screens, result, tally, opened, listeners)

            # The first tap after a start pays for imports and template compiling, which a
            # party pays once a night; it is not counted.
            tappers = [Tapper(n, tokens[n], tally=tally,
                              ws=devices.get(n) if via == "ws" else None)
                       for n in sorted(tokens)]
            if via == "ws" and any(t.ws is None for t in tappers):
                raise CommandError("a table device's websocket did not connect")
            await tappers[0].tap(http, csrf, Result(tables), [])
            await asyncio.sleep(DRAIN_SECONDS)

            cpu = server.cpu_seconds()
            await asyncio.sleep(idle)
            result.idle_ms_per_s = (server.cpu_seconds() - cpu) * 1000 / idle if idle else 0.0

            await tap_phase(server, http, csrf, tappers, taps, rate, result, tally)
            await ping_phase(server, taps, rate, result)
        finally:
            result.closed = tally.closed
            for task in listeners:
                task.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True), 15)
            await asyncio.gather(*listeners, return_exceptions=True)
    return result


async def _sign_in(server: Server, host: httpx.AsyncClient, http: httpx.AsyncClient,
                   first_table: str) -> tuple[str, str]:
    """The host signed in by her link (her session cookie) and a table page's CSRF cookie."""
    await host.get(f"/host/{server.secret}/")
    host_session = host.cookies.get("sessionid")
    if not host_session:
        raise CommandError("the host link did not give a session cookie")
    await http.get(f"/t/{first_table}/")
    csrf = http.cookies.get("csrftoken")
    if not csrf:
        raise CommandError("the table page did not give a CSRF cookie")
    return host_session, csrf


async def _open_room(server: Server, screens: list[Screen], result: Result, tally: Tally,
                     opened: list[ClientConnection],
                     listeners: list[asyncio.Task]) -> dict[int, ClientConnection]:
    """Every screen of the room opened (a few at a time) and listened to; each table's own
    device's socket, by table."""
    result.wanted_sockets = len(screens)
    gate = asyncio.Semaphore(CONNECT_PARALLEL)
    connected = await asyncio.gather(*(open_screen(server, s, gate) for s in screens))
    devices: dict[int, ClientConnection] = {}
    for screen, got in zip(screens, connected, strict=True):
        if got is None:
            continue
        ws, size = got
        if screen.device_of is not None:
            devices[screen.device_of] = ws
        opened.append(ws)
        result.snapshot_bytes += size
        listeners.append(asyncio.create_task(listen(ws, screen, tally)))
    result.sockets = len(opened)
    return devices


async def tap_phase(server: Server, http: httpx.AsyncClient, csrf: str, tappers: list[Tapper],
                    taps: int, rate: float, result: Result, tally: Tally) -> None:
    accepted: list[tuple[int, int, float]] = []
    loop = asyncio.get_running_loop()
    tally.counting = True
    cpu = server.cpu_seconds()
    start = loop.time()
    tasks = []
    for i in range(taps):
        delay = start + i / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        elif delay < -LATE_SECONDS:
            result.late += 1
        tapper = tappers[i % len(tappers)]
        tasks.append(asyncio.create_task(tapper.tap(http, csrf, result, accepted)))
    _, pending = await asyncio.wait(tasks, timeout=max(1.0, start + taps / rate + 30
                                                      - loop.time()))
    for task in pending:
        task.cancel()
        result.failed += 1
        result.failures["no answer within 30 s of the last slot"] += 1
    await asyncio.gather(*pending, return_exceptions=True)
    result.tap_seconds = loop.time() - start
    await asyncio.sleep(DRAIN_SECONDS)
    result.cpu_ms_per_tap = (server.cpu_seconds() - cpu) * 1000 / taps
    tally.counting = False
    result.bytes_per_tap = tally.bytes / taps
    result.messages_per_tap = tally.messages / taps
    for table, seq, sent in accepted:
        arrived = tally.arrivals.get((table, seq))
        if arrived is None:
            result.missing_pushes += 1
        else:
            result.latencies.append(arrived - sent)
    if not server.alive():
        raise CommandError(f"the server died during the taps:\n{server.tail()}")


async def ping_phase(server: Server, count: int, rate: float, result: Result) -> None:
    """The same number of messages at the same rate, each the cheapest round trip there is."""
    ws = await connect(f"ws://{HOST}:{server.port}/ws/ping/", origin=server.base,
                       compression=None, proxy=None, ping_interval=None, open_timeout=30)
    try:
        await ws.send('{"type": "ping"}')  # warm-up, as for the taps
        await asyncio.wait_for(ws.recv(), timeout=10)
        loop = asyncio.get_running_loop()
        cpu = server.cpu_seconds()
        start = loop.time()
        for i in range(count):
            delay = start + i / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.perf_counter()
            try:
                await ws.send('{"type": "ping"}')
                answer = await asyncio.wait_for(ws.recv(), timeout=10)
            except (TimeoutError, WebSocketException):
                result.ping_failed += count - i
                break
            if json.loads(answer).get("type") == "pong":
                result.ping_rtts.append(time.perf_counter() - sent)
            else:
                result.ping_failed += 1
        await asyncio.sleep(DRAIN_SECONDS)
        result.cpu_ms_per_ping = (server.cpu_seconds() - cpu) * 1000 / count
    finally:
        await ws.close()
