"""One table as every screen shows it (its phones, the TV, the host): the teams and tallies,
whose roll it is, the rolls so far, the quick buttons, the round's result."""

from __future__ import annotations

import functools
import json

from django.template.loader import render_to_string

from bunco.live.screens.round import KIND_LABELS, QUICK_LABELS
from bunco.night.fold import Kind, LiveNight, void_targets
from scoring import BellDuty, Phase, TableRound, turn_keeping_rolls
from scoring.explain import extra_rolls_text, tie_break_name
from scoring.roll import QUICK_KINDS, dice_for
from scoring.rules import AfterBell
from scoring.seating import pods_of

DUTY_TEXT = {
    AfterBell.STOP: "Bell! Stop now.",
    AfterBell.FINISH_ROLL: "finishes this roll, then stop.",
    AfterBell.FINISH_TURN: "finishes this turn, then stop.",
}


def bell_duty(playing: TableRound | None) -> dict | None:
    """What the bell tells this table to do, as the engine says the house rules have it."""
    duty: BellDuty | None = playing.bell_duty() if playing else None
    if duty is None:
        return None
    who = ghost = None
    if duty.seat is not None:
        spec = playing.spec
        who = spec.seats[spec.roller_of(duty.seat)].name
        if spec.seats[duty.seat].ghost:
            ghost = spec.seats[duty.seat].name
    text = DUTY_TEXT[duty.then]
    if duty.then is AfterBell.STOP and not playing.done:
        text = "Bell! Regular play stops here."  # its extra rolls or tie-break follow
    return {"then": str(duty.then), "who": who, "ghost": ghost, "text": text}


def turn_preview(state: LiveNight, playing: TableRound) -> dict:
    """What a phone needs to move the turn on by itself while its taps wait to be sent: the
    rollers in turn order from the current one, and the taps (quick buttons, sorted dice)
    that keep the turn, as the engine scores them."""
    spec = playing.spec
    order = []
    for chair in playing.turn_order():
        seat = spec.seats[chair]
        roller = spec.seats[spec.roller_of(chair)].name
        order.append(f"{roller} (for {seat.name})" if seat.ghost else seat.name)
    return {"order": json.dumps(order, ensure_ascii=False),
            "keeps": _keeps(state.rules, playing.round_number)}


@functools.lru_cache(maxsize=256)
def _keeps(rules, round_number: int) -> str:
    """The taps that keep the turn: quick buttons, then sorted dice (the same every turn of a
    round, so worked out once)."""
    keeps = turn_keeping_rolls(rules, round_number)
    kinds = [k for k in _quick_buttons(rules, round_number)
             if "".join(map(str, sorted(dice_for(rules, round_number, k)))) in keeps]
    return " ".join(kinds + sorted(keeps))


@functools.lru_cache(maxsize=256)
def _quick_buttons(rules, round_number: int) -> tuple[str, ...]:
    """The quick buttons a round's rules have (each one a roll the engine can score)."""
    kinds = []
    for kind in QUICK_KINDS:
        try:
            dice_for(rules, round_number, kind)
        except ValueError:
            continue
        kinds.append(kind)
    return tuple(kinds)


def _team_label(names) -> str:
    return " & ".join(names)


@functools.lru_cache(maxsize=64)
def _pods(pod_tables: int, table_count: int) -> tuple[tuple[int, bool], ...]:
    """For each table (by index): its pod's number (0 without pods) and whether it heads it."""
    pods = pods_of(pod_tables, table_count)
    if len(pods) == 1:
        return tuple((0, i == 0) for i in range(table_count))
    return tuple((p + 1, i == pod.start) for p, pod in enumerate(pods) for i in pod)


def pod_of(state: LiveNight, number: int) -> tuple[int, bool]:
    """Table ``number``'s pod (0: the room plays as one) and whether it is a head table."""
    room = state.room  # counted without listing the tables (``state.tables`` builds a list)
    count = len(room.tables) if room is not None else len(state.tables)
    return _pods(state.rules.pod_tables, count)[number - 1]


def table_context(state: LiveNight, number: int) -> dict:
    """One table as every screen shows it: its phones, the TV and the host."""
    room = state.room
    playing: TableRound | None = room.tables[number - 1] if room else None
    spec = playing.spec if playing else state.tables[number - 1]
    teams = _teams(playing, spec)
    roller = ghost_for = None
    if playing and not playing.done:
        seat = spec.seats[playing.current]
        roller = seat.name
        if seat.ghost:
            ghost_for = spec.seats[spec.roller_of(playing.current)].name
    phase = "paused" if state.paused else (playing.phase.value if playing else state.phase)
    result = next_teams = None
    if state.last_room and not room:
        result, teams = _last_round(state.last_room.tables[number - 1])
        if state.phase == "between_rounds":  # the next round's teams, unless the night is over
            next_teams = [[spec.seats[i].name for i in seats] for seats in spec.teams]
    decided = playing if playing and playing.done else (
        state.last_room.tables[number - 1] if state.last_room and not room else None)
    can_roll = bool(playing and not playing.done and not state.paused)
    pod, is_head = pod_of(state, number)
    return {
        "number": number, "is_head": is_head, "pod": pod,
        "set_number": state.room_set if room else None,
        "round_number": playing.round_number if playing else None,
        "pos": state.position(number),
        "target_face": playing.round_number if playing else 0,
        "teams": teams, "individuals": spec.individuals,
        "seats": [s.name for s in spec.seats],
        "roller": roller, "ghost_for": ghost_for,
        "phase": phase, "status": _status(state, playing, phase),
        "can_roll": can_roll,
        "one_die": bool(can_roll and playing.dice_expected == 1),
        "quick": " ".join(_quick_buttons(state.rules, playing.round_number))
        if can_roll and playing.quick_allowed else "",
        "can_finish": bool(can_roll and playing.phase is Phase.FINISHING),
        "can_undo": bool(room and not state.paused and state.latest(
            (Kind.ROLL, Kind.FINISH), table=number)),
        "rolls": _entries(state, number),
        "taken_back": _taken_back(state, number) if state.voided and room else None,
        "result": result, "next_teams": next_teams,
        "bell_duty": None if state.paused else bell_duty(playing),
        "turns": turn_preview(state, playing)
        if can_roll and playing.phase is Phase.PLAYING and playing.dice_expected == 3 else None,
        "fuzzy_die": fuzzy_die_at(state) if state.fuzzy_die_table() == number else None,
        "won_by": _won_by(decided) if decided else None,
        "seq": table_seq(state, number),
    }


def _teams(playing: TableRound | None, spec) -> list[dict]:
    """Each team (or player, at an individual table) with its tally and how near the target."""
    target = playing.target if playing else None
    teams = []
    for t, seats in enumerate(spec.teams):
        names = [spec.seats[i].name for i in seats]
        score = playing.team_scores[t] if playing else 0
        teams.append({
            "label": _team_label(names),
            "names": names,
            "score": score,
            "progress": min(100, round(100 * score / target)) if target else 0,
            "winner": bool(playing and playing.done and playing.winner_team == t),
            "players": _own_tallies(playing, seats) if playing else None,
        })
    return teams


def _last_round(last: TableRound) -> tuple[dict, list[dict]]:
    """Between rounds a table shows the round's final tally: who won, and the teams."""
    names = [last.spec.seats[i].name for i in last.winners]
    result = {"winners": _team_label(names), "names": names,
              "scores": list(last.team_scores), "round_number": last.round_number}
    teams = [{"label": _team_label(n), "names": n, "score": last.team_scores[t],
              "progress": min(100, round(100 * last.team_scores[t] / last.target)),
              "winner": last.winner_team == t,
              "players": _own_tallies(last, last.spec.teams[t])}
             for t, n in enumerate([last.spec.seats[i].name for i in seats]
                                   for seats in last.spec.teams)]
    return result, teams


#: The line under a table's tally at each stage of its round (a tie-break's names its kind).
STATUS = {
    "paused": "Paused by the host",
    "done": "Done — waiting for the other tables",
}


def _status(state: LiveNight, playing: TableRound | None, phase: str) -> str:
    """The line under a table's tally that says what stage its round is at."""
    if phase == "tie_break":
        if playing and playing.choosing_first:
            return ("Tied! Everyone rolls three dice: the high total starts the roll-off "
                    "(not scored)")
        return _tie_text(state.rules)
    if phase == "extra_rolls":
        return extra_rolls_text(state.rules)
    return STATUS.get(phase, "")


def _entries(state: LiveNight, number: int) -> list[dict]:
    """The table's latest rolls (and finishes), the newest first."""
    entries = [
        {"seq": r.seq, "roller": r.roller, "ghost": r.ghost,
         "rolled_by": r.rolled_by if r.ghost else "", "dice": tuple(r.dice),
         "kind": KIND_LABELS.get(r.kind, r.kind), "points": r.points, "actor": r.actor,
         "quick": QUICK_LABELS.get(r.quick, "")}
        for r in state.table_rolls(number)[-6:]
    ]
    if state.room is not None or state.closed_by is not None:
        entries += [{"seq": e.seq, "done": True, "actor": e.actor}
                    for e in state.table_events(number)
                    if e.kind == Kind.FINISH and e.seq not in state.voided]
        entries.sort(key=lambda e: e["seq"])
    return entries[-6:][::-1]


def _taken_back(state: LiveNight, number: int) -> dict | None:
    """The host's latest take-back of this table's entries this round, so its phones say why
    the tally changed under them."""
    events = state.table_events(number)
    last = next((e for e in reversed(events) if e.kind == Kind.VOID and e.actor == "host"),
                None)
    if last is None:
        return None
    targets = set(void_targets(last))
    what = ", ".join(
        f"{e.ghost or e.player}'s "
        f"{QUICK_LABELS.get(e.data.get('quick', '')) or '-'.join(map(str, e.data['dice']))}"
        f" (#{e.seq})" for e in events if e.seq in targets and e.kind == Kind.ROLL)
    return {"seq": last.seq, "what": what or "an entry"}


def fuzzy_die_at(state: LiveNight) -> str | None:
    """Who holds the fuzzy die, as a screen names it: its holder, or "the head table" before
    the first bunco; None without a fuzzy die."""
    if not state.rules.fuzzy_die:
        return None
    return state.fuzzy_die_holder or "the head table"


def _own_tallies(table: TableRound, seats) -> list[dict] | None:
    """Seed 004: each player's own points this round (their own 21 ends it), and who is close
    to it, as the engine counts them; None when only team totals count."""
    if not table.tallies_by_player:
        return None
    return [{"name": table.spec.seats[i].name, "points": table.seat_points[i],
             "close": table.close_to_target(i)} for i in seats]


def _won_by(table: TableRound) -> dict | None:
    """Why a team without the most points won this table: whose roll decided it."""
    won = table.won_by_trigger()
    if won is None:
        return None
    seat, bunco = won
    return {"name": table.spec.seats[seat].name,
            "what": "rolled a bunco" if bunco else f"reached {table.target}"}


#: The longest name four tables to a row on the TV show whole beside a score (characters).


def table_seq(state: LiveNight, number: int) -> int:
    """The data-seq of table ``number``'s fragment: the last event that changed it (its own
    taps, or anything every screen shows)."""
    return max(state.table_seq.get(number, 0), state.room_seq)


def _tie_text(rules) -> str:
    return f"Tied! {tie_break_name(rules)}"


def render_table(state: LiveNight, number: int) -> str:
    """A table's live tally (templates/jinja2/tables/_table.html)."""
    return render_to_string("tables/_table.html", {"t": table_context(state, number)},
                            using="jinja2")
