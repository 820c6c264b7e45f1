"""What each screen shows, as template contexts built from the folded night. Page views and the
broadcaster both use these, so a pushed fragment and a reloaded page are always the same."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from bunco.fold import Kind, LiveNight
from bunco.models import HostCall, Night
from bunco.names import matching, search_text
from bunco.paging import paginate
from bunco.selectors import table_links
from scoring import (
    BellDuty,
    Phase,
    TableRound,
    decide_awards,
    how_we_play,
    pot_for,
    ranked,
    turn_keeping_rolls,
)
from scoring.awards import decide_set_awards, set_key
from scoring.explain import award_rule, tie_break_name
from scoring.night import totals
from scoring.roll import QUICK_KINDS, dice_for
from scoring.rules import AfterBell
from scoring.seating import pods_of

QUICK_LABELS = {
    "miss": "Miss", "hit1": "1 hit", "hit2": "2 hits", "mini": "Mini bunco",
    "low": "Low bunco", "high": "High bunco", "bunco": "BUNCO!", "wipeout": "Wipeout",
}
KIND_LABELS = {
    "bunco": "BUNCO!", "mini_bunco": "mini bunco", "low_bunco": "low bunco",
    "high_bunco": "high bunco", "wipeout": "wipeout", "hits": "", "miss": "miss", "die": "die",
}


@dataclass
class Banner:
    phase: str
    round_number: int | None
    set_number: int | None
    target_face: int  # the die the round rolls for (0: none); drawn as an icon
    bell: bool  # the bell has rung for the round in play
    headline: str
    detail: str
    bell_id: str = ""  # which round's ending bell rang last: screens ring once per new id
    seq: int = 0
    paused: bool = False
    can_take_back_bell: bool = False
    can_reopen: bool = False
    break_ends: int = 0  # a break's end (epoch ms): every screen counts down to it
    break_minutes: int = 0
    clock_ends: int = 0  # the clock (epoch ms): the horn, or the next round starting by itself
    clock_what: str = ""  # "horn" or "next": what a screen asks for when it reaches zero
    clock_label: str = ""


def round_banner(state: LiveNight) -> Banner:
    banner = _banner(state)
    banner.seq = state.room_seq
    banner.paused = state.paused
    # Between rounds the round's close is what the host takes back: "Take back the bell" when
    # the bell closed it at once (play stops at the bell), else "Reopen the round".
    closed = state.room is None and state.closed_by is not None and not state.ended
    bell_closed = closed and state.closed_by == state.bell_by
    banner.can_take_back_bell = state.bell_by is not None and (
        state.room is not None or bell_closed)
    banner.can_reopen = closed and not bell_closed
    if state.break_ends is not None:
        banner.break_ends, banner.break_minutes = state.break_ends, state.break_minutes
        banner.headline = "Break"
        banner.detail = f"Up next: {up_next(state)}."
    elif state.paused:
        pass  # the clock stands still while play is paused
    elif state.room is not None and state.play_ends and not state.room.bell_rung:
        banner.clock_ends, banner.clock_what, banner.clock_label = (
            state.play_ends, "horn", "Time left")
    elif state.phase == "between_rounds" and state.next_at:
        banner.clock_ends, banner.clock_what, banner.clock_label = (
            state.next_at, "next", "Next round in")
        # The clock starts it, not the host (whose bell could still start it sooner).
        banner.detail = f"Next: {_upcoming(state)} starts by itself when the clock runs out."
    if state.room is not None and state.room.bell_rung and state.horn:
        banner.detail = "Time's up! " + banner.detail
    return banner


def up_next(state: LiveNight) -> str:
    """What comes after a break, and what starts it."""
    night = state.night
    if night is None or night.finished:
        return "the prizes, when the host ends the night"
    n, s = night.round_number, night.set_number
    if state.rules.sets > 1 and n == 1 and s > 1:
        what = f"set {s} begins with round 1"
    elif state.rules.sets > 1:
        what = f"round {n} of set {s}"
    else:
        what = f"round {n}"
    return f"{what}, when the host rings the bell"


def _upcoming(state: LiveNight) -> str:
    n, s = state.night.round_number, state.night.set_number
    return f"set {s}, round {n}" if state.rules.sets > 1 else f"round {n}"


def _banner(state: LiveNight) -> Banner:
    phase = state.phase
    history = state.night.history if state.night else []
    last_bell = f"{history[-1].set_number}-{history[-1].round_number}" if history else ""
    if phase == "playing":
        room = state.room
        n, s = room.round_number, state.room_set
        detail = BELL_DETAIL[state.rules.after_bell] if room.bell_rung else f"Roll for {n}s."
        if len(room.pods) > 1 and not room.bell_rung:
            detail += " Each pod's head table rings the bell for its pod."
        bell_id = f"{s}-{n}" if room.bell_rung else last_bell
        if state.paused:
            return Banner(phase, n, s, n, room.bell_rung, "Paused",
                          "The host paused the game. Hold your dice.", bell_id)
        if state.practice:
            detail = (detail if room.bell_rung else f"Roll for {n}s.") + " Nothing counts."
            return Banner(phase, n, s, n, room.bell_rung, "Practice round", detail, bell_id)
        return Banner(phase, n, s, n, room.bell_rung, f"Round {n}", detail, bell_id)
    if phase in ("ready", "between_rounds"):
        n, s = state.night.round_number, state.night.set_number
        head = "Practice over: nothing counted" if state.practices else "Find your seat"
        if phase == "between_rounds":
            head = f"Round {history[-1].round_number} over"
        return Banner(phase, n, s, n, False, head,
                      f"Next: {_upcoming(state)}, at the host's bell.", last_bell)
    if phase == "over":
        return Banner(phase, None, None, 0, False, "That was the last round!",
                      "Stay where you are: the host will announce the prizes.", last_bell)
    if phase == "ended":
        return Banner(phase, None, None, 0, False, "That's the night!", "Thanks for playing.",
                      last_bell)
    return Banner(phase, None, None, 0, False, "Getting ready", "The host is checking players in.")


# What the bell means, room-wide, under each house rule for after the bell; each table's
# fragment names who finishes (``bell_duty``).
BELL_DETAIL = {
    AfterBell.STOP: "Bell! Stop rolling now; each table's screen says what is left.",
    AfterBell.FINISH_ROLL: "Bell! Whoever is rolling finishes that roll, then stop.",
    AfterBell.FINISH_TURN: "Bell! Whoever is rolling finishes the turn, then stop.",
}
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
    roller = ghost_for = None
    if playing and not playing.done:
        seat = spec.seats[playing.current]
        roller = seat.name
        if seat.ghost:
            ghost_for = spec.seats[spec.roller_of(playing.current)].name
    phase = playing.phase.value if playing else state.phase
    if state.paused:
        phase = "paused"
    status = {
        "paused": "Paused by the host",
        "playing": "", "finishing": "",
        "extra_rolls": "Everyone who hasn't rolled gets one roll",
        "tie_break": _tie_text(state.rules), "done": "Done — waiting for the other tables",
    }.get(phase, "")
    if playing and playing.choosing_first and phase == "tie_break":
        status = "Tied! Everyone rolls three dice: the high total starts the roll-off (not scored)"
    quick: tuple[str, ...] = ()
    if playing and playing.quick_allowed:
        quick = _quick_buttons(state.rules, playing.round_number)
    entries = [
        {"seq": r.seq, "roller": r.roller, "ghost": r.ghost,
         "rolled_by": r.rolled_by if r.ghost else "", "dice": tuple(r.dice),
         "kind": KIND_LABELS.get(r.kind, r.kind), "points": r.points, "actor": r.actor,
         "quick": QUICK_LABELS.get(r.quick, "")}
        for r in state.table_rolls(number)[-6:]
    ]
    if room is not None or state.closed_by is not None:
        entries += [{"seq": e.seq, "done": True, "actor": e.actor}
                    for e in state.table_events(number)
                    if e.kind == Kind.FINISH and e.seq not in state.voided]
        entries.sort(key=lambda e: e["seq"])
    result = next_teams = None
    if state.last_room and not room:
        # Between rounds the table shows the round's final tally; the next round's teams
        # follow, unless that was the night's last round.
        last = state.last_room.tables[number - 1]
        names = [last.spec.seats[i].name for i in last.winners]
        result = {"winners": _team_label(names), "names": names,
                  "scores": list(last.team_scores),
                  "round_number": last.round_number}
        teams = [{"label": _team_label(n), "names": n, "score": last.team_scores[t],
                  "progress": min(100, round(100 * last.team_scores[t] / last.target)),
                  "winner": last.winner_team == t,
                  "players": _own_tallies(last, last.spec.teams[t])}
                 for t, n in enumerate([last.spec.seats[i].name for i in seats]
                                       for seats in last.spec.teams)]
        if state.phase == "between_rounds":
            next_teams = [[spec.seats[i].name for i in seats] for seats in spec.teams]
    decided = playing if playing and playing.done else (
        state.last_room.tables[number - 1] if state.last_room and not room else None)
    can_roll = bool(playing and not playing.done and not state.paused)
    fuzzy = fuzzy_die_at(state) if state.fuzzy_die_table() == number else None
    pod, is_head = pod_of(state, number)
    return {
        "number": number,
        "is_head": is_head,
        "pod": pod,
        "set_number": state.room_set if room else None,
        "round_number": playing.round_number if playing else None,
        "pos": state.position(number),
        "target_face": playing.round_number if playing else 0,
        "teams": teams,
        "individuals": spec.individuals,
        "seats": [s.name for s in spec.seats],
        "roller": roller,
        "ghost_for": ghost_for,
        "phase": phase,
        "status": status,
        "can_roll": can_roll,
        "one_die": bool(can_roll and playing.dice_expected == 1),
        "quick": " ".join(quick) if can_roll else "",
        "can_finish": bool(can_roll and playing.phase is Phase.FINISHING),
        "can_undo": bool(room and not state.paused and state.latest(
            (Kind.ROLL, Kind.FINISH), table=number)),
        "rolls": entries[-6:][::-1],
        "result": result,
        "next_teams": next_teams,
        "bell_duty": None if state.paused else bell_duty(playing),
        "turns": turn_preview(state, playing)
        if can_roll and playing.phase is Phase.PLAYING and playing.dice_expected == 3 else None,
        "fuzzy_die": fuzzy,
        "won_by": _won_by(decided) if decided else None,
        "seq": table_seq(state, number),
    }


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
TV_SHORT_NAME = 14


def longest_name(state: LiveNight) -> int:
    """The longest name seated tonight (the TV gives long names wider tables)."""
    return max((len(s.name) for spec in state.tables for s in spec.seats), default=0)


def table_seq(state: LiveNight, number: int) -> int:
    """The data-seq of table ``number``'s fragment: the last event that changed it (its own
    taps, or anything every screen shows)."""
    return max(state.table_seq.get(number, 0), state.room_seq)


def _tie_text(rules) -> str:
    return f"Tied! {tie_break_name(rules)}"


def standings(state: LiveNight) -> list[dict]:
    if not state.night:
        return []
    return [vars(s) | {"place": i + 1} for i, s in enumerate(ranked(state.night.stats))]


def movement(state: LiveNight) -> list[dict]:
    """Where each player goes next, after a round closed."""
    if not state.last_room or state.room or state.phase != "between_rounds":
        return []  # nobody moves after the night's last round
    before = {s.name: t.spec.number for t in state.last_room.tables for s in t.spec.seats}
    out = []
    for spec in state.tables:
        for i, seat in enumerate(spec.seats):
            if seat.ghost:
                continue
            partner = spec.partner_of(i)
            out.append({"name": seat.name, "from": before.get(seat.name), "to": spec.number,
                        "seat": i + 1,
                        "partner": spec.seats[partner].name if partner is not None else None})
    out.sort(key=lambda m: (m["to"], m["seat"]))
    return out


def my_seat(state: LiveNight, name: str, left: bool = False,
            table_html: str | None = None, room: RoomView | None = None) -> dict:
    """A player's own phone: where they sit, with whom, their table, their scorecard.
    ``table_html`` is their table's fragment when it has been rendered already; ``room``
    what every phone's page reads of the room, when many phones are drawn at once."""
    room = room or RoomView(state, (name,))
    where = room.seats.get(name) if state.phase not in ("over", "ended") else None
    stats = state.night.stats.get(name) if state.night else None
    ctx = {"name": name, "table": None, "stats": stats, "phase": state.phase, "left": left,
           "card": scorecard(state, name, room.cards.get(name)), "seq": state.seats_seq,
           "result": round_result(state, name) if state.room is None else None,
           "last_round": state.phase in ("over", "ended")}
    if where:
        number, chair = where
        spec = state.tables[number - 1]
        partner = spec.partner_of(chair)
        ctx.update(table=number, seat=chair + 1, individuals=spec.individuals,
                   partner=spec.seats[partner].name if partner is not None else None,
                   partner_ghost=bool(partner is not None and spec.seats[partner].ghost))
        if ctx["result"] is None:  # between rounds the result stands in for the table
            ctx["table_html"] = table_html if table_html is not None else render_table(
                state, number)
        moves = room.moves
        if name in moves and moves[name]["from"] not in (None, number):
            ctx["moved_from"] = moves[name]["from"]
    return ctx


class RoomView:
    """What every player's phone reads of the room, worked out once for all the phones a push
    draws (not once per phone): the seats, the next seats, the scorecards."""

    def __init__(self, state: LiveNight, names) -> None:
        self.state, self.names = state, names
        self.seats = {s.name: (t.number, i) for t in state.tables
                      for i, s in enumerate(t.seats)}

    # Worked out when a phone is drawn (a push that draws none, a bell, needs only the seats).
    @functools.cached_property
    def moves(self) -> dict:
        return {m["name"]: m for m in movement(self.state)}

    @functools.cached_property
    def cards(self) -> dict:
        night = self.state.night
        return night.scorecards(list(self.names)) if night else {}


def round_result(state: LiveNight, name: str) -> dict | None:
    """How the round just closed went for ``name``: the final tally of their table, won or
    lost, with whom, and the buncos they rolled. None before the first round ends."""
    if not state.night or not state.night.history:
        return None
    record = state.night.history[-1]
    play = next((p for p in record.tables if name in p.seats), None)
    if play is None:
        return None
    chair = play.seats.index(name)
    mine = next(t for t, team in enumerate(play.teams) if name in team)
    others = [s for t, s in enumerate(play.scores) if t != mine]
    return {
        "set": record.set_number, "round": record.round_number, "table": play.number,
        "won": name in play.winners,
        "partners": [n for n in play.teams[mine] if n != name],
        "score": play.scores[mine], "others": others,
        "tally": [{"names": list(team), "score": play.scores[t], "mine": t == mine,
                   "winner": bool(set(team) & set(play.winners))}
                  for t, team in enumerate(play.teams)],
        "buncos": play.seat_buncos[chair] if play.seat_buncos else 0,
    }


def scorecard(state: LiveNight, name: str, rows: list[dict] | None = None) -> dict:
    if rows is None:
        rows = state.night.scorecard(name) if state.night else []
    return {"rows": rows, "totals": totals(rows)}


CATEGORY_LABELS = {
    "most_buncos": "Most buncos", "most_wins": "Most wins", "most_losses": "Most losses",
    "most_mini_buncos": "Most mini buncos", "highest_points": "Highest score",
    "lowest_points": "Lowest score", "fuzzy_die": "Fuzzy die at the end",
    "most_wipeouts": "Most wipeouts", "first_bunco": "First bunco", "last_bunco": "Last bunco",
    "most_buncos_and_wins": "Most buncos + wins",
}


#: What a prize race says before anybody has what it counts.
NONE_YET = {
    "most_buncos": "No buncos yet", "most_wins": "No wins yet", "most_losses": "No losses yet",
    "most_mini_buncos": "No mini buncos yet", "highest_points": "Nobody has scored yet",
    "lowest_points": "Nobody has scored yet", "fuzzy_die": "No buncos yet",
    "most_wipeouts": "No wipeouts yet", "first_bunco": "No buncos yet",
    "last_bunco": "No buncos yet", "most_buncos_and_wins": "Nobody has scored yet",
}


def prize_races(state: LiveNight) -> list[dict]:
    """Who leads each prize category right now (ties shown together)."""
    if not state.night or not state.rules.awards:
        return []
    results = decide_awards(state.rules.replace(award_ties="split"), state.night.stats,
                            bunco_order=state.night.bunco_order)

    def leaders(names) -> str:
        if len(names) > 3:
            return f"{len(names)} tied"
        return ", ".join(names) or "—"

    scored = any(s.points for s in state.night.stats.values())
    out = []
    for r in results:
        category = str(r.category)
        names = list(r.winners or r.roll_off)  # a named prize is tied, never split
        # Nobody leads a race that nobody has started ("12 tied (0)" says nothing); the lowest
        # score is a race only once somebody has scored.
        none_yet = not names or (r.value in (0, None) if category != "lowest_points"
                                     else not scored)
        out.append({"label": CATEGORY_LABELS[category], "leaders": leaders(names),
                    "names": names, "tied": len(names),
                    "none_yet": NONE_YET.get(category, "Nobody yet") if none_yet else "",
                    "value": r.value, "share": r.share_label, "prize": r.prize})
    return out


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def fees_note(night: Night, state: LiveNight) -> str:
    """Whose entry fees make the pot: "13 fees: 12 at the start, 1 late arrival". A late
    arrival came after the first round was played (or checked in and waits for a chair)."""
    here = night.players.here().count()
    stats = state.night.stats if state.night else {}
    late = sum(1 for n in state.here()
               if n in state.waiting or (n in stats and stats[n].late))
    note = f"{here:,} fee{'s' if here != 1 else ''}"
    if late:
        note += (f": {here - late:,} at the start, {late:,} late "
                 f"arrival{'s' if late != 1 else ''}")
    return note


def night_pot(night: Night, state: LiveNight) -> int:
    return pot_for(typed_cents=state.pot_cents, entry_fee_cents=state.entry_fee_cents,
                   players=night.players.here().count())


def final_awards(night: Night, state: LiveNight) -> list[dict]:
    """The night's prizes as the engine decides them, with the money and any roll-off the
    host still has to run."""
    if not state.night:
        return []
    out = []
    for a in decide_awards(state.rules, state.night.stats, bunco_order=state.night.bunco_order,
                           pot_cents=night_pot(night, state), roll_offs=state.roll_offs,
                           splits=sorted(state.splits)):
        payouts = [{"name": n, "amount": money(c) if a.amount_cents is not None else ""}
                   for n, c in (a.payouts or [(w, 0) for w in a.winners])]
        out.append({"category": str(a.category), "label": CATEGORY_LABELS[str(a.category)],
                    "share": a.share_label, "prize": a.prize, "value": a.value,
                    "payouts": payouts, "roll_off": list(a.roll_off),
                    "can_split": a.can_split,
                    "amount": money(a.amount_cents) if a.amount_cents is not None else ""})
    return out


def set_winners(state: LiveNight) -> list[dict]:
    """Each finished set's own awards (Winning Moves: the set winner), with any tie the host
    still has to settle. Keys (``set1:most_wins``) name the set for the roll-off forms."""
    if not state.night or not state.rules.set_awards:
        return []
    out = []
    for result in decide_set_awards(state.rules, state.night, roll_offs=state.roll_offs,
                                    splits=sorted(state.splits)):
        awards = [{"category": set_key(result.set_number, str(a.category)),
                   "label": a.prize or CATEGORY_LABELS[str(a.category)],
                   "winners": list(a.winners), "roll_off": list(a.roll_off),
                   "can_split": a.can_split, "value": _counted(str(a.category), a.value),
                   "rule": award_rule(state.rules, rule, "in the set")}
                  for a, rule in zip(result.awards, state.rules.set_awards, strict=True)]
        out.append({"number": result.set_number, "winner": ", ".join(result.winner),
                    "awards": awards})
    return out


_COUNTS = {"most_wins": ("win", "wins"), "most_buncos": ("bunco", "buncos"),
           "most_losses": ("loss", "losses"), "most_mini_buncos": ("mini bunco", "mini buncos"),
           "highest_points": ("point", "points"), "lowest_points": ("point", "points"),
           "most_wipeouts": ("wipeout", "wipeouts"),
           "most_buncos_and_wins": ("bunco or win", "buncos and wins")}


def _counted(category: str, value: int | None) -> str:
    """An award's winning count in words ("7 wins"); empty where it has none."""
    if value is None or category not in _COUNTS:
        return ""
    one, many = _COUNTS[category]
    return f"{value} {one if value == 1 else many}"


def pending_ties(night: Night, state: LiveNight) -> dict[str, dict]:
    """Every tie waiting for the host: the night's prizes (after the night ends) and the
    finished sets' awards, by key: the contenders and whether they may split instead."""
    ties = {}
    for s in set_winners(state):
        for a in s["awards"]:
            if a["roll_off"]:
                ties[a["category"]] = {"key": a["category"], "contenders": a["roll_off"],
                                       "label": f"Set {s['number']}: {a['label']}",
                                       "can_split": a["can_split"]}
    if state.ended:
        for a in final_awards(night, state):
            if a["roll_off"]:
                ties[a["category"]] = {"key": a["category"], "contenders": a["roll_off"],
                                       "label": a["label"], "can_split": a["can_split"]}
    return ties


#: At most this many tables, the TV shows them large in one row, the prize races under them;
#: more are drawn in a grid of smaller cards (``_tv_tables.html``: "many").
TV_FEW_TABLES = 3


def tv_room(night: Night, state: LiveNight) -> dict:
    """The TV's room-wide parts: standings, prize races, the movement board, the prizes.
    They change on round events only, never on a single table's tap."""
    holder = state.night.fuzzy_die_holder if state.rules.fuzzy_die and state.night else None
    return {
        "sets": set_winners(state),
        "standings": standings(state), "movement": movement(state),
        "races": prize_races(state) if state.started and not state.ended else [],
        # A room of three tables or fewer leaves room under them (the TV draws more tables in
        # a grid): the races go there, and the standings get the side column to themselves.
        "races_by_tables": len(state.tables) <= TV_FEW_TABLES,
        "ended": state.ended,
        "reveal": final_awards(night, state)[:state.revealed] if state.ended else [],
        "to_reveal": max(0, len(state.rules.awards) - state.revealed) if state.ended else 0,
        "fuzzy_holder": holder, "seq": state.seats_seq,
        "break": {"ends": state.break_ends, "minutes": state.break_minutes,
                  "up_next": up_next(state)} if state.break_ends is not None else None,
    }


def tv_bunco(state: LiveNight) -> dict:
    """This round's latest bunco, celebrated on the TV while the round is played: it ends
    with the round (not one from an hour ago, nor over the next round's movement board)."""
    # Its seq moves on with every correction too, so a bunco taken back leaves the TV.
    void = state.latest((Kind.VOID,))
    seq = max(state.room_seq, void.seq if void else 0)
    bunco = state.last_bunco
    # The fuzzy die passes with each bunco (and back with a take-back): shown with them.
    fuzzy = fuzzy_die_at(state) if state.seated else None
    if bunco is None or state.room is None or bunco not in state.rolls:
        return {"bunco": None, "seq": seq, "fuzzy": fuzzy}
    return {"bunco": {"name": bunco.roller, "table": bunco.table, "seq": bunco.seq},
            "seq": max(seq, bunco.seq), "fuzzy": fuzzy}


def house_rules_card(night: Night) -> dict:
    """The "How we play tonight" card: the night's own rules, read out by scoring."""
    rules = night.rules
    return {"name": rules.name,
            "parts": [{"heading": h, "text": t} for h, t in how_we_play(rules)]}


def render_table(state: LiveNight, number: int) -> str:
    """A table's live tally (templates/jinja2/tables/_table.html)."""
    return render_to_string("tables/_table.html", {"t": table_context(state, number)},
                            using="jinja2")


#: How much of a big room the host's page shows at once (the rest a page or a link away).
HOST_TABLES_PER_PAGE = 12
HOST_PLAYERS_PER_PAGE = 48
HOST_STANDINGS_SHOWN = 20
HOST_MOVES_SHOWN = 48


def host_room(night: Night, state: LiveNight) -> dict:
    """The host's room-wide display (no forms): standings, next seats, the prizes. In a big
    room the top of the standings and the first next seats; all of them are on the master
    sheet and the TV."""
    awards = final_awards(night, state) if state.phase in ("over", "ended") else []
    ranked, moves = standings(state), movement(state)
    return {"phase": state.phase, "standings": ranked[:HOST_STANDINGS_SHOWN],
            "standings_total": len(ranked), "movement": moves[:HOST_MOVES_SHOWN],
            "movement_total": len(moves),
            "awards": awards, "pot": money(night_pot(night, state)) if awards else "",
            "seq": state.seats_seq, "night_pk": night.pk}


def host_board(night: Night, state: LiveNight, query: Mapping[str, str] | None = None) -> dict:
    """The host's night page: the tables with their join links, the roster, the forms. A big
    room's tables and players come a page at a time (``query``: the page's query string)."""
    query = query or {}
    rules = state.rules
    links = table_links(night)
    numbers, tables_page = paginate(range(1, len(state.tables) + 1), query, "tables",
                                    HOST_TABLES_PER_PAGE)
    tables = []
    for n in numbers:
        link = links.get(n)
        tables.append({"number": n, "html": render_table(state, n),
                       "path": reverse("table", args=[link.token]) if link else ""})
    everyone = list(night.players.all())
    listed = len(everyone)
    count = sum(1 for p in everyone if p.arrived_at)  # pre-registered guests not here yet aside
    search = search_text(query.get("q"))
    found = matching(everyone, search) if search else everyone
    players, players_page = paginate(found, query, "players", HOST_PLAYERS_PER_PAGE)
    seated = [s.name for t in state.tables for s in t.seats]
    low, high = rules.player_limits
    if not low <= count <= high:
        note = f"These rules seat {low} to {high} players; {count} checked in."
    else:
        note = f"{count} players are ready to be seated."
    if count < listed:
        note += (f" The {listed - count:,} not here yet are left out; if they come later they "
                 "check in at the desk and take a ghost's chair.")
    room = host_room(night, state)
    return {
        "night": night, "rules": rules, "phase": state.phase, "players": players,
        "players_page": players_page, "search": search, "players_count": listed,
        "here_count": count, "not_here": listed - count,
        "expected_count": sum(1 for p in everyone if p.expected),
        "fee": money(state.entry_fee_cents), "tables": tables, "tables_page": tables_page,
        "banner": round_banner(state), "room": room, "awards": room["awards"],
        "ties": list(pending_ties(night, state).values()),
        "join_path": reverse("join", args=[night.join_token]),
        "tv_path": reverse("tv", args=[night.tv_token]), "tv_join_path": reverse("tv_join"),
        # Two lists to pick from in a small room; two names to type in a big one.
        "seated_names": seated if len(seated) <= HOST_PLAYERS_PER_PAGE else [],
        "seating_note": note, "seq": state.seq, "paused": state.paused,
        "revealed": state.revealed,
        "has_ghost_chair": state.next_ghost() is not None,
        "ws_url": f"/ws/host/{night.pk}/",
    }


# -- calls for the host ---------------------------------------------------------------------

#: How long a table's phone says how the host answered its call.
ANSWER_SHOWN = timedelta(minutes=10)


_calls_seen: dict[tuple[int, int | None], int] = {}


def calls_seq(night_id: int, table: int | None = None, cached: bool = False) -> int | None:
    """The data-seq of a calls fragment: when a call of the night (or of ``table``) last
    changed, in milliseconds (calls are not events of the log, so they have no seq of it).
    ``cached``: as this process last read it, with no trip to the database (None if it has
    not, or a call changed here since)."""
    if cached:
        return _calls_seen.get((night_id, table))
    calls = HostCall.objects.filter(night_id=night_id)
    if table is not None:
        calls = calls.filter(table=table)
    latest = calls.aggregate(latest=Max("changed_at"))["latest"]
    seq = _calls_seen[(night_id, table)] = int(latest.timestamp() * 1000) if latest else 0
    return seq


def calls_changed(night_id: int) -> None:
    """A call of the night was made or answered in this process: read them again."""
    for key in [k for k in list(_calls_seen) if k[0] == night_id]:
        _calls_seen.pop(key, None)


def _at(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def host_claim_html(night: Night, name: str) -> str:
    """A player's phone as the host's player list shows it (no data-seq: a sync never asks for
    it; a reload draws it anew). Empty for a name not on tonight's list."""
    player = night.players.filter(name=name).only("pk", "name", "device").first()
    if player is None:
        return ""
    return render_to_string("bunco/host/_claim.html", {"p": player, "night": night, "oob": True})


def host_calls_html(night_id: int) -> str:
    """The host's list of tables waiting for them, oldest first."""
    calls = [{"id": c.pk, "table": c.table, "by": c.by, "at": _at(c.created_at)}
             for c in HostCall.objects.filter(night_id=night_id, answered_at__isnull=True)]
    return render_to_string("bunco/host/_calls.html",
                            {"calls": calls, "seq": calls_seq(night_id)})


def call_host_html(night_id: int, table: int | None, note: str = "") -> str:
    """A table's "Call the host" button and how its last call stands: waiting, or how the
    host answered (for a few minutes). ``table`` None: the phone has no table now."""
    status, at = "", ""
    if table is not None:
        last = HostCall.objects.filter(night_id=night_id, table=table).order_by("-id").first()
        if last is not None and last.answered_at is None:
            status, at = "waiting", _at(last.created_at)
        elif last is not None and timezone.now() - last.answered_at < ANSWER_SHOWN:
            status, at = last.answer, _at(last.answered_at)
    return render_to_string("tables/_call_host.html", {
        "table": table, "status": status, "at": at, "note": note,
        "seq": calls_seq(night_id, table) if table is not None else 0})
