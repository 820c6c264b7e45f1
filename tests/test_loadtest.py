"""python manage.py loadtest at its smallest: it really starts the server and the floor relay,
opens 13 screens over client processes, taps over the tables' sockets, rings the bell, and
prints one JSON line with sane values. Figures are printed, not asserted."""

import json
import subprocess
import sys

import pytest
from django.conf import settings


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
    # Rolls of several kinds, from the table's own phone and from players' phones, each in the
    # night's log by who entered it; none refused; the floor got the same mix.
    assert line["refused_taps"] == 0 and line["refusals"] == {} and line["idle_slots"] == 0
    assert len(line["rolls"]) >= 3 and sum(line["rolls"].values()) == 15
    assert set(line["entered_from"]) == {"table's phone", "players' phones"}
    assert sum(line["logged_rolls"].values()) == 15
    assert {k.split(" from ")[1] for k in line["logged_rolls"]} == set(line["entered_from"])
    assert len({k.split(" from ")[0] for k in line["logged_rolls"]}) >= 3
    assert line["floor_entered_from"] == line["entered_from"]
    assert line["floor_rolls"] == line["rolls"]
    assert "CPU ms a tap, the floor" in done.stdout  # printed beside the floor's
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


def _screen(phase="playing", pos="4", can_roll="1", keeps=True) -> dict[str, str]:
    """A table's fragment as a phone shows it (its attributes)."""
    view = {"class": f"table-live phase-{phase}", "data-pos": pos, "data-can-roll": can_roll,
            "data-quick": "miss hit1 hit2 mini bunco", "data-set": "1", "data-round": "1"}
    return {**view, "data-keeps": "hit1 hit2 bunco 111 114"} if keeps else view


def test_a_scorekeeper_taps_only_what_the_screen_offers_and_the_same_in_every_run():
    from bench.rolls import choose, draw

    taps = [choose(_screen(), draw(2, n)) for n in range(400)]
    assert taps == [choose(_screen(), draw(2, n)) for n in range(400)]  # the floor's too
    quick = [t["quick"] for t in taps if "quick" in t]
    assert set(quick) <= {"miss", "hit1", "hit2", "mini", "bunco"}
    assert quick.count("miss") > quick.count("hit1") > quick.count("hit2") > 0
    faces = [t["dice"] for t in taps if "dice" in t]  # the dice pad: three faces as they fell
    assert 50 < len(faces) < 150 and all(len(f.split(",")) == 3 for f in faces)
    assert choose(_screen(can_roll=""), draw(2, 0)) is None  # a table that stopped
    # The bell rang: the roller finishes the turn with rolls that keep it (what the screen
    # said keeps the turn, remembered from before the bell).
    finishing = [choose(_screen("finishing"), draw(3, n)) for n in range(100)]
    assert {t.get("quick") or t["dice"] for t in finishing} <= {"hit1", "hit2", "bunco",
                                                               "1,1,1", "1,1,4"}


def test_the_entry_moves_to_a_players_phone_only_once_it_has_seen_where_the_table_is():
    from types import SimpleNamespace

    from bench import rolls
    from bench.outbox import Tally

    made = []
    table = SimpleNamespace(number=2, shown=4, queue=[], tally=Tally(),
                            make=lambda slot, what, by: made.append((what, by)))
    device, phone = (SimpleNamespace(view=_screen(), view_since=0.0) for _ in range(2))
    keeping = rolls.Scorekeeping(table, device, [phone], every=2)
    # Table 2's second run (taps 3-5) is the phone's: (1 + 2) % 2 == 1.
    assert [keeping.wanted(n) for n in range(6)] == [device] * 3 + [phone] * 3
    for _ in range(3):
        keeping.tap(1.0)
    table.queue = ["a tap still waiting"]
    keeping.tap(2.0)  # the table's phone has a tap unanswered: it goes on entering
    table.queue, phone.view = [], _screen(pos="3")
    keeping.tap(3.0)  # the player's phone does not show the last roll yet
    phone.view = _screen(pos="4")
    keeping.tap(4.0)  # it does: the player's phone enters from now on
    assert [by for _, by in made] == [device] * 5 + [phone]
    assert dict(table.tally.entered_from) == {"table's phone": 5, "players' phones": 1}


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
