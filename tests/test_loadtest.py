"""python manage.py loadtest at its smallest: it really starts the server and the floor relay,
opens 13 screens over client processes, taps over HTTP, rings the bell, and prints one JSON
line with sane values. Figures are printed, not asserted."""

import json
import subprocess
import sys

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
    assert line["taps"] == 15 and line["recorded"] + line["refused_taps"] == 15
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


def test_a_screen_showed_a_fragment_when_it_got_it_or_a_later_one():
    from bunco.management.commands.loadtest import Shown

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
    from bunco.management.commands.loadtest import SCENARIOS, analyse

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
    from bunco.management.loadclient import head, inner_tables

    frame = (b'<div id="tv-tables" data-seq="9" hx-swap-oob="true">'
             b'<section id="table-1" class="table-live" data-seq="4" data-table="1">'
             b'<span id="t1-score">3</span></section>'
             b'<section id="table-12" class="table-live" data-seq="9" data-table="12"></section>'
             b'</div>')
    assert head(frame) == ("tv-tables", 9, False)
    assert inner_tables(frame) == [("table-1", 4), ("table-12", 9)]


def test_a_frame_of_many_tables_records_each_and_a_tap_its_own():
    from bunco.management.loadclient import record

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
    import time

    from bunco.management import loadclient

    monkeypatch.setattr(loadclient, "DRAIN_SECONDS", 0.3)
    heard = [time.time()]

    async def late_pushes():
        for _ in range(4):  # a frame every 0.2 s, for 0.8 s after the last answer
            await asyncio.sleep(0.2)
            heard[0] = time.time()

    async def main():
        pushes = asyncio.create_task(late_pushes())
        began = time.time()
        last = await loadclient.drain(heard)
        await pushes
        return began, last, time.time()

    began, last, done = asyncio.run(main())
    assert last - began >= 0.75  # it heard the last of them
    assert done - last >= 0.3  # and then waited until quiet


def test_no_screen_stops_listening_until_every_process_has_its_taps_answered():
    import multiprocessing
    import threading
    import time

    from bunco.management import loadclient

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
    worker.join(10)
