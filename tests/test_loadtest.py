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
