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

A table taps like the page's outbox (``bench/outbox.py``): over the websocket of the screen
that enters the roll while it is open, as a form post while it is not (always, with
``Plan.tap_over`` "http"); what is tapped and from which phone (the table's own, or one of its
players' with the scorer toggle on) is ``bench/rolls.py``'s, from what that screen shows. Each
intent is reported with its key and how it ended, so the command can look the keys up in the
night's log.

Nothing here imports Django: the processes are forked by the command and talk to the server
only over the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from bench.frames import BrowserDeflate, head, inner_tables, on_wire, shown_in, sync_message
from bench.outbox import ACK, Device, Table, Tally
from bench.rolls import Scorekeeping

CONNECT_PARALLEL = 20  # each connect renders a snapshot on the server
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
    tap_over: str = "socket"  # "socket": as the page (a form post while it is closed); "http"
    phone_every: int = 4  # one run of taps in this many from a player's phone (0: never)


async def open_screen(plan: Plan, spec: ScreenSpec, gate: asyncio.Semaphore
                      ) -> tuple[ClientConnection, int, dict[str, int], int, bytes] | None:
    """The screen's socket, its snapshot's bytes, what the snapshot shows (``shown_in``), its
    bytes on the wire and, a phone's, the snapshot itself; None if it could not connect."""
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
    return (ws, len(snapshot), shown, on_wire(ws, snapshot),
            snapshot if spec.kind in ("device", "phone") else b"")


async def listen(ws: ClientConnection, log: list, inner: list, closed: list,
                 heard: list[float], shown: dict[str, int], device: Device | None = None
                 ) -> None:
    """A screen's frames, until its socket closes; a phone that taps (``device``: a table's
    own screen, or a player's) hands its taps' acks to its outbox and reads its table."""
    try:
        while True:
            data = await ws.recv(decode=False)
            if data.startswith(b"{"):  # the server's word, not a push ("here", an ack)
                if data.startswith(ASKED):  # it asks what the screen shows: as live.js
                    await ws.send(sync_message(shown))
                elif device is not None and data.startswith(ACK):
                    device.heard(data)
                continue
            heard[0] = time.time()
            record(data, heard[0], log, inner)
            shown_in(data, shown)
            if device is not None:
                device.saw(data, heard[0])
    except WebSocketException:
        closed.append(1)
        if device is not None:
            device.dropped()


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
    """One load process: open its screens, listen, tap when told, and report what they saw."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(CONNECT_PARALLEL)
    got = await asyncio.gather(*(open_screen(plan, s, gate) for s in plan.screens))
    logs: list[list] = [[] for _ in plan.screens]
    inners: list[list] = [[] for _ in plan.screens]
    closed: list = []
    syncs: list = []
    heard = [0.0]  # when any screen of this process last got a frame
    shown: list[dict[str, int]] = [g[2] if g is not None else {} for g in got]
    devices = devices_of(plan, got, shown)
    listeners = [asyncio.create_task(listen(g[0], logs[i], inners[i], closed, heard, shown[i],
                                            devices.get(i)))
                 for i, g in enumerate(got) if g is not None]
    if plan.sync and plan.sync_every > 0:
        listeners += [asyncio.create_task(keep_syncing(g[0], shown[i], syncs, plan.sync_every))
                      for i, g in enumerate(got) if g is not None]
    _say_connected(conn, plan, got)
    command, start = await loop.run_in_executor(None, conn.recv)
    tally, bells = Tally(), []
    ended = last_frame = 0.0
    if command == "go":
        await tap_the_room(plan, start, tally, bells, devices)
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
    await _close_when_told(conn, got)


def _say_connected(conn, plan: Plan, got: list) -> None:
    """Tell the command how many screens opened, their snapshots' bytes, and the biggest
    snapshot a TV got (its bytes, and its bytes on the wire)."""
    tv = max(((g[1], g[3]) for g, s in zip(got, plan.screens, strict=True)
              if g is not None and s.kind == "tv"), default=(0, 0))
    conn.send(("connected", sum(1 for g in got if g is not None),
               sum(g[1] for g in got if g is not None), tv))


async def _close_when_told(conn, got: list) -> None:
    """The sockets close when the command says: the server's CPU over the run is read first
    (400 screens closing at once are not the room's taps)."""
    with contextlib.suppress(EOFError, OSError):
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(g[0].close() for g in got if g is not None),
                                              return_exceptions=True), 20)


def devices_of(plan: Plan, got: list, shown: list[dict[str, int]]) -> dict[int, Device]:
    """The phones that may tap, by their screen's index: each tapped table's own screen and
    its players' phones whose sockets opened (over "http" too: they show the table)."""
    out = {i: Device(g[0], shown[i], plan.sync, s.table, s.path)
           for i, (s, g) in enumerate(zip(plan.screens, got, strict=True))
           if g is not None and s.kind in ("device", "phone") and s.table in plan.tables}
    for i, device in out.items():
        device.saw(got[i][4], time.time())  # the table as its snapshot drew it
    return out


def scorekeeping(plan: Plan, devices: dict[int, Device], tables: dict[int, Table]
                 ) -> dict[int, Scorekeeping]:
    """Who enters each table's rolls: its own screen, and in turn its players' phones."""
    out = {}
    for n, table in tables.items():
        mine = [(plan.screens[i].kind, d) for i, d in devices.items() if d.number == n]
        table.device = next((d for kind, d in mine if kind == "device"), None)
        out[n] = Scorekeeping(table, table.device, [d for kind, d in mine if kind == "phone"],
                              plan.phone_every)
    return out


async def tap_the_room(plan: Plan, start: float, tally: Tally, bells: list[dict],
                       devices: dict[int, Device] | None = None) -> None:
    """Make each of the plan's taps at its slot, at its table's queue, and ring its bells."""
    limits = httpx.Limits(max_connections=max(10, len(plan.tables)),
                          max_keepalive_connections=None)
    async with contextlib.AsyncExitStack() as stack:
        https = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=base, trust_env=False, timeout=plan.timeout, limits=limits,
            cookies={"csrftoken": plan.csrf})) for base in plan.http_bases]
        # A table posts to the worker a load balancer would send it to (one per table); its
        # socket taps go to its own screen's worker.
        tables = {n: Table(n, token, plan.positions.get(n, 0), tally,
                           https[plan.tap_workers.get(n, n % len(https))], plan.csrf,
                           sockets=plan.tap_over != "http")
                  for n, token in plan.tables.items()}
        keepers = scorekeeping(plan, devices or {}, tables)
        bell_task = asyncio.create_task(ring(plan, start, bells)) if plan.bells else None
        for offset, number in plan.slots:
            delay = start + offset - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -0.05:
                tally.late += 1
            keepers[number].tap(start + offset)
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
