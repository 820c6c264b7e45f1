"""A table's taps: a roll, an undo, a "done", and the claim rules every tap is held to.

A tap names the round, the table and the table's position its screen showed (a ``Claim``):
it is checked against the night as it is now (``table_claim``), so a late or repeated one is
answered ("already recorded", by the runner's key) or refused by name, never counted twice or
in the wrong round. A round's other commands (the bell, the clock's) name their round the
same way (``check_round``). Each command runs through the one runner (``runner.run``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bunco.models import Night
from bunco.night.fold import PRACTICE_SET, Kind, LiveNight
from bunco.night.payloads import Roll, Void
from bunco.night.services.runner import Ack, Command, SameRoll, run, where
from scoring import IllegalMove
from scoring.roll import QUICK_KINDS


def round_name(set_number: int | None, round_number: int | None, sets: int) -> str:
    if set_number == PRACTICE_SET:
        return "the practice round"
    if sets > 1 and set_number:
        return f"round {round_number} of set {set_number}"
    return f"round {round_number}"


def claimed_set(state: LiveNight, set_number: int | None) -> int | None:
    """The set a command names (0: the practice round), or the night's when it names none."""
    return state.set_number if set_number is None else set_number


def check_round(state: LiveNight, set_number, round_number, what: str) -> None:
    """A command made for a round that is not the one in play is refused, naming it."""
    if state.ended:
        raise IllegalMove(f"the night has ended; {what} was not counted")
    if round_number is None:
        return
    claimed = (claimed_set(state, set_number), round_number)
    name = round_name(*claimed, state.rules.sets)
    if state.room is None:
        if state.night is not None and claimed == (state.set_number, state.round_number):
            raise IllegalMove(f"{name.capitalize()} has not started yet: wait for the bell")
        raise IllegalMove(f"{what} was for {name}, which is over")
    if claimed != (state.room_set, state.room.round_number):
        raise IllegalMove(f"{what} was for {name}, which is over")


@dataclass(frozen=True)
class Claim:
    """Where a tap was made, as the screen showed it: the round, the table and the table's
    position (how many commands had been entered there this round)."""

    set_number: int | None
    round_number: int
    table: int
    position: int


def claim_for(state: LiveNight, table: int) -> Claim:
    """The claim a screen showing ``table`` right now would make."""
    return Claim(state.room_set if state.room else state.set_number, state.round_number, table,
                 state.position(table))


def table_claim(state: LiveNight, claim: Claim, what: str, roll=None) -> None:
    """Check a table's tap against the night: a tap for another round, a paused game, a
    position already taken or not yet reached is refused by name (``roll``: a roll's dice and
    quick button, to tell when the entry that took its position was that very roll)."""
    check_round(state, claim.set_number, claim.round_number, what)
    if state.paused:
        raise IllegalMove("the host has paused the game; that tap was not counted")
    if not 1 <= claim.table <= len(state.room.tables):
        raise IllegalMove(f"there is no table {claim.table} tonight")
    now = state.position(claim.table)
    if claim.position < now:
        # Its key is not in the log (the runner looked): a new tap for a position another
        # entry took first. Never taken for that entry: it may be another roll.
        if roll is not None and same_roll(state, claim, now, *roll):
            raise SameRoll(f"another phone entered that roll at table {claim.table} first: it "
                           "counts once. One phone keeping score at a table is enough")
        raise IllegalMove(f"table {claim.table} had moved on: another entry was made there "
                          "first. Check the tally; enter it again if it is still missing")
    if claim.position > now:
        raise IllegalMove("this screen is ahead of the table; reload the page")
    return None


def same_roll(state: LiveNight, claim: Claim, now: int, dice, quick) -> bool:
    """Whether the table's latest entry (``now``: its next position), standing and at the
    claim's position, was this very roll (the same button, or the same dice): a screen
    further behind may mean a new roll."""
    if claim.position != now - 1:
        return False
    taken = [e for e in state.table_events(claim.table) if e.position == claim.position]
    if not taken or taken[-1].kind != Kind.ROLL or taken[-1].seq in state.voided:
        return False
    entered = taken[-1].data
    if quick:
        return entered.quick == quick
    return bool(dice) and sorted(entered.dice) == sorted(dice)


@dataclass(frozen=True)
class RecordRoll(Command):
    """Score one roll at the claimed table and position: three tapped dice, a quick button
    (miss, hit1, hit2, mini, low, high, bunco, wipeout), or a single die (``die1``..``die6``)
    during a one-die tie-break. The roll is recorded with who rolled it (and the ghost's chair
    when a partner rolls for a ghost); quick buttons are read in the claimed round."""

    claim: Claim
    dice: Sequence[int] | None = None
    quick: str | None = None
    tapped_ms: int | None = None  # when the phone took it

    def event(self, state: LiveNight) -> dict | Ack:
        claim = self.claim
        table_claim(state, claim, "that roll", roll=(self.dice, self.quick))
        table = state.room.tables[claim.table - 1]
        if table.done:
            raise IllegalMove(f"table {claim.table} has finished this round")
        rolled = table.tapped(dice=self.dice, quick=self.quick)
        spec = table.spec
        chair = spec.seats[table.current]
        player = spec.seats[spec.roller_of(table.current)].name
        return {"kind": Kind.ROLL, "table": claim.table, **where(state),
                "player": player, "ghost": chair.name if chair.ghost else "",
                "position": claim.position, "data": Roll(
                    tuple(rolled),
                    # A button's dice only stand for it: screens name the button instead.
                    self.quick if self.quick in QUICK_KINDS else "",
                    _tapped(self.tapped_ms))}


def roll_record(*, night: Night, claim: Claim, key, actor: str,
                dice: Sequence[int] | None = None, quick: str | None = None,
                tapped_ms: int | None = None) -> Ack:
    return run(night, RecordRoll(claim, dice, quick, tapped_ms), key=key, actor=actor)


#: How far a phone's own time for a tap may be from the laptop's and still be believed: a tap
#: kept through a long spell offline, but not a phone whose clock is days off.
TAPPED_WITHIN = 6 * 3600


def _tapped(tapped_ms: int | None) -> float | None:
    """When the phone took the tap (epoch seconds), when that is a time to believe."""
    if not tapped_ms:
        return None
    at = tapped_ms / 1000
    if not time.time() - TAPPED_WITHIN <= at <= time.time() + 60:
        return None
    return round(at, 1)


@dataclass(frozen=True)
class UndoRoll(Command):
    """Take back this table's last roll (or its "done") of the round in play. Only this
    table's own entries: if taking it back would undo another table's too, the host decides."""

    claim: Claim

    def event(self, state: LiveNight) -> dict:
        claim = self.claim
        table_claim(state, claim, "that undo")
        last = state.latest((Kind.ROLL, Kind.FINISH), table=claim.table)
        if last is None:
            raise IllegalMove("there is nothing to undo at this table this round")
        seqs, _ = state.plan_void(last.seq)
        others = [s for s in seqs if state.event(s).table != claim.table]
        if others:
            raise IllegalMove("undoing that roll would also undo another table's entries "
                              "(it rang the bell): ask the host to take it back")
        return {"kind": Kind.VOID, "table": claim.table, **where(state),
                "position": claim.position, "data": Void(tuple(seqs))}


def roll_undo(*, night: Night, claim: Claim, key, actor: str) -> Ack:
    return run(night, UndoRoll(claim), key=key, actor=actor)


@dataclass(frozen=True)
class FinishTable(Command):
    """After the bell: nobody was mid-roll, so this table stops rolling."""

    claim: Claim

    def event(self, state: LiveNight) -> dict:
        table_claim(state, self.claim, "that tap")
        return {"kind": Kind.FINISH, "table": self.claim.table, **where(state),
                "position": self.claim.position}


def table_finish(*, night: Night, claim: Claim, key, actor: str) -> Ack:
    return run(night, FinishTable(claim), key=key, actor=actor)
