"""The master score sheet (all players x all rounds), its CSV, and the score log per table."""

from __future__ import annotations

import csv
import datetime as dt
import io

from bunco.live.screens import quick_labels, set_winners
from bunco.models import Night, ScoreEvent
from bunco.night.cache import as_event
from bunco.night.fold import PRACTICE_SET, Kind, LiveNight, void_targets
from bunco.night.payloads import Roll
from scoring import ROUNDS_PER_SET, round_of
from scoring.night import totals

CSV_COLUMNS = ["player", "set", "round", "table", "partner", "result", "points", "buncos",
               "mini_buncos"]


def sheet_names(night: Night, state: LiveNight) -> list[str]:
    """Who is on the master sheet, in check-in order."""
    if state.night is None:
        return []
    return [p.name for p in night.players.all() if p.name in state.night.stats]


def sets_on_sheet(state: LiveNight) -> int:
    """How many sets the sheet has: those played, and the one under way until the night ends
    (a night ended after set 1 prints no empty set 2)."""
    played = max((r.set_number for r in state.night.history), default=0)
    if state.ended:
        return played
    return max(played, min(state.night.set_number, state.rules.sets))


def master_sheet(night: Night, state: LiveNight, names: list[str] | None = None) -> list[dict]:
    """One block per set played (``sets_on_sheet``): a row per player (``names``, or
    everyone), a cell per round, the player's totals, and the set's own awards once it is
    over (Winning Moves: the set winner)."""
    if state.night is None:
        return []
    names = sheet_names(night, state) if names is None else names
    cards = state.night.scorecards(names)
    set_awards = {s["number"]: s["awards"] for s in set_winners(state)}
    sets = []
    for set_number in range(1, sets_on_sheet(state) + 1):
        rows = []
        for name in names:
            played = {r["round"]: r for r in cards[name] if r["set"] == set_number}
            cells = [played.get(n) for n in range(1, ROUNDS_PER_SET + 1)]
            rows.append({"name": name, "cells": cells, **totals([c for c in cells if c])})
        sets.append({"number": set_number, "rounds": range(1, ROUNDS_PER_SET + 1), "rows": rows,
                     "awards": set_awards.get(set_number, [])})
    return sets


#: What a spreadsheet would run as a formula if a cell started with it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A cell a spreadsheet shows as typed: text that would start a formula gets a quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def master_sheet_csv(night: Night, state: LiveNight) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    if state.night is not None:
        names = [p.name for p in night.players.all()]
        cards = state.night.scorecards(names)
        for name in names:
            for r in cards[name]:
                writer.writerow([safe_cell(v) for v in (
                    name, r["set"], r["round"], r["table"], r["partner"] or "",
                    r["result"], r["points"], r["buncos"], r["mini_buncos"])])
    return out.getvalue()


def round_starts(night: Night) -> list[tuple[int, bool]]:
    """Each round's start in the log: its sequence number, and whether it was a practice."""
    return [(seq, set_number == PRACTICE_SET) for seq, set_number in ScoreEvent.objects.filter(
        night=night, kind=Kind.ROUND_STARTED).order_by("seq").values_list("seq", "set_number")]


def tally_history(night: Night, state: LiveNight, which: slice = slice(None)) -> list[dict]:
    """The taps of the rounds ``which`` picks (all by default), table by table, as logged: who
    entered each, and every correction. Only those rounds' rows are read from the log."""
    starts, labels = round_starts(night), quick_labels(state.rules)
    numbered, number = [], 0
    for seq, practice in starts:
        if practice:  # played before round 1, and counted for nothing
            numbered.append((seq, practice, None, None, 1))
        else:
            number += 1
            numbered.append((seq, practice, number, *round_of(number)))
    ends = [seq for seq, _ in starts[1:]] + [None] if starts else []  # no round: no taps
    rounds: list[dict] = []
    for (seq, practice, count, set_number, round_number), end in list(
            zip(numbered, ends, strict=True))[which]:
        rows = ScoreEvent.objects.filter(night=night, seq__gte=seq).order_by("seq")
        rows = list(rows.filter(seq__lt=end) if end is not None else rows)
        voided_by = {}
        for row in rows:
            if row.kind == Kind.VOID:
                for target in void_targets(as_event(row)):
                    voided_by[target] = row
        tables: dict = {}
        for row in rows[1:]:
            if row.kind not in (Kind.ROLL, Kind.FINISH, Kind.VOID):
                continue
            event, entry = as_event(row), state.all_rolls.get(row.seq)
            roll = event.data if row.kind == Kind.ROLL else Roll()
            tables.setdefault(row.table, []).append({
                "seq": row.seq, "kind": row.kind, "actor": row.actor, "at": row.created_at,
                "dice": list(roll.dice),
                # a button's dice only stand for it: the history names the button
                "quick": labels.get(roll.quick),
                "tapped": _tapped_late(roll, row.created_at),
                "target": ", ".join(f"#{s}" for s in void_targets(event))
                if row.kind == Kind.VOID else None,
                "roller": entry.roller if entry else (row.ghost or row.player or None),
                "rolled_by": row.player if row.ghost else None,
                "points": entry.points if entry else None,
                "scored": entry.kind if entry else None,
                "voided_by": voided_by.get(row.seq),
            })
        rounds.append({
            "seq": seq, "started": rows[0].created_at, "practice": practice, "number": count,
            "set": set_number, "round": round_number,
            # The host's own corrections (a bell taken back) belong to no table: listed last.
            "tables": sorted(tables.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)),
        })
    return rounds


def _tapped_late(roll: Roll, arrived: dt.datetime) -> dt.datetime | None:
    """When the phone took a tap that reached the laptop late (kept through a spell offline):
    its own time, when that is more than a few seconds before it ``arrived``."""
    if roll.tapped_at is None:
        return None
    tapped = dt.datetime.fromtimestamp(roll.tapped_at, tz=dt.UTC)
    return tapped if (arrived - tapped).total_seconds() > 5 else None
