"""One table as every screen shows it (its phones, the TV, the host): the teams and tallies,
whose roll it is, the rolls so far, the quick buttons, the round's result."""

from __future__ import annotations

import functools
import json

from django.template.loader import render_to_string

from bunco.live.screens.round import kind_labels, quick_labels
from bunco.night.fold import Kind, LiveNight, void_targets
from bunco.runtime import jinja as fragments
from scoring import Phase, TableView, turn_keeping_rolls
from scoring.explain import extra_rolls_text, tie_break_name
from scoring.roll import QUICK_KINDS, dice_for
from scoring.rules import AfterBell
from scoring.seating import pods_of

DUTY_TEXT = {
    AfterBell.STOP: "Bell! Stop now.",
    AfterBell.FINISH_ROLL: "finishes this roll, then stop.",
    AfterBell.FINISH_TURN: "finishes this turn, then stop.",
}


def bell_duty(view: TableView | None) -> dict | None:
    """What the bell tells this table to do, as the engine says the house rules have it."""
    bell = view.bell if view else None
    if bell is None:
        return None
    text = DUTY_TEXT[bell.then]
    if bell.then is AfterBell.STOP and view.phase is not Phase.DONE:
        text = "Bell! Regular play stops here."  # its extra rolls or tie-break follow
    return {"then": str(bell.then), "who": bell.who, "ghost": bell.ghost, "text": text}


def turn_preview(state: LiveNight, view: TableView) -> dict:
    """What a phone needs to move the turn on by itself while its taps wait to be sent: the
    rollers in turn order from the current one, and the taps (quick buttons, sorted dice)
    that keep the turn, as the engine scores them."""
    order = [f"{roller} (for {chair})" if roller != chair else chair
             for chair, roller in view.turn]
    return {"order": json.dumps(order, ensure_ascii=False),
            "keeps": _keeps(state.rules, view.round_number)}


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
    view = room.tables[number - 1].describe() if room else None  # scoring's word, once
    spec = state.tables[number - 1] if view is None else None
    phase = "paused" if state.paused else (view.phase.value if view else state.phase)
    result = next_teams = None
    shown = view
    if state.last_room and not room:
        shown = state.last_room.tables[number - 1].describe()
        result = {"winners": _team_label(shown.winners), "names": list(shown.winners),
                  "scores": [t.score for t in shown.teams], "round_number": shown.round_number}
        if state.phase == "between_rounds":  # the next round's teams, unless the night is over
            next_teams = [[spec.seats[i].name for i in seats] for seats in spec.teams]
    playing = view is not None and view.phase is not Phase.DONE
    can_roll = playing and not state.paused
    pod, is_head = pod_of(state, number)
    return {
        "number": number, "is_head": is_head, "pod": pod,
        "set_number": state.room_set if room else None,
        "round_number": view.round_number if view else None,
        "pos": state.position(number),
        "target_face": view.round_number if view else 0,
        "teams": _teams(shown, spec, decided=shown is not view),
        "individuals": (spec or room.tables[number - 1].spec).individuals,
        "roller": view.roller if playing else None,
        "ghost_for": view.rolls_for if playing else None,
        "phase": phase, "status": _status(state, view, phase),
        "can_roll": can_roll,
        "one_die": can_roll and view.dice == 1,
        "quick": " ".join(_quick_buttons(state.rules, view.round_number))
        if can_roll and view.quick else "",
        "can_finish": can_roll and view.phase is Phase.FINISHING,
        "can_undo": bool(room and not state.paused and state.latest(
            (Kind.ROLL, Kind.FINISH), table=number)),
        "rolls": _entries(state, number),
        "taken_back": _taken_back(state, number) if state.voided and room else None,
        "result": result, "next_teams": next_teams,
        "bell_duty": None if state.paused else bell_duty(view),
        "turns": turn_preview(state, view)
        if can_roll and view.phase is Phase.PLAYING and view.dice == 3 else None,
        "fuzzy_die": fuzzy_die_at(state) if state.fuzzy_die_table() == number else None,
        "won_by": _won_by(shown) if shown and shown.phase is Phase.DONE else None,
        "seq": state.versions.table(number),
    }


def _teams(view: TableView | None, spec, decided: bool = False) -> list[dict]:
    """Each team (or player, at an individual table) with its tally and how near the target;
    before the first round, its names only."""
    if view is None:
        return [{"label": _team_label(n), "names": n, "score": 0, "progress": 0,
                 "winner": False, "players": None}
                for n in ([spec.seats[i].name for i in seats] for seats in spec.teams)]
    return [{"label": _team_label(team.names), "names": list(team.names), "score": team.score,
             "progress": min(100, round(100 * team.score / view.target)) if view.target else 0,
             "winner": team.winner and (decided or view.phase is Phase.DONE),
             "players": [{"name": p.name, "points": p.points, "close": p.close}
                         for p in team.players] if team.players is not None else None}
            for team in view.teams]


#: The line under a table's tally at each stage of its round (a tie-break's names its kind).
STATUS = {
    "paused": "Paused by the host",
    "done": "Done — waiting for the other tables",
}


def _status(state: LiveNight, view: TableView | None, phase: str) -> str:
    """The line under a table's tally that says what stage its round is at."""
    if phase == "tie_break":
        if view and view.choosing_first:
            return ("Tied! Everyone rolls three dice: the high total starts the roll-off "
                    "(not scored)")
        return _tie_text(state.rules)
    if phase == "extra_rolls":
        return extra_rolls_text(state.rules)
    return STATUS.get(phase, "")


@functools.lru_cache(maxsize=64)
def _labels(rules) -> tuple[dict[str, str], dict[str, str]]:
    """A roll line's words (its kind's, its button's) in the night's own names: worked out
    once for a night's rules, not on every tap."""
    return kind_labels(rules), quick_labels(rules)


def _entries(state: LiveNight, number: int) -> list[dict]:
    """The table's latest rolls (and finishes), the newest first."""
    kinds, quick = _labels(state.rules)
    entries = [
        {"seq": r.seq, "roller": r.roller, "ghost": r.ghost,
         "rolled_by": r.rolled_by if r.ghost else "", "dice": tuple(r.dice),
         "kind": kinds.get(r.kind, r.kind), "points": r.points, "actor": r.actor,
         "quick": quick.get(r.quick, "")}
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
        f"{_labels(state.rules)[1].get(e.data.quick) or '-'.join(map(str, e.data.dice))}"
        f" (#{e.seq})" for e in events if e.seq in targets and e.kind == Kind.ROLL)
    return {"seq": last.seq, "what": what or "an entry"}


def fuzzy_die_at(state: LiveNight) -> str | None:
    """Who holds the fuzzy die, as a screen names it: its holder, or "the head table" before
    the first bunco; None without a fuzzy die."""
    if not state.rules.fuzzy_die:
        return None
    return state.fuzzy_die_holder or "the head table"


def _won_by(view: TableView) -> dict | None:
    """Why a team without the most points won this table: whose roll decided it."""
    if view.won_by is None:
        return None
    name, bunco = view.won_by
    return {"name": name, "what": "rolled a bunco" if bunco else f"reached {view.target}"}


#: The longest name four tables to a row on the TV show whole beside a score (characters).


def _tie_text(rules) -> str:
    return f"Tied! {tie_break_name(rules)}"


#: The engine that draws a table's tally: Jinja2, from templates/jinja2/tables/_table.html
#: (bunco/runtime/jinja.py).
ENGINE = fragments.NAME


def render_table(state: LiveNight, number: int) -> str:
    """A table's live tally (tables/_table.html, as ``ENGINE`` draws it)."""
    return render_to_string("tables/_table.html", {"t": table_context(state, number)},
                            using=ENGINE)
