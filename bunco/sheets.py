"""The master score sheet (all players x all rounds), its CSV, and the score log per table."""

from __future__ import annotations

import csv
import io

from bunco.live import LiveNight
from bunco.models import Night
from scoring.night import ROUNDS_PER_SET
from tables.models import ScoreEvent

CSV_COLUMNS = ["player", "set", "round", "table", "partner", "result", "points", "buncos",
               "mini_buncos"]


def master_sheet(night: Night, state: LiveNight) -> list[dict]:
    """One block per set: a row per player, a cell per round, and the player's totals."""
    if state.night is None:
        return []
    names = [p.name for p in night.players.all() if p.name in state.night.stats]
    cards = {name: state.night.scorecard(name) for name in names}
    sets = []
    for set_number in range(1, night.rules.sets + 1):
        rows = []
        for name in names:
            played = {r["round"]: r for r in cards[name] if r["set"] == set_number}
            cells = [played.get(n) for n in range(1, ROUNDS_PER_SET + 1)]
            done = [c for c in cells if c]
            rows.append({
                "name": name, "cells": cells,
                "wins": sum(c["result"] == "W" for c in done),
                "losses": sum(c["result"] == "L" for c in done),
                "points": sum(c["points"] for c in done),
                "buncos": sum(c["buncos"] for c in done),
                "mini_buncos": sum(c["mini_buncos"] for c in done),
            })
        sets.append({"number": set_number, "rounds": range(1, ROUNDS_PER_SET + 1), "rows": rows})
    return sets


def master_sheet_csv(night: Night, state: LiveNight) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    if state.night is not None:
        for player in night.players.all():
            for r in state.night.scorecard(player.name):
                writer.writerow([player.name, r["set"], r["round"], r["table"],
                                 r["partner"] or "", r["result"], r["points"], r["buncos"],
                                 r["mini_buncos"]])
    return out.getvalue()


def tally_history(night: Night, state: LiveNight) -> list[dict]:
    """Every round's taps, table by table, as logged: who entered each, and every correction."""
    events = list(ScoreEvent.objects.filter(night=night).order_by("seq"))
    voided_by = {e.data["seq"]: e for e in events if e.kind == "void"}
    rounds: list[dict] = []
    current = None
    for event in events:
        if event.kind == "round_started":
            current = {"seq": event.seq, "tables": {}, "started": event.created_at}
            rounds.append(current)
            continue
        if current is None or event.kind not in ("roll", "finish", "void"):
            continue
        rows = current["tables"].setdefault(event.table, [])
        entry = state.all_rolls.get(event.seq)
        rows.append({
            "seq": event.seq, "kind": event.kind, "actor": event.actor, "at": event.created_at,
            "dice": event.data.get("dice", []), "target": event.data.get("seq"),
            "roller": entry.roller if entry else None,
            "points": entry.points if entry else None,
            "scored": entry.kind if entry else None,
            "voided_by": voided_by.get(event.seq),
        })
    for number, r in enumerate(rounds, 1):
        r["number"] = number
        r["set"], r["round"] = divmod(number - 1, ROUNDS_PER_SET)
        r["set"] += 1
        r["round"] += 1
        r["tables"] = sorted(r["tables"].items())
    return rounds
