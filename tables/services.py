"""Writes made at a table: a roll, undoing the table's last roll, closing after the bell."""

from __future__ import annotations

from collections.abc import Sequence

from bunco.live import FINISH, ROLL, LiveNight
from bunco.models import Night
from bunco.selectors import live_state
from bunco.services import CommandRefused, _refuse_on_domain_errors, event_append, event_void
from scoring import IllegalMove
from scoring.roll import check_dice, dice_for
from tables.models import ScoreEvent


def _table_in_play(state: LiveNight, table: int):
    if state.room is None:
        raise IllegalMove("the round is over; wait for the bell to start the next one")
    if not 1 <= table <= len(state.room.tables):
        raise IllegalMove(f"there is no table {table} tonight")
    return state.room.tables[table - 1]


@_refuse_on_domain_errors
def roll_record(
    *,
    night: Night,
    table: int,
    key,
    actor: str,
    dice: Sequence[int] | None = None,
    quick: str | None = None,
    expect_turn: str | None = None,
) -> tuple[ScoreEvent, bool]:
    """Score one roll at ``table``: three tapped dice, a quick button (miss, hit1, hit2, mini,
    low, high, bunco, wipeout), or a single die during a one-die tie-break. ``expect_turn`` is
    the roller the phone showed: if the turn moved on meanwhile, the tap is refused."""
    state = live_state(night)
    playing = _table_in_play(state, table)
    if quick is not None:
        if quick.startswith("die") and quick[3:].isdigit():
            dice = (int(quick[3:]),)
        else:
            dice = dice_for(night.rules, playing.round_number, quick)
    if dice is None:
        raise CommandRefused("tap three dice or a button")
    dice = check_dice(list(dice), count=playing.dice_expected or 3)

    def check(state: LiveNight) -> None:
        current = _table_in_play(state, table)
        if expect_turn and not current.done:
            roller = current.spec.seats[current.current].name
            if roller != expect_turn:
                raise IllegalMove(f"it is {roller}'s turn now, not {expect_turn}'s")

    return event_append(night=night, kind=ROLL, key=key, actor=actor, table=table,
                        data={"dice": list(dice)}, check=check)


@_refuse_on_domain_errors
def roll_undo(*, night: Night, table: int, key, actor: str) -> ScoreEvent:
    """Take back this table's last roll of the round in play."""
    existing = ScoreEvent.objects.filter(night=night, key=key).first()
    if existing is not None:
        return existing
    state = live_state(night)
    _table_in_play(state, table)
    rolls = [r for r in state.table_rolls(table) if r.seq not in state.voided]
    if not rolls:
        raise CommandRefused("there is nothing to undo at this table this round")
    return event_void(night=night, seq=rolls[-1].seq, key=key, actor=actor)


@_refuse_on_domain_errors
def table_finish(*, night: Night, table: int, key, actor: str) -> ScoreEvent:
    """After the bell: nobody was mid-roll, so this table stops rolling."""
    row, _ = event_append(night=night, kind=FINISH, key=key, actor=actor, table=table,
                          check=lambda state: _table_in_play(state, table))
    return row
