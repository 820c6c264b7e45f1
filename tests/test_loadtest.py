"""python manage.py loadtest at its smallest: it really starts the server and the floor relay,
opens 13 screens over client processes, taps over the tables' sockets, rings the bell, and
prints one JSON line with sane values. Figures are printed, not asserted."""

import json
import subprocess
import sys

import pytest
from django.conf import settings

from tests.waiting import until


def test_loadtest_runs_the_smallest_room_end_to_end():
    done = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--scenario", "13", "--seconds", "3",
         "--bells", "1", "--bell-hold", "1", "--clients", "2"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 1, done.stdout
    line = json.loads(lines[0])  # strict JSON: no NaN
    print(lines[0])
    assert line["scenario"] == "13"
    assert line["sockets"] == 13 and line["floor_sockets"] == 13
    # The tables tapped as the page does, over their own sockets, the floor's too.
    assert line["tap_over"] == "socket"
    assert set(line["taps_sent_over"]) == {"socket"} and line["taps_sent_over"]["socket"] >= 15
    assert line["floor_taps_sent_over"] == {"socket": 15}
    assert line["taps"] == 15 and line["intents"] == 15 and line["recorded"] == 15
    assert line["merged_taps"] == 0 and line["refused_by_race"] == 0 and line["lost_taps"] == 0
    assert "every tap counted exactly once" not in line["targets_missed"]
    assert line["failed_taps"] == 0 and line["floor_failed_taps"] == 0
    assert line["frames_lost"] == 0 and line["floor_frames_lost"] == 0
    assert line["bells_rung"] == 1
    assert line["tap_p99_ms"] > 0 and line["bell_p99_ms"] > 0
    assert line["floor_tap_p99_ms"] > 0 and line["floor_bell_p99_ms"] > 0
    assert line["kib_per_socket"] > 0 and line["cpu_ms_per_tap"] > 0
    assert line["bytes_per_frame"] > 0
    assert line["server_errors"] == 0
    for key in ("taps_per_s", "tap_p99_ms", "bell_p99_ms", "floor_tap_p99_ms",
                "floor_bell_p99_ms", "frames_lost", "failed_taps", "kib_per_socket",
                "cpu_ms_per_tap"):
        assert key in line


def test_loadtest_runs_two_nights_and_counts_every_tap_of_each():
    done = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--scenario", "13", "--seconds", "3",
         "--bells", "1", "--bell-hold", "1", "--clients", "2", "--no-floor", "--nights", "2"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    print(json.dumps(line))
    assert (line["nights"], line["route"], line["sockets"]) == (2, "spread", 26)
    assert line["taps"] == 30 and line["intents"] == 30 and line["recorded"] == 30
    assert line["recorded_by_night"] == [15, 15]  # each night's taps in its own log
    assert line["merged_taps"] == 0 and line["refused_by_race"] == 0 and line["lost_taps"] == 0
    assert line["failed_taps"] == 0 and line["frames_lost"] == 0
    assert line["bells_rung"] == 2 and line["taps_measured"] == 30


def _nights_plans(route: str) -> list[list]:
    """Two nights of scenario 13 on two workers: each night's client processes' plans."""
    from bench.room import SCENARIOS, Target, plans

    target = Target([1, 2], ["ws://a", "ws://b"], ["http://a", "http://b"], 1)
    opts = {"clients": 2, "seconds": 2.0, "bells": 1, "bell_hold": 1.0, "route": route,
            "sync_every": 10.0}
    out = []
    for index in range(2):
        night = {"night": 10 + index, "tv": f"tv{index}",
                 "tables": {str(n): f"n{index}t{n}" for n in (1, 2, 3)},
                 "players": [{"token": f"n{index}p{n}{k}", "table": n}
                             for n in (1, 2, 3) for k in range(4)]}
        out.append(plans(target, night, SCENARIOS["13"], opts, index))
    return out


def test_sticky_routing_puts_a_nights_screens_and_taps_on_one_worker():
    for index, night in enumerate(_nights_plans("sticky")):
        assert {p.night for p in night} == {10 + index}
        assert {s.worker for p in night for s in p.screens} == {index}
        assert {w for p in night for w in p.tap_workers.values()} == {index}
        assert sorted(n for p in night for n in p.tap_workers) == [2, 3]


def test_spread_routing_puts_each_nights_screens_and_tables_on_the_workers_in_turn():
    for night in _nights_plans("spread"):
        screens = sorted((s.path, s.worker) for p in night for s in p.screens)
        assert len(screens) == 13 and {w for _, w in screens} == {0, 1}
        # In the room's order (the TV, then each table's device and phones): 0, 1, 0, 1, ...
        tv, = [w for path, w in screens if path.startswith("/ws/tv/")]
        assert tv == 0
        assert {n: w for p in night for n, w in p.tap_workers.items()} == {2: 0, 3: 1}
    from bench.room import SCENARIOS, room_screens

    night = {"night": 1, "tv": "tv", "tables": {"1": "a", "2": "b", "3": "c"},
             "players": [{"token": f"p{n}{k}", "table": n} for n in (1, 2, 3) for k in range(4)]}
    assert [s.worker for s in room_screens(night, SCENARIOS["13"], "", 2)] == [0, 1] * 6 + [0]


def test_a_screen_showed_a_fragment_when_it_got_it_or_a_later_one():
    from bench.analysis import Shown

    # A TV that fell behind got table 5 at #120 (10.0 s) and #125 (11.0 s), never #118.
    shown = Shown({"table-5": [(125, 11.0), (120, 10.0)], "banner": [(90, 9.0)]})
    assert shown.at("table-5", 118) == 10.0
    assert shown.at("table-5", 120) == 10.0
    assert shown.at("table-5", 121) == 11.0
    assert shown.at("table-5", 126) is None  # never shown: lost
    assert shown.at("table-6", 1) is None
    assert shown.at("banner", 90) == 9.0 and shown.at("banner", 91) is None


def _run(tv_frames: list, tv_inner: list, accepted: list) -> dict:
    """What one client process brings back: a TV's frames and a table's recorded taps."""
    tv = {"kind": "tv", "table": None, "connected": True, "frames": tv_frames, "inner": tv_inner}
    tally = {"accepted": accepted, "answers": [0.01], "busy_answers": [], "refused": {},
             "failed": {}, "errors": {}, "already": 0, "late": 0}
    return {"start": 100.0, "connected": 1, "wall": 10.0, "cpu": 0.1, "rss_before": 0,
            "rss_after": 40, "results": [{"screens": [tv], "tally": tally, "bells": [],
                                          "closed": 0, "ended": 105.0, "last_frame": 108.5}]}


def test_a_table_a_tv_showed_inside_a_room_wide_frame_is_not_lost():
    from bench.analysis import analyse
    from bench.room import SCENARIOS

    # Table 5's tap became #7; the TV never got table 5 on its own, but the bell's frame that
    # drew every table had table 5 at #8 (the tap and one after it).
    frames = [(101.0, "banner", 8, True, 300), (101.1, "tv-tables", 8, False, 40_000)]
    accepted = [(5, 7, 100.5, 100.6)]
    opts = {"seconds": 1.0}
    shown = analyse(_run(frames, [(101.1, "table-5", 8)], accepted), SCENARIOS["13"], opts)
    assert shown["frames_lost"] == 0 and shown["taps_measured"] == 1
    assert shown["tap_p99_ms"] == 600.0  # slot 100.5 -> shown at 101.1
    assert shown["frames"] == 2  # the tables inside are not frames of their own
    assert shown["drain_s"] == 3.5  # the last frame came 3.5 s after the last answer
    missed = analyse(_run(frames, [(101.1, "table-5", 6)], accepted), SCENARIOS["13"], opts)
    assert missed["frames_lost"] == 1 and missed["taps_measured"] == 0


def test_every_table_inside_a_frame_is_read_with_its_seq():
    from bench.frames import head, inner_tables

    frame = (b'<div id="tv-tables" data-seq="9" hx-swap-oob="true">'
             b'<section id="table-1" class="table-live" data-seq="4" data-table="1">'
             b'<span id="t1-score">3</span></section>'
             b'<section id="table-12" class="table-live" data-seq="9" data-table="12"></section>'
             b'</div>')
    assert head(frame) == ("tv-tables", 9, False)
    assert inner_tables(frame) == [("table-1", 4), ("table-12", 9)]


def test_a_frame_of_many_tables_records_each_and_a_tap_its_own():
    from bench.loadclient import record

    table = b'<section id="table-%d" class="table-live" data-seq="%d" data-table="%d"></section>'
    log, inner = [], []
    tap = table % (3, 7, 3)
    record(tap, 1.0, log, inner)  # a tap: its table alone
    assert log == [(1.0, "table-3", 7, False, len(tap))] and inner == []
    # The host's part of a bell: every table, the first of them its first element.
    record(table % (1, 4, 1) + table % (2, 9, 2), 2.0, log, inner)
    assert log[-1][:3] == (2.0, "table-1", 4)
    assert inner == [(2.0, "table-1", 4), (2.0, "table-2", 9)]


def test_the_client_waits_for_pushes_still_coming_after_the_last_answer(monkeypatch):
    import asyncio
    from types import SimpleNamespace

    from bench import loadclient

    # (times in binary fractions, so that the held clock adds up exactly)
    monkeypatch.setattr(loadclient, "DRAIN_SECONDS", 0.375)
    began = 1000.0
    clock = SimpleNamespace(now=began)
    heard = [began]
    pushes = [began + 0.25 * n for n in range(1, 5)]  # a frame every 0.25 s, for 1 s after

    async def sleep(seconds):  # the client's clock, moved on by its own waits
        clock.now += seconds
        while pushes and pushes[0] <= clock.now:
            heard[0] = pushes.pop(0)

    monkeypatch.setattr(loadclient, "time", SimpleNamespace(time=lambda: clock.now))
    monkeypatch.setattr(loadclient, "asyncio", SimpleNamespace(sleep=sleep))
    last = asyncio.run(loadclient.drain(heard))
    assert last - began >= 0.75  # it heard the last of them
    assert clock.now - last >= loadclient.DRAIN_SECONDS  # and then waited until quiet


def test_no_screen_stops_listening_until_every_process_has_its_taps_answered():
    import multiprocessing
    import threading
    import time

    from bench import loadclient

    # A client process whose own taps are all answered (it has none) while another
    # process's table is still retrying: its TV must go on listening.
    ours, theirs = multiprocessing.Pipe()
    plan = loadclient.Plan(ws_bases=["ws://127.0.0.1:9"], http_bases=["http://127.0.0.1:9"],
                           screens=[], tables={}, slots=[])
    worker = threading.Thread(target=loadclient.main, args=(theirs, plan), daemon=True)
    worker.start()
    assert ours.poll(10) and ours.recv()[0] == "connected"
    ours.send(("go", time.time()))
    assert ours.poll(10) and ours.recv() == ("tapped",)
    assert not ours.poll(1.0)  # still listening: the room's taps are not all answered
    ours.send(("drain", None))
    assert ours.poll(10)
    what, result = ours.recv()
    assert what == "done" and result["ended"] > 0
    worker.join(0.5)
    assert worker.is_alive()  # its screens stay open until the command has read the server
    ours.send(("close", None))
    worker.join(10)
    assert not worker.is_alive()


# -- a table's outbox against a fake server: every tap counts exactly once --------------------

class FakeTable:
    """One table as the server keeps it, before every roll counted once: its position and the
    keys in its log. A tap whose key is in the log gets its first answer ("Already recorded"
    with its seq); a new key for a position already passed is swallowed as "duplicate"; a
    position ahead of the table is refused. ``quirks``, one per request in turn, change an
    answer: "busy" (429, nothing done), "refuse" (a game refusal), "500 after commit" and
    "timeout after commit" (the tap is written but its answer lost); with an asyncio.Event, as
    ``(event, quirk)``, the request waits for it first. Taps come as form posts (the object
    is an httpx transport's handler) or over the table's socket (``socket``, a websockets
    server's handler), each written down in ``over``; over the socket, "no ack after commit"
    and "close after commit" write the tap and answer nothing (closing the socket)."""

    def __init__(self, *quirks):
        self.pos = self.seq = 0
        self.log: dict[str, int] = {}
        self.sent: list[tuple[str, int]] = []  # (key, pos) of every request, in order
        self.over: list[str] = []  # how each came: "http" or "socket"
        self.syncs = 0  # syncs the table's screen sent on its socket
        self.quirks = list(quirks)

    def html(self) -> str:
        return (f'<section id="table-2" class="table-live" data-pos="{self.pos}" '
                f'data-seq="{self.seq}">')

    def answer(self, key: str, pos: int, quirk) -> tuple[int, dict]:
        status, body = self.decide(key, pos, quirk)
        return status, {**body, "at": {"set": 1, "round": 1, "table": 2, "pos": self.pos}}

    def decide(self, key: str, pos: int, quirk) -> tuple[int, dict]:
        body = {"html": self.html(), "seq": self.seq}
        if key in self.log:
            return 200, {"ok": True, "recorded": self.log[key], "message": "Already recorded",
                         **body}
        if quirk == "refuse":
            return 409, {"ok": False, "refused": True, "error": "that table has finished", **body}
        if pos < self.pos:
            return 200, {"ok": True, "duplicate": True,
                         "message": "Already recorded: the table has moved on since that tap",
                         **body}
        if pos > self.pos:
            return 409, {"ok": False, "error": "this screen is ahead of the table; reload the "
                                               "page", **body}
        self.seq += 1
        self.pos += 1
        self.log[key] = self.seq
        return 200, {"ok": True, "recorded": self.seq, "seq": self.seq, "html": self.html()}

    async def __call__(self, request):
        from urllib.parse import parse_qsl

        import httpx

        fields = dict(parse_qsl(request.content.decode()))
        quirk = await self.received(fields, "http")
        if quirk == "busy":
            return httpx.Response(429, json={"ok": False, "retry": True, "error": "busy"})
        status, body = self.answer(fields["key"], int(fields["pos"]), quirk)
        if quirk == "500 after commit":
            return httpx.Response(500, text="<h1>Server Error (500)</h1>")
        if quirk == "timeout after commit":
            raise httpx.ReadTimeout("no answer", request=request)
        return httpx.Response(status, json=body)

    async def received(self, fields: dict, over: str):
        """A tap arrived: written down; its quirk, once any gate it waits for is open."""
        self.sent.append((fields["key"], int(fields["pos"])))
        self.over.append(over)
        quirk = self.quirks.pop(0) if self.quirks else None
        if isinstance(quirk, tuple):
            gate, quirk = quirk
            await gate.wait()
        return quirk

    async def socket(self, ws) -> None:
        """The table's own screen's socket: a tap is answered with an ack frame, as the app's
        (the decision, no table: the push brings it)."""
        async for message in ws:
            content = json.loads(message)
            if content.get("type") == "sync":
                self.syncs += 1
            if content.get("type") != "tap" or content.get("action") != "roll":
                continue
            fields = content["fields"]
            quirk = await self.received(fields, "socket")
            if quirk == "busy":
                await ws.send(json.dumps({"type": "ack", "key": fields["key"], "status": 429,
                                          "ok": False, "retry": True, "error": "slow down"}))
                continue
            status, body = self.answer(fields["key"], int(fields["pos"]), quirk)
            if quirk == "close after commit":
                await ws.close()
                return
            if quirk != "no ack after commit":
                body.pop("html", None)
                await ws.send(json.dumps({"type": "ack", "key": fields["key"],
                                          "status": status, **body}))


def _outbox(server: FakeTable, monkeypatch, device=None):
    """A table's outbox (table 2) posting to ``server`` (over ``device`` while it is open),
    its retries made quick."""
    import httpx

    from bench import outbox

    monkeypatch.setattr(outbox, "RETRY_FIRST", 0.01)
    monkeypatch.setattr(outbox, "NETWORK_RETRY", 0.01)
    tally = outbox.Tally()
    http = httpx.AsyncClient(base_url="http://fake", transport=httpx.MockTransport(server))
    return outbox.Table(2, "token", 0, tally, http, "x", device), tally


def test_taps_made_while_one_is_kept_name_the_positions_after_it(monkeypatch):
    import asyncio
    import time

    gate = asyncio.Event()
    server = FakeTable((gate, "busy"), "busy")  # the first tap waits, then is "busy" twice

    async def main():
        table, tally = _outbox(server, monkeypatch)
        first = table.make(time.time())
        await until(lambda: len(server.sent) == 1)  # on its way, not answered
        behind = [table.make(time.time()), table.make(time.time())]
        gate.set()
        await table.done()
        return [first, *behind], tally

    intents, tally = asyncio.run(main())
    assert [i.pos for i in intents] == [0, 1, 2]
    assert len({i.key for i in intents}) == 3
    # The first sent three times with its key and position, then each behind it once.
    assert server.sent == [(intents[0].key, 0)] * 3 + [(intents[1].key, 1), (intents[2].key, 2)]
    assert [i[3] for i in tally.intents] == ["recorded"] * 3
    assert set(server.log) == {i.key for i in intents} and server.pos == 3
    assert len(tally.busy_answers) == 2 and tally.already == 0


def test_a_refused_tap_moves_the_taps_behind_it_down_one(monkeypatch):
    import asyncio
    import time

    gate = asyncio.Event()
    server = FakeTable("busy", "busy", None, (gate, "refuse"))  # the second waits, is refused

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time())]
        await table.done()  # recorded at 0 after two "busy" answers
        intents.append(table.make(time.time()))  # names 1
        await until(lambda: len(server.sent) == 4)  # on its way, not answered
        intents += [table.make(time.time()), table.make(time.time())]  # 2 and 3 ...
        gate.set()
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    assert [pos for _, pos in server.sent] == [0, 0, 0, 1, 1, 2]  # ... sent as 1 and 2
    assert [i[3] for i in tally.intents] == ["recorded", "refused", "recorded", "recorded"]
    assert server.pos == 3 and set(server.log) == {intents[0].key, *(i.key for i in intents[2:])}
    assert dict(tally.refused) == {"that table has finished": 1}


def test_a_tap_given_up_before_it_was_sent_moves_the_taps_behind_it_down_one(monkeypatch):
    import asyncio
    import time

    from bench import outbox

    monkeypatch.setattr(outbox, "GIVE_UP_SECONDS", 5.0)
    server = FakeTable()

    async def main():
        table, tally = _outbox(server, monkeypatch)
        late = table.make(time.time() - 10)  # its slot long gone: given up, never sent
        behind = table.make(time.time())  # made while it waited: names 1
        await table.done()
        return late, behind, tally

    late, behind, tally = asyncio.run(main())
    assert server.sent == [(behind.key, 0)]
    assert [i[3] for i in tally.intents] == ["gave up", "recorded"]


def test_a_tap_whose_answer_is_lost_is_sent_again_and_the_next_is_not_swallowed(monkeypatch):
    import asyncio
    import time

    from bench.analysis import counted

    # The first tap is written but answered 500; the second written but its answer never
    # comes. A client that gives up on a 500 (or names the position the table last showed
    # while a tap is unanswered) sends the next tap for a passed position: "duplicate".
    server = FakeTable("500 after commit", None, "timeout after commit")

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time()) for _ in range(3)]
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    keys = [i.key for i in intents]
    assert server.sent == [(keys[0], 0), (keys[0], 0), (keys[1], 1), (keys[1], 1), (keys[2], 2)]
    assert [i[3] for i in tally.intents] == ["already", "already", "recorded"]
    assert tally.resent_5xx == 1 and dict(tally.errors) == {"ReadTimeout": 1}
    assert [seq for _, seq, _, _ in tally.accepted] == [1, 2, 3]  # each measured once
    assert counted(tally.intents, set(server.log)) == {
        "intents": 3, "recorded": 3, "already_answers": 2, "merged_taps": 0,
        "refused_taps": 0, "refused_by_race": 0, "lost_taps": 0, "lost_taps_first": []}


def test_a_tap_swallowed_as_already_recorded_is_a_merged_tap(monkeypatch):
    import asyncio
    import time

    from bench.analysis import counted

    gate = asyncio.Event()
    server = FakeTable((gate, None))

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time()) for _ in range(2)]  # 0 and 1
        await until(lambda: server.sent)  # the first on its way, not answered
        server.answer("another-phone", 0, None)  # another phone's tap takes position 0
        gate.set()
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    # Position 0 had passed: the first is answered "duplicate" and never written; the second
    # (position 1) is recorded.
    assert [i[3] for i in tally.intents] == ["duplicate", "recorded"]
    got = counted(tally.intents, set(server.log))
    assert (got["merged_taps"], got["lost_taps"], got["recorded"]) == (1, 1, 1)
    assert got["lost_taps_first"] == [
        "table 2 pos 0: duplicate (Already recorded: the table has moved on since that tap)"]


def test_a_table_taps_over_its_open_socket_as_the_page_does_and_posts_once_it_closes(
        monkeypatch):
    """As the page's outbox: while the table's own socket is open every tap goes over it (not
    one form post), answered by an ack with its key, and goes again with the same key after a
    "busy" ack or no ack at all; the socket closing on an unanswered tap sends that tap and the
    next as form posts. An "already recorded" ack (no table in it) makes the screen sync.
    Every tap counts once."""
    import asyncio
    import time

    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    from bench import outbox
    from bench.analysis import counted
    from bench.loadclient import listen

    monkeypatch.setattr(outbox, "ACK_SECONDS", 0.3)
    server = FakeTable(None, "busy", None, "no ack after commit", None, "close after commit")

    async def main():
        async with serve(server.socket, "127.0.0.1", 0) as relay:
            port = relay.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}/ws/table/token/") as ws:
                device = outbox.Device(ws, {"table-2": 0})
                heard = asyncio.create_task(listen(ws, [], [], [], [0.0], device.shown, device))
                table, tally = _outbox(server, monkeypatch, device)
                intents = [table.make(time.time()) for _ in range(5)]
                await table.done()
                heard.cancel()
        return intents, tally

    intents, tally = asyncio.run(main())
    keys = [i.key for i in intents]
    assert server.over == ["socket"] * 6 + ["http"] * 2
    assert server.sent == [(keys[0], 0), (keys[1], 1), (keys[1], 1), (keys[2], 2), (keys[2], 2),
                           (keys[3], 3), (keys[3], 3), (keys[4], 4)]
    assert [i[3] for i in tally.intents] == ["recorded", "recorded", "already", "already",
                                             "recorded"]
    assert dict(tally.sent_over) == {"socket": 6, "http": 2}
    assert dict(tally.errors) == {"no ack": 1, "socket closed": 1}
    assert len(tally.busy_answers) == 1 and server.syncs == 1
    assert [seq for _, seq, _, _ in tally.accepted] == [1, 2, 3, 4, 5]
    got = counted(tally.intents, set(server.log))
    assert (got["recorded"], got["merged_taps"], got["lost_taps"]) == (5, 0, 0)


def test_tables_tap_over_their_own_screens_socket_unless_told_to_post():
    from bench.loadclient import Plan, ScreenSpec, devices_of

    screens = [ScreenSpec("/ws/tv/v/", "tv"), ScreenSpec("/ws/table/a/", "device", 2),
               ScreenSpec("/ws/player/p/", "phone", 2), ScreenSpec("/ws/table/b/", "device", 3)]
    got = [("tv", 0, {}, 0), ("device 2", 0, {}, 0), ("phone 2", 0, {}, 0), None]
    shown = [{}, {"table-2": 4}, {}, {}]

    def plan(tap_over):
        return Plan(ws_bases=[], http_bases=[], screens=screens, tables={2: "a", 3: "b"},
                    slots=[], tap_over=tap_over)

    devices = devices_of(plan("socket"), got, shown)
    # Table 3's screen never connected: it posts, as the page does while its socket is closed.
    assert list(devices) == [2] and devices[2].ws == "device 2"
    assert devices[2].shown is shown[1]
    assert devices_of(plan("http"), got, shown) == {}


def test_the_floor_takes_a_tap_over_a_tables_socket_and_answers_with_an_ack():
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    from bench.floor import Relay

    relay = Relay({"room": {"tables": {"2": "t2"}, "players": [{"token": "p", "table": 2}],
                            "tv": "v", "night": 1}, "sizes": {"tap": 300, "answer": 300}})
    tap = {"type": "tap", "action": "roll",
           "fields": {"key": "k1", "set": "1", "round": "1", "table": "2", "pos": "0"}}

    async def main():
        async with serve(relay.screen, "127.0.0.1", 0) as server:
            base = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            async with connect(f"{base}/ws/table/t2/") as device, \
                    connect(f"{base}/ws/tv/v/") as tv:
                await device.recv()
                await tv.recv()  # the snapshots
                await device.send(json.dumps({"type": "sync", "shows": {}, "tables": []}))
                await device.send(json.dumps(tap))
                return await device.recv(), json.loads(await device.recv()), await tv.recv()

    pushed, ack, on_tv = asyncio.run(main())
    assert pushed.startswith('<section id="table-2" data-seq="1">') and on_tv == pushed
    assert ack == {"type": "ack", "key": "k1", "status": 200, "ok": True, "recorded": 1,
                   "seq": 1, "at": {"set": 1, "round": 1, "table": 2, "pos": 1}}


def test_taps_are_counted_by_their_keys_in_the_log():
    from bench.analysis import counted

    intents = [
        (2, "a", 0, "recorded", ""),
        (2, "b", 1, "already", "Already recorded"),  # its key is in the log: counted once
        (2, "c", 2, "duplicate", "Already recorded: the table has moved on since that tap"),
        (3, "d", 0, "already", "Already recorded"),  # answered so, yet not in the log
        (3, "e", 1, "refused", "that tap crossed another one; please try again"),
        (3, "f", 1, "refused", "that table has finished"),
        (4, "g", 0, "gave up", "no answer 60 s after its slot"),  # written after all
        (4, "h", 1, "failed", "HTTP 403, not JSON"),
    ]
    got = counted(intents, {"a", "b", "g", "warm-up"})
    assert got["intents"] == 8 and got["recorded"] == 3 and got["already_answers"] == 3
    assert got["merged_taps"] == 2  # c and d
    assert got["refused_taps"] == 2 and got["refused_by_race"] == 1
    assert got["lost_taps"] == 3  # c, d and h: neither in the log nor refused
    # The floor keeps no log: what it answered recorded is what it holds.
    assert counted(intents[:1], None)["recorded"] == 1


def test_a_line_that_merged_or_raced_a_tap_misses_its_targets():
    from bench.analysis import missed_targets

    line = {"frames_lost": 0, "failed_taps": 0, "merged_taps": 0, "refused_by_race": 0,
            "lost_taps": 0, "kib_per_socket": 33.0, "wanted_sockets": 405, "taps_per_s": 150,
            "tap_p99_ms": 5000.0, "idle_after_s": 1.2}
    assert missed_targets(line) == []
    assert missed_targets({**line, "merged_taps": 1}) == ["every tap counted exactly once"]
    assert missed_targets({**line, "refused_by_race": 2}) == ["every tap counted exactly once"]
    assert missed_targets({**line, "taps_per_s": 50, "bell_p99_ms_x_floor": 3.5}) == [
        "tap p99 at most 100 ms", "bell p99 at most 3x the floor's"]
    assert missed_targets({**line, "idle_after_s": 7.5}) == [
        "server idle within 5 s of the last answer"]
    assert missed_targets({**line, "wanted_sockets": 2005, "bell_p99_ms_x_floor": 2.0,
                           "bell_all_p99_ms_x_floor": 4.1}) == [
        "bell_all_p99_ms at most 3x the floor's"]


@pytest.mark.django_db
def test_the_load_tests_screens_sync_as_the_pages_do_and_an_up_to_date_one_costs_nothing():
    """A TV of 100 tables says what it shows in the page's compact form; the server finds it
    up to date (no snapshot), and behind once the room has moved on."""
    from bench.frames import shown_in, sync_message
    from bunco.live import room_frames, sync
    from bunco.night import services
    from bunco.night.cache import live_state
    from scoring import sample_names

    night = services.night_create(name="Big", rules_id="clockwise",
                                  player_names=sample_names(400))
    services.night_seat(night=night)
    services.round_start(night=night)
    shown: dict[str, int] = {}
    shown_in(room_frames.tv_snapshot(night, live_state(night)).encode(), shown)
    said = json.loads(sync_message(shown))
    assert said["type"] == "sync" and len(said["tables"]) == 100 and all(said["tables"])
    assert len(said["shows"]) <= 64  # the room-wide parts; every table in compact form
    assert not sync.stale(live_state(night), said["shows"], said["tables"])
    services.bell_ring(night=night)
    assert sync.stale(live_state(night), said["shows"], said["tables"])


def test_the_load_tests_screens_take_deflated_frames_and_send_theirs_plain_as_a_browser():
    """Chromium offers permessage-deflate and sends its own messages uncompressed: the
    server's big frames reach a load-test screen deflated, as they reach a TV, and what the
    screen sends is read plain."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve
    from websockets.extensions.permessage_deflate import (
        PerMessageDeflate,
        ServerPerMessageDeflateFactory,
    )
    from websockets.frames import Opcode

    from bench.frames import BrowserDeflate, on_wire

    seen: list[tuple[str, bool]] = []  # each text frame as the server read or wrote it

    class Recording(PerMessageDeflate):
        def decode(self, frame, *, max_size=None):
            if frame.opcode is Opcode.TEXT:
                seen.append(("read", frame.rsv1))
            return super().decode(frame, max_size=max_size)

        def encode(self, frame):
            frame = super().encode(frame)
            if frame.opcode is Opcode.TEXT:
                seen.append(("wrote", frame.rsv1))
            return frame

    class Server(ServerPerMessageDeflateFactory):
        def process_request_params(self, params, accepted):
            answer, ext = super().process_request_params(params, accepted)
            return answer, Recording(ext.remote_no_context_takeover,
                                     ext.local_no_context_takeover, ext.remote_max_window_bits,
                                     ext.local_max_window_bits, ext.compress_settings)

    big = "<section id='tv-tables'>" + "<p>Table 7: Dana, Lee</p>" * 4000 + "</section>"

    async def screen(ws):
        await ws.send(big)
        assert await ws.recv() == '{"type": "sync"}'
        await ws.send(str(ws.protocol.extensions))

    async def run():
        async with serve(screen, "127.0.0.1", 0, compression=None,
                         extensions=[Server()]) as server:
            port = server.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}/", compression=None,
                               extensions=[BrowserDeflate()], max_size=None) as ws:
                assert ws.protocol.extensions  # deflate negotiated
                got = await ws.recv(decode=False)
                assert got.decode() == big
                assert on_wire(ws, got) < len(got) / 10  # what it took on the wire, deflated
                await ws.send('{"type": "sync"}')
                return await ws.recv()

    assert "PerMessageDeflate" in asyncio.run(run())
    assert seen[:2] == [("wrote", True), ("read", False)]


def test_a_load_test_screen_answers_the_servers_request_to_sync_as_the_page_does():
    """The server's word is not a push: "here" changes nothing the screen saw and does not
    delay the drain; a request to sync is answered with what the screen shows, as live.js."""
    import asyncio

    from websockets.exceptions import ConnectionClosedOK

    from bench.loadclient import listen, sync_message

    frames = [b'<section id="table-3" data-seq="7">x</section>', b'{"type": "here"}',
              b'{"type": "sync"}']

    class Socket:
        sent: list = []

        async def recv(self, decode=False):
            if not frames:
                raise ConnectionClosedOK(None, None)
            return frames.pop(0)

        async def send(self, text):
            self.sent.append(text)

    ws, log, inner, closed, heard, shown = Socket(), [], [], [], [0.0], {}
    asyncio.run(listen(ws, log, inner, closed, heard, shown))
    assert [entry[1:3] for entry in log] == [("table-3", 7)]  # the push alone was recorded
    assert ws.sent == [sync_message({"table-3": 7})]
    assert shown == {"table-3": 7} and closed == [1]
