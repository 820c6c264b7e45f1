"""The round as every screen shows it: the banner (round, set, bell, break, clock), what comes
next, and what a table does once the bell has rung."""

from __future__ import annotations

from dataclasses import dataclass

from bunco.night.fold import LiveNight
from scoring import ROUNDS_PER_SET
from scoring.roll import QUICK_KINDS, dice_for
from scoring.rules import AfterBell, HouseRules
from scoring.words import roll_name

#: The pad's buttons; the mini bunco's is in the night's own word (``quick_labels``).
QUICK_LABELS = {
    "miss": "Miss", "hit1": "1 hit", "hit2": "2 hits", "low": "Low bunco", "high": "High bunco",
    "bunco": "BUNCO!", "wipeout": "Wipeout", "uncalled": "Bunco, not called",
}
#: What a roll line says a roll was; the mini bunco's is in the night's own word.
KIND_LABELS = {
    "bunco": "BUNCO!", "low_bunco": "low bunco", "high_bunco": "high bunco",
    "wipeout": "wipeout", "hits": "", "miss": "miss", "die": "one die",
    "uncalled": "bunco, not called: nothing",
}


def quick_labels(rules: HouseRules) -> dict[str, str]:
    """The pad's buttons tonight, by their names: the ones these rules score in some round."""
    word = roll_name(rules, "mini_bunco")
    labels = {**QUICK_LABELS, "mini": word[:1].upper() + word[1:]}
    return {kind: labels[kind] for kind in QUICK_KINDS if any(
        _scored(rules, number, kind) for number in range(1, ROUNDS_PER_SET + 1))}


def _scored(rules: HouseRules, round_number: int, kind: str) -> bool:
    try:
        dice_for(rules, round_number, kind)
    except ValueError:
        return False
    return True


def kind_labels(rules: HouseRules) -> dict[str, str]:
    """A roll line's kinds' names tonight."""
    return {**KIND_LABELS, "mini_bunco": roll_name(rules, "mini_bunco")}


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
    rounds_left: int = 0  # the night's rounds not played to the end (the one in play among them)


def round_banner(state: LiveNight) -> Banner:
    banner = _banner(state)
    banner.seq = state.versions.room
    banner.paused = state.paused
    banner.rounds_left = state.night.rounds_left if state.night else 0
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
    if state.rules.head_table_starts:  # the break is the host's: no phone rings during it
        return f"{what}, when the break is over and the head table rings the bell"
    return f"{what}, when the host rings the bell"


def _starter(state: LiveNight) -> str:
    """Who rings the bell that starts the next round."""
    return "the head table" if state.rules.head_table_starts else "the host"


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
                      f"Next: {_upcoming(state)}, at {_starter(state)}'s bell.", last_bell)
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
