"""What a take-back changes, in words the host can check before confirming."""

from __future__ import annotations

from bunco.live.screens import movement
from bunco.night.fold import Event, Kind, LiveNight
from bunco.night.services import TakeBack


def _entry(state: LiveNight, event: Event) -> str:
    if event.kind == Kind.BELL:
        return "the host's bell"
    if event.kind == Kind.FINISH:
        return f"table {event.table}'s \"done\""
    if event.kind == Kind.BREAK:
        return "the break (the round is played on instead)"
    roll = state.all_rolls.get(event.seq)
    if roll is None:
        return f"table {event.table}'s roll #{event.seq}"
    what = f"+{roll.points}" if roll.points else (roll.kind or "miss")
    return f"{roll.roller}'s roll at table {event.table} ({what}, #{event.seq})"


def _tables(state: LiveNight):
    room = state.room or state.last_room
    return room.tables if room else []


def describe_take_back(plan: TakeBack) -> dict:
    before, after = plan.before, plan.after
    changes = []
    for old, new in zip(_tables(before), _tables(after), strict=False):
        spec = old.spec
        scores = [{"label": " & ".join(spec.seats[i].name for i in team),
                   "before": old.team_scores[t], "after": new.team_scores[t]}
                  for t, team in enumerate(spec.teams)]

        def winners(table):
            return " & ".join(table.spec.seats[i].name for i in table.winners)

        if any(s["before"] != s["after"] for s in scores) or winners(old) != winners(new):
            changes.append({"number": spec.number, "scores": scores,
                            "winner_before": winners(old), "winner_after": winners(new)})
    moves_before = {m["name"]: (m["to"], m["seat"]) for m in movement(before)}
    moves_after = {m["name"]: (m["to"], m["seat"]) for m in movement(after)}
    moved = sorted(n for n in moves_before.keys() | moves_after.keys()
                   if moves_before.get(n) != moves_after.get(n))
    also = [_entry(before, before.event(s)) for s in plan.seqs if s != plan.target.seq]
    room_before, room_after = before.room or before.last_room, after.room or after.last_room
    return {
        "what": _entry(before, plan.target), "target": plan.target.seq, "also": also,
        "changes": changes,
        "reopens": before.room is None and after.room is not None,
        "unbells": bool(room_before and room_before.bell_rung
                        and room_after and not room_after.bell_rung),
        "moves": moved if before.room is None else [],
    }
