"""What a load test run saw, on one clock: each tap's and bell's latency to the last screen that
had to show it, frames lost, every tap counted exactly once against the night's log, and the
targets (docs/performance.md) a scenario missed."""

from __future__ import annotations

import bisect
import math
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.room import Scenario


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else math.nan


def ms(values: list[float], p: float) -> float | None:
    """A percentile in milliseconds, or None when there is nothing to measure."""
    return round(percentile(values, p) * 1000, 1) if values else None


class Shown:
    """When one screen first showed each fragment at a given seq *or a later one*: fragments
    are whole (a table's tally, the banner), so a screen that got table 5 at #120 has shown
    #118 too; a TV that falls behind is sent each table's latest tally only."""

    def __init__(self, got: dict[str, list[tuple[int, float]]]):
        self.seqs: dict[str, list[int]] = {}
        self.first: dict[str, list[float]] = {}  # earliest arrival at that seq or later
        for ident, frames in got.items():
            frames.sort()
            seqs, times, earliest = [], [], math.inf
            for seq, t in reversed(frames):
                earliest = min(earliest, t)
                seqs.append(seq)
                times.append(earliest)
            self.seqs[ident], self.first[ident] = seqs[::-1], times[::-1]

    def at(self, ident: str, seq: int) -> float | None:
        seqs = self.seqs.get(ident)
        if not seqs:
            return None
        i = bisect.bisect_left(seqs, seq)
        return self.first[ident][i] if i < len(seqs) else None


def counted(intents: list, logged: set[str] | None) -> dict:
    """Whether every tap counted exactly once. ``intents``: (table, key, position, how it
    ended, words) from the clients; ``logged``: the keys in the night's log (None for the
    floor, which keeps none: what it answered recorded is what it holds)."""
    if logged is None:
        logged = {key for _, key, _, how, _ in intents if how in ("recorded", "already")}
    refused = [i for i in intents if i[3] == "refused"]
    merged = [i for i in intents if i[3] in ("already", "duplicate") and i[1] not in logged]
    lost = [i for i in intents if i[1] not in logged and i[3] != "refused"]
    return {
        "intents": len(intents),
        "recorded": sum(1 for i in intents if i[1] in logged),
        "already_answers": sum(1 for i in intents if i[3] in ("already", "duplicate")),
        "merged_taps": len(merged),
        "refused_taps": len(refused),
        "refused_by_race": sum(1 for i in refused if "crossed" in i[4]),
        "lost_taps": len(lost),
        # which, to find out why: the table, the position the tap named, how it ended
        "lost_taps_first": [f"table {t} pos {pos}: {how}" + (f" ({why[:60]})" if why else "")
                            for t, _, pos, how, why in lost[:12]],
    }


def missed_targets(line: dict) -> list[str]:
    """The targets (docs/performance.md) a scenario's line misses; empty when it meets all
    that apply to it."""
    missed = []
    if line["frames_lost"] or line["failed_taps"]:
        missed.append("nothing lost or failed")
    if line["merged_taps"] or line["refused_by_race"] or line["lost_taps"]:
        missed.append("every tap counted exactly once")
    if line["kib_per_socket"] > 64:
        missed.append("at most 64 KiB a socket")
    if line["wanted_sockets"] == 405 and line["taps_per_s"] in (17, 50):
        if not (line["tap_p99_ms"] or math.inf) <= 100:
            missed.append("tap p99 at most 100 ms")
        if line.get("bell_p99_ms_x_floor") is not None and line["bell_p99_ms_x_floor"] > 3:
            missed.append("bell p99 at most 3x the floor's")
    if line["wanted_sockets"] >= 2005:  # 2,000 players: the bell and its tables everywhere
        for key in ("bell_p99_ms_x_floor", "bell_all_p99_ms_x_floor"):
            if line.get(key) is not None and line[key] > 3:
                missed.append(f"{key.removesuffix('_x_floor')} at most 3x the floor's")
        if line.get("tv_snapshot_wire_kb", 0) > 150:
            missed.append("a TV's snapshot at most 150 KB on the wire")
    if line.get("idle_after_s") is None or line["idle_after_s"] > 5:
        missed.append("server idle within 5 s of the last answer")
    return missed


def merged_tally(results: list[dict]) -> dict:
    tally: dict = {}
    for r in results:
        for key, value in r["tally"].items():
            if isinstance(value, dict):
                tally.setdefault(key, Counter()).update(value)
            elif isinstance(value, list):
                tally.setdefault(key, []).extend(value)
            else:
                tally[key] = tally.get(key, 0) + value
    return tally


def seen(results: list[dict], start: float) -> dict:
    """What one night's screens saw of its taps and bells (a seq is a night's own)."""
    screens = [s for r in results for s in r["screens"] if s["connected"]]
    bells = [b for r in results for b in r["bells"]]
    accepted = merged_tally(results).get("accepted", [])
    arrivals, room, finished, frames, size = _arrivals(screens, start)
    lost, missed = _lost(screens, arrivals, room, accepted)
    taps = []
    for table, seq, slot, _answered in accepted:
        times = [shown.at(f"table-{table}", seq) for screen, shown in
                 zip(screens, arrivals, strict=True)
                 if screen["kind"] == "tv" or screen["table"] == table]
        if times and None not in times:
            taps.append(max(times) - slot)
    rung = sorted(seq for seq, bell in room.items() if bell)
    bell_times, bell_all = [], []
    for bell, seq in zip(sorted(bells, key=lambda b: b["sent"]), rung, strict=False):
        times = [shown.at("banner", seq) for shown in arrivals]
        if None not in times:
            bell_times.append(max(times) - bell["sent"])
            bell_all.append(finished[seq] - bell["sent"])
    kinds, tap_sizes = _bytes_by_kind(screens, rung, start)
    return {"taps": taps, "bells": len(bells), "rung": len(rung), "bell_times": bell_times,
            "bell_all": bell_all, "lost": lost, "missed": missed, "frames": frames,
            "size": size, "kinds": kinds, "tap_sizes": tap_sizes}


def _arrivals(screens: list[dict], start: float):
    """Each screen's ``Shown`` from ``start`` on; which banners rang a bell (seq -> bool);
    when the last screen got its last frame of each seq; and the frames and bytes in all."""
    arrivals = []
    room: dict[int, bool] = {}
    finished: dict[int, float] = {}  # a seq -> when the last screen got its last frame of it
    frames = size = 0
    for screen in screens:
        got: dict[str, list[tuple[int, float]]] = {}
        for t, ident, seq, rung, nbytes in screen["frames"]:
            if t < start:
                continue
            frames += 1
            size += nbytes
            got.setdefault(ident, []).append((seq, t))
            finished[seq] = max(t, finished.get(seq, t))
            if ident == "banner":
                room[seq] = room.get(seq, False) or rung
        for t, ident, seq in screen.get("inner", ()):  # tables drawn in a room-wide part
            if t >= start:
                got.setdefault(ident, []).append((seq, t))
        arrivals.append(Shown(got))
    return arrivals, room, finished, frames, size


def _lost(screens: list[dict], arrivals: list[Shown], room: dict[int, bool],
          accepted: list) -> tuple[Counter, list[str]]:
    """The fragments each screen should have shown and never did: a count per kind of
    screen, and each one named."""
    lost, missed = Counter(), []
    for screen, shown in zip(screens, arrivals, strict=True):
        expected = {("banner", seq) for seq in room}
        expected |= {(f"table-{table}", seq) for table, seq, _, _ in accepted
                     if screen["kind"] in ("tv", "host") or screen["table"] == table}
        gone = sorted(pair for pair in expected if shown.at(*pair) is None)
        lost[screen["kind"]] += len(gone)
        missed.extend(f"{screen['kind']} {screen['table'] or ''}: {ident} #{seq} (got up to "
                      f"#{(shown.seqs.get(ident) or [0])[-1]})" for ident, seq in gone)
    return lost, missed


def _bytes_by_kind(screens: list[dict], rung: list[int], start: float):
    """The bytes each kind of screen got for a bell, for the floor's frames of the same size:
    the frame that brought the banner, and what followed it for the same bell (the tables);
    and the size of each frame a table's phone got for a tap."""
    kinds: dict[str, list[float]] = {}
    for kind in ("device", "phone", "tv", "host"):
        for part, first in ((kind, True), (f"{kind}_rest", False)):
            kinds[part] = [sum(n for t, ident, seq, _, n in s["frames"]
                               if (ident == "banner") == first and seq in rung and t >= start)
                           / max(1, len(rung)) for s in screens if s["kind"] == kind]
    tap_sizes = [n for s in screens if s["kind"] == "device"
                 for t, ident, _, _, n in s["frames"] if t >= start and ident != "banner"]
    return kinds, tap_sizes


def analyse(run: dict, scenario: Scenario, opts: dict, logged: set[str] | None = None) -> dict:
    """Latencies, lost frames and sizes from what every screen saw, on the one clock; each
    tap's key against ``logged``, the keys in the night's log (None: the floor's answers).
    Several nights: each night's screens against its own taps and bells, the figures over
    all of them."""
    tally = merged_tally(run["results"])
    nights: dict = {}
    for r in run["results"]:
        nights.setdefault(r.get("night"), []).append(r)
    each = [seen(results, run["start"]) for results in nights.values()]

    def every(key: str) -> list:
        return [x for night in each for x in night[key]]

    taps, bell_times, bell_all, tap_sizes = (every(k) for k in (
        "taps", "bell_times", "bell_all", "tap_sizes"))
    lost = sum((night["lost"] for night in each), Counter())
    frames, size = sum(n["frames"] for n in each), sum(n["size"] for n in each)
    kinds = {k: [x for n in each for x in n["kinds"][k]] for k in each[0]["kinds"]}
    made = len(tally.get("intents", []))
    return {
        "sockets": run["connected"],
        **counted(tally.get("intents", []), logged),
        "recorded_by_night": [counted(merged_tally(r).get("intents", []), logged)["recorded"]
                              for r in nights.values()],
        "refusals": dict(tally.get("refused", {})),
        "resent_5xx": tally.get("resent_5xx", 0),
        "failed_taps": sum(tally.get("failed", {}).values()),
        "failures": dict(tally.get("failed", {})),
        "busy_answers": len(tally.get("busy_answers", [])),
        "busy_answer_p99_ms": ms(tally.get("busy_answers", []), 99),
        "network_errors": sum(tally.get("errors", {}).values()),
        "taps_sent_over": dict(tally.get("sent_over", {})),  # each send: socket or http
        **_mix(tally, made),
        "answer_p99_ms": ms(tally.get("answers", []), 99),
        "tap_p50_ms": ms(taps, 50), "tap_p90_ms": ms(taps, 90), "tap_p99_ms": ms(taps, 99),
        "tap_max_ms": ms(taps, 100), "taps_measured": len(taps),
        "bells": sum(n["bells"] for n in each), "bells_rung": sum(n["rung"] for n in each),
        "bell_p50_ms": ms(bell_times, 50), "bell_p90_ms": ms(bell_times, 90),
        "bell_p99_ms": ms(bell_times, 99), "bell_max_ms": ms(bell_times, 100),
        "bell_all_p99_ms": ms(bell_all, 99),
        "frames_lost": sum(lost.values()), "frames_lost_by_kind": dict(lost),
        "frames_lost_first": every("missed")[:12],  # which, to find out why
        "frames": frames, "bytes_per_frame": round(size / frames) if frames else 0,
        **_server_figures(run, made),
        "client_late_slots": tally.get("late", 0),
        "_sizes": {"tap": round(sum(tap_sizes) / len(tap_sizes)) if tap_sizes else 1500,
                   "answer": round(sum(tap_sizes) / len(tap_sizes)) if tap_sizes else 1500,
                   **{k: round(sum(v) / len(v)) if v else 0 for k, v in kinds.items()}},
    }


def _mix(tally: dict, made: int) -> dict:
    """The taps made (a slot whose table's screen offered no roll is idle), what they were and
    from which phones."""
    return {"taps_made": made, "idle_slots": tally.get("idle_slots", 0),
            "rolls": dict(tally.get("rolls", {})),
            "entered_from": dict(tally.get("entered_from", {}))}


def ratio(a, b) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _server_figures(run: dict, taps: int) -> dict:
    """What the run cost the server (CPU, memory, how long until idle) and what its screens
    were sent besides the taps."""
    return {
        "closed_by_server": sum(r["closed"] for r in run["results"]),
        # from the room's last answer until a second of the server under a tenth of a core
        "idle_after_s": run.get("idle_after_s"),
        "syncs": sum(r.get("syncs", 0) for r in run["results"]),
        "sync_every_s": run.get("sync_every"),
        # how long after the room's last answer a client still heard pushes (until 2 s quiet)
        "drain_s": round(max([0.0, *(r["last_frame"] - r["ended"] for r in run["results"]
                                     if r["ended"])]), 2),
        "kib_per_socket": round((run["rss_after"] - run["rss_before"])
                                / max(1, run["connected"]), 1),
        "rss_mib": round(run["rss_after"] / 1024, 1),
        # a TV's snapshot (the whole room): KB of HTML, and KB on the wire (deflated)
        "tv_snapshot_kb": round(run.get("tv_snapshot", (0, 0))[0] / 1000, 1),
        "tv_snapshot_wire_kb": round(run.get("tv_snapshot", (0, 0))[1] / 1000, 1),
        "cpu_ms_per_tap": round(run["cpu"] * 1000 / max(1, taps), 2),
        "server_cpu_pct": round(run["cpu"] * 100 / run["wall"], 1),
    }
