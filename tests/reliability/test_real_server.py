"""The real server under a bad night: killed mid-tap, restarted under a room of screens, and
flooded by one screen. Each runs a small count here; the full counts (docs/reliability.md):

    BUNCO_CRASHES=20 BUNCO_STORM_SCREENS=100 .venv/bin/python -m pytest tests/reliability -s

Each prints its figures (``-s`` shows them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.management.commands.livebench import SETUP_SCRIPT, Server, bench_env, run_checked
from tests.waiting import until, wait_until

CRASHES = int(os.environ.get("BUNCO_CRASHES", "3"))
STORM_SCREENS = int(os.environ.get("BUNCO_STORM_SCREENS", "24"))
TAPS = int(os.environ.get("BUNCO_FLOOD_TAPS", "20"))

CHECK_SCRIPT = """
import json, sys
import django
django.setup()
from bunco.models import Night, ScoreEvent
from bunco.night.cache import cold_fold
night = Night.objects.get(pk=int(sys.argv[1]))
rows = list(ScoreEvent.objects.filter(night=night).order_by("seq").values_list("seq", "key"))
state = cold_fold(night)  # the whole log replays
print(json.dumps({"seqs": [s for s, _ in rows], "keys": {str(k): s for s, k in rows},
                  "last_seq": night.last_seq, "fold_seq": state.seq, "status": night.status}))
"""


@pytest.fixture
def room(tmp_path):
    env = bench_env(tmp_path)
    # The pages' files as the start command leaves them (collected once per run).
    (tmp_path / "static").symlink_to(settings.STATIC_ROOT, target_is_directory=True)
    run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "3"], env,
                                   "night setup").strip().splitlines()[-1])
    server = Server(tmp_path / "server", env)
    yield server, night, env
    server.stop()


def check_log(env, night) -> dict:
    return json.loads(run_checked([sys.executable, "-c", CHECK_SCRIPT, str(night["night"])],
                                  env, "log check").strip().splitlines()[-1])


class Table:
    """A table's scorekeeper tapping "miss" over and over, resending a tap that got no answer
    (same key, same position) until it does, as the page's outbox does."""

    def __init__(self, number: int, token: str, server: Server):
        self.number, self.token, self.server = number, token, server
        self.pos = 0
        self.acked: dict[str, int] = {}
        self.retries = 0
        self.errors: list = []
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(trust_env=False, timeout=3) as http:
            csrf = None
            while not self.stop.is_set():
                key = str(uuid.uuid4())
                while not self.stop.is_set():
                    try:
                        if csrf is None:
                            http.get(f"{self.server.base}/t/{self.token}/")
                            csrf = http.cookies.get("csrftoken")
                        answer = http.post(
                            f"{self.server.base}/t/{self.token}/roll/",
                            data={"key": key, "set": 1, "round": 1, "table": self.number,
                                  "pos": self.pos, "quick": "miss"},
                            headers={"X-CSRFToken": csrf or ""})
                    except httpx.HTTPError:  # resent after the outbox's pause (its pace)
                        self.retries += 1
                        time.sleep(0.2)
                        continue
                    body = answer.json()
                    if answer.status_code == 429 and body.get("retry"):  # slow down: resend
                        time.sleep(0.5)  # the outbox's pace after "slow down"
                        continue
                    if answer.status_code != 200 or not body.get("ok"):
                        self.errors.append(body)
                        self.stop.set()
                        break
                    self.acked[key] = body["recorded"]
                    self.pos += 1
                    break


def test_a_server_killed_at_random_moments_loses_no_acknowledged_tap(room):
    server, night, env = room
    rng = random.Random(7)
    server.start()
    port = server.port
    tables = [Table(int(n), t, server) for n, t in night["tables"].items()]
    threads = [threading.Thread(target=t.run, daemon=True) for t in tables]
    for thread in threads:
        thread.start()

    def tapped_here() -> None:
        """Until every table has a tap acknowledged by the server now up (or stopped)."""
        before = {t: len(t.acked) for t in tables}
        wait_until(lambda: all(len(t.acked) > before[t] or t.stop.is_set() for t in tables),
                   "a tap acknowledged by the server now up")

    for _ in range(CRASHES):
        tapped_here()
        time.sleep(rng.uniform(0.3, 1.5))  # a random moment of its serving: the input
        server.proc.send_signal(signal.SIGKILL)  # no goodbye: mid-write, mid-answer
        server.proc.wait()
        server.start(port=port)
    tapped_here()
    for t in tables:
        t.stop.set()
    for thread in threads:
        thread.join(timeout=30)
    server.stop()

    log = check_log(env, night)
    acked = {k: s for t in tables for k, s in t.acked.items()}
    print(f"\ncrash test: {CRASHES} SIGKILLs, {len(acked)} taps acknowledged, "
          f"{sum(t.retries for t in tables)} resends after a kill, {len(log['seqs'])} events "
          "in the log")
    assert not [e for t in tables for e in t.errors]
    assert len(acked) > CRASHES
    missing = {k: s for k, s in acked.items() if log["keys"].get(k) != s}
    assert not missing, f"acknowledged taps missing from the log: {missing}"
    assert log["seqs"] == list(range(1, len(log["seqs"]) + 1))  # gap-free
    assert log["last_seq"] == log["fold_seq"] == len(log["seqs"])  # projection in step
    assert log["status"] == "playing"


async def screen(base: str, path: str, ready: asyncio.Event, stamps: dict, name: str,
                 wanted: dict) -> None:
    """A screen as the page keeps it: reconnect at once, then 300 ms doubling to 3 s; on every
    (re)connect the server sends a snapshot, whose banner carries the night's seq."""
    retry = 0
    while True:
        try:
            async with connect(f"ws://{base.split('//')[1]}{path}", origin=base,
                               compression=None, proxy=None, open_timeout=5) as ws:
                retry = 0
                async for message in ws:
                    text = message if isinstance(message, str) else message.decode()
                    if 'id="banner"' in text and f'data-seq="{wanted["seq"]}"' in text:
                        stamps.setdefault(name, time.monotonic())
                        ready.set()
        except (OSError, ConnectionClosed, TimeoutError):
            await asyncio.sleep(min(3.0, 0.3 * 2 ** retry) if retry else 0)
            retry += 1


def test_a_restart_brings_every_screen_back_in_step(room):
    server, night, env = room
    server.start()
    players = [p["token"] for p in night["players"]]
    paths = [f"/ws/tv/{night['tv']}/"] + [f"/ws/table/{t}/" for t in night["tables"].values()]
    paths += [f"/ws/player/{players[i % len(players)]}/" for i in range(STORM_SCREENS)]
    paths = paths[:STORM_SCREENS]

    async def storm() -> list[float]:
        wanted = {"seq": check_log(env, night)["last_seq"]}
        before: dict = {}
        ready = asyncio.Event()
        tasks = [asyncio.create_task(screen(server.base, p, ready, before, str(i), wanted))
                 for i, p in enumerate(paths)]
        with contextlib.suppress(TimeoutError):
            await until(lambda: len(before) == len(paths))
        assert len(before) == len(paths), "not every screen connected before the restart"
        after: dict = {}
        killed = time.monotonic()
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        restarted = asyncio.get_running_loop().run_in_executor(
            None, lambda: server.start(port=server.port))
        tasks = [asyncio.create_task(screen(server.base, p, ready, after, str(i), wanted))
                 for i, p in enumerate(paths)]
        await restarted
        up = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await until(lambda: len(after) == len(paths), patience=60)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(f"\nrestart storm: {len(paths)} screens; server up again "
              f"{up - killed:.2f} s after the kill; every screen back in step "
              f"{max(after.values(), default=killed) - killed:.2f} s after the kill "
              f"(median {statistics.median(v - killed for v in after.values()):.2f} s)")
        return list(after.values())

    back = asyncio.run(storm())
    assert len(back) == len(paths), "a screen did not come back by itself"


def test_a_flooding_screen_is_cut_off_and_the_other_tables_play_on(room):
    server, night, env = room
    server.start()
    tokens = {int(n): t for n, t in night["tables"].items()}

    async def _drain(ws):
        try:
            async for _ in ws:
                pass
        except ConnectionClosed:
            pass

    async def measure():
        async with connect(f"ws://{server.base.split('//')[1]}/ws/table/{tokens[2]}/",
                           origin=server.base, compression=None, proxy=None) as table2:
            await table2.recv()
            pos = 0

            async def taps(count: int) -> list[float]:
                nonlocal pos
                took = []
                for _ in range(count):
                    key = str(uuid.uuid4())
                    start = time.monotonic()
                    await table2.send(json.dumps({"type": "tap", "action": "roll", "fields": {
                        "key": key, "set": 1, "round": 1, "table": 2, "pos": pos,
                        "quick": "miss"}}))
                    while True:
                        message = json.loads(m) if (m := await table2.recv()).startswith("{") \
                            else {}
                        if message.get("type") == "ack" and message.get("key") == key:
                            assert message["ok"], message
                            break
                    took.append((time.monotonic() - start) * 1000)
                    pos += 1
                    await asyncio.sleep(0.25)  # a scorekeeper's pace: the input
                return took

            normal = await taps(TAPS)
            closed: list[int | None] = []
            refused: list[int] = []
            sent = 0
            stop = asyncio.Event()

            async def hammer():
                """A script on table 1's link: ~1,000 messages a second, and back at once
                each time it is cut off."""
                nonlocal sent
                sync = json.dumps({"type": "sync", "shows": {"banner": 0, "table-1": 0}})
                while not stop.is_set():
                    try:
                        async with connect(
                                f"ws://{server.base.split('//')[1]}/ws/table/{tokens[1]}/",
                                origin=server.base, compression=None, proxy=None) as flood:
                            drain = asyncio.create_task(_drain(flood))
                            try:
                                while not stop.is_set():
                                    await flood.send(sync)
                                    sent += 1
                                    await asyncio.sleep(0.001)  # the script's pace
                            finally:
                                drain.cancel()
                    except ConnectionClosed as exc:
                        closed.append(exc.rcvd.code if exc.rcvd else None)
                    except InvalidStatus:  # a reconnect within the penalty: refused at once
                        refused.append(1)
                        await asyncio.sleep(0.001)  # and back at once

            began = time.monotonic()
            flooding = asyncio.create_task(hammer())
            await until(lambda: closed)  # the flood under way: cut off once already
            during = await taps(TAPS)
            rate = (sent + len(refused)) / (time.monotonic() - began)
            stop.set()
            await asyncio.wait([flooding], timeout=10)
            flooding.cancel()
            return normal, during, closed, rate, len(refused)

    normal, during, closed, rate, refused = asyncio.run(measure())
    p95 = lambda xs: sorted(xs)[int(0.95 * (len(xs) - 1))]  # noqa: E731
    print(f"\nflood: table 2's taps {statistics.median(normal):.1f} ms median / "
          f"{p95(normal):.1f} ms p95 alone; {statistics.median(during):.1f} / "
          f"{p95(during):.1f} ms while a script on table 1's link sent {rate:,.0f} messages "
          f"a second or reconnects (cut off {len(closed)} times, codes {sorted(set(closed))}; "
          f"{refused} reconnects refused)")
    assert closed and set(closed) == {4429}
    assert len(during) == TAPS  # every neighbour's tap answered and recorded
    log = check_log(env, night)
    assert len(log["seqs"]) >= 2 * TAPS
    assert Path(server.err_path).exists()
    assert not [p for p in server.problems() if "Traceback" in p]
