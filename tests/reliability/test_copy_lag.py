"""The copy folder follows the night a line at a time: every roll a phone was told is recorded
reaches the copy, in the order of the log, each the roll that was told (its key), and the copy
reads as a whole night at every look. How far behind the answer the copy is, is a figure this
test prints, not a bound it asserts (a busy machine makes any bound a guess): it was 1.2 to
1.7 s when the whole file was written every 3 s, and is a few milliseconds with a line
appended per command."""

import json
import os
import statistics
import sys
import time
import uuid

import httpx

from bench.server import SETUP_SCRIPT, Server, prepared_env, run_checked
from bunco import limits
from bunco.laptop.backup import read_night_file
from tests.screens import PATIENCE

TAPS = int(os.environ.get("BUNCO_COPY_LAG_TAPS", "40"))


def in_copy(stick, seq: int, deadline: float) -> tuple[float, list]:
    """When the copy first held entry ``seq`` (monotonic), and the log it held then; looked at
    every millisecond (the printed figure's grain), as long as a busy machine needs."""
    while time.monotonic() < deadline:
        for path in stick.glob("*-night.json"):
            try:
                events = read_night_file(path.read_text())["events"]
            except (OSError, ValueError):
                continue
            if len(events) >= seq:
                return time.monotonic(), events
        time.sleep(0.001)
    raise AssertionError(f"entry {seq} never reached the copy")


def test_every_recorded_roll_reaches_the_copy_folder_in_order(tmp_path):
    stick = tmp_path / "stick"
    env = prepared_env(tmp_path / "laptop")  # migrated, its pages' files collected
    env["BUNCO_COPY_TO"] = str(stick)
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, "2"], env,
                                   "night setup").strip().splitlines()[-1])
    server = Server(tmp_path / "server", env)
    server.start()
    lags, told_keys, copied = [], [], []
    try:
        with httpx.Client(trust_env=False, timeout=5) as http:
            http.get(f"{server.base}/t/{night['tables']['1']}/")
            csrf = http.cookies.get("csrftoken")
            for pos in range(TAPS):
                key = str(uuid.uuid4())
                answer = http.post(
                    f"{server.base}/t/{night['tables']['1']}/roll/",
                    data={"key": key, "set": 1, "round": 1, "table": 1,
                          "pos": pos, "quick": "miss"}, headers={"X-CSRFToken": csrf})
                told = time.monotonic()
                assert answer.status_code == 200, answer.text
                seq = answer.json()["recorded"]
                told_keys.append((seq, key))
                seen, copied = in_copy(stick, seq, told + PATIENCE)
                lags.append(seen - told)
                # A scorekeeper's pace, within the link's share of taps (limits.TAPS): the
                # test's input, not a wait for anything.
                time.sleep(1 / limits.TAPS.rate)
    finally:
        server.stop()
    print(f"\ncopy lag after the answer, {TAPS} taps: median "
          f"{statistics.median(lags) * 1000:.1f} ms, max {max(lags) * 1000:.1f} ms")
    seqs = [entry["seq"] for entry in copied]
    assert seqs == list(range(1, len(seqs) + 1))  # the log in order, no gap
    keys = {entry["seq"]: entry.get("key") for entry in copied}
    assert [keys[seq] for seq, _ in told_keys] == [key for _, key in told_keys]
    assert server.problems() == []
