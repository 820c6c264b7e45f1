"""The end of the night and its prizes: the list and the pot, ties settled by a roll-off or
shared, the reveal on the TV.

Play never depends on the prizes, so the list and the pot can change at any time, and ties are
settled by the host after the night, each settlement an event of the log like any other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bunco.models import Night, ScoreEvent
from bunco.night.fold import Kind, LiveNight
from bunco.night.payloads import NightEnded, Prizes, Revealed, RollOff
from bunco.night.services.runner import (
    Command,
    CommandRefused,
    _refuse_on_domain_errors,
    run,
    where,
)
from scoring.awards import check_agreed


@dataclass(frozen=True)
class SetPrizes(Command):
    """The prize list and how ties share it, and the pot (None: the fees make it)."""

    awards: list[dict]
    award_ties: str
    one_prize_per_person: bool
    pot_cents: int | None

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.PRIZES, "data": Prizes(
            self.awards, self.award_ties, self.one_prize_per_person, self.pot_cents)}


@dataclass(frozen=True)
class SettlePrize(Command):
    """A tied prize settled: the roll-off's ``winner``, or ``split`` among the tied (evenly,
    or in the agreed percents, ``shares``)."""

    category: str
    winner: str | None = None
    split: bool = False
    shares: dict[str, int] | None = None

    def event(self, state: LiveNight) -> dict:
        data = (RollOff(self.category, split=True, shares=self.shares or None) if self.split
                else RollOff(self.category, winner=self.winner))
        return {"kind": Kind.ROLL_OFF, "data": data}


@dataclass(frozen=True)
class RevealNextPrize(Command):
    """Show the next prize on the TV (after the last one, start the reveal over)."""

    def event(self, state: LiveNight) -> dict:
        total = len(state.rules.awards)
        count = state.revealed + 1 if state.revealed < total else 0
        return {"kind": Kind.REVEALED, "data": Revealed(count)}


@dataclass(frozen=True)
class RevealEveryPrize(Command):
    """Show every prize at once: on the TV, and on the phones that were waiting for it."""

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.REVEALED, "data": Revealed(len(state.rules.awards))}


@_refuse_on_domain_errors
def awards_update(*, night: Night, awards: list[dict], award_ties: str,
                  one_prize_per_person: bool, pot_cents: int | None) -> Night:
    """The prize list, before or during the night (play does not depend on it)."""
    if pot_cents is not None and pot_cents < 0:
        raise CommandRefused("the pot cannot be negative")
    night.rules.replace(awards=awards, award_ties=award_ties,
                        one_prize_per_person=one_prize_per_person)  # validates
    run(night, SetPrizes(awards, award_ties, one_prize_per_person, pot_cents))
    return night


@_refuse_on_domain_errors
def prize_roll_off(*, night: Night, category: str, contenders: Sequence[str],
                   winner: str | None, rng: random.Random | None = None, key=None) -> str:
    """Settle a tied prize (or a set's): the host enters the roll-off's winner, or the app
    rolls the way the rules roll off a prize."""
    from scoring.awards import settle_roll_off

    if not contenders:
        raise CommandRefused("that prize has no tie to roll off")
    if winner is None:
        winner = settle_roll_off(night.rules, list(contenders), rng or random.SystemRandom(),
                                 category=category.rsplit(":", 1)[-1])
    elif winner not in contenders:
        raise CommandRefused(f"{winner} is not tied for that prize")
    run(night, SettlePrize(category, winner=winner), key=key)
    return winner


@_refuse_on_domain_errors
def prize_split(*, night: Night, category: str, can_split: bool, key=None,
                contenders: Sequence[str] = (), shares: dict[str, int] | None = None) -> None:
    """The players tied for a prize chose to share its money (seed 004: "they can decide how
    they would like to divvy up the prize money"): evenly, or in the whole percents they
    agreed (``shares``, one for each of the ``contenders``). A named prize cannot be split."""
    if not can_split:
        raise CommandRefused("that prize cannot be split: it goes to one person, by a roll-off")
    if shares:
        check_agreed(shares, contenders)  # a rule broken: refused with its sentence
    run(night, SettlePrize(category, split=True, shares=shares or None), key=key)


@_refuse_on_domain_errors
def prize_reveal(*, night: Night, key=None, every: bool = False) -> int:
    """The next prize on the TV (``every``: all of them at once); the phones show what the
    TV has shown."""
    command = RevealEveryPrize() if every else RevealNextPrize()
    return run(night, command, key=key).state.revealed


@dataclass(frozen=True)
class EndNight(Command):
    """The host ends the night: the standings are final and the prizes are worked out
    (``tv_reveals``: the phones show each prize as the TV reveals it)."""

    tv_reveals: bool = False

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.NIGHT_ENDED, **where(state), "data": NightEnded(self.tv_reveals)}


@_refuse_on_domain_errors
def night_end(*, night: Night, key=None, actor: str = "host",
              tv_reveals: bool = False) -> ScoreEvent:
    return run(night, EndNight(tv_reveals), key=key, actor=actor).row
