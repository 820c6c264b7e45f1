"""The flood benchmark runs, both ways, and says what it measured: the honest tables' times
alone and beside the flood, the flood's answers and the server's CPU in each phase (every
honest tap answered 200, or it stops with what it was answered)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("way", [[], ["--websocket"]], ids=["tap posts", "reconnects"])
def test_the_flood_benchmark_prints_its_figures(way):
    done = subprocess.run([sys.executable, "manage.py", "floodbench", "--seconds", "1.5",
                           "--connections", "4", *way], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["taps_alone"] > 0 and line["taps_flood"] > 0
    assert line["flood_answers"] and line["flood_requests_per_s"] > 0
    refused = "403" if way else "429"
    assert int(line["flood_answers"].get(refused, 0)) > 0, line
