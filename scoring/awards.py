"""Awards and the pot: who wins each category, and each share to the cent.

Money is in whole cents. Two stated rules keep every cent accounted for:

* Splitting the pot between categories: each gets its percentage rounded down to the cent;
  the cents left over go one at a time to the categories with the largest rounded-off
  fractions (ties: in the order the host listed the categories).
* Splitting one category between tied winners: each gets the amount divided evenly, rounded
  down; the cents left over go one each to the winners in alphabetical order.
* A category nobody qualifies for (no bunco was rolled all night, say) passes its money to the
  first listed category that has a winner.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from .errors import IllegalMove
from .night import PlayerStats
from .rules import Award, AwardTies, Category, HouseRules, Stat

_COUNTED: dict[Category, Callable[[PlayerStats], int]] = {
    Category.MOST_BUNCOS: lambda s: s.buncos,
    Category.MOST_WINS: lambda s: s.wins,
    Category.MOST_LOSSES: lambda s: s.losses,
    Category.MOST_MINI_BUNCOS: lambda s: s.mini_buncos,
    Category.MOST_WIPEOUTS: lambda s: s.wipeouts,
    Category.MOST_BUNCOS_AND_WINS: lambda s: s.buncos + s.wins,
}
_SEQUENCE = {Category.FIRST_BUNCO, Category.LAST_BUNCO, Category.FUZZY_DIE}


@dataclass(frozen=True, slots=True)
class AwardResult:
    category: Category
    winners: tuple[str, ...]
    share_percent: Decimal | None
    prize: str
    value: int | None  # the winning count or points, where the category has one
    amount_cents: int | None = None  # this category's money, when there is a pot
    payouts: tuple[tuple[str, int], ...] = ()  # (winner, cents)
    roll_off: tuple[str, ...] = ()  # contenders still to roll off (no winner yet)

    @property
    def share_label(self) -> str | None:
        if self.share_percent is None:
            return None
        return f"{self.share_percent.normalize():f}%"


def pot_for(*, typed_cents: int | None, entry_fee_cents: int, players: int) -> int:
    """The pot: the amount the host typed, or the entry fee of every player checked in."""
    return typed_cents if typed_cents is not None else entry_fee_cents * players


def split_pot(pot_cents: int, percents: Sequence[Decimal]) -> list[int]:
    """Cents for each share; the shares add up to 100, so the cents add up to the pot."""
    if pot_cents < 0:
        raise IllegalMove("the pot cannot be negative")
    exact = [Decimal(pot_cents) * p / 100 for p in percents]
    floors = [int(e.to_integral_value(rounding=ROUND_DOWN)) for e in exact]
    left = pot_cents - sum(floors) if percents else 0
    by_fraction = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in by_fraction[:left]:
        floors[i] += 1
    return floors


def split_evenly(cents: int, winners: Sequence[str]) -> list[tuple[str, int]]:
    ordered = sorted(winners, key=str.casefold)
    each, left = divmod(cents, len(ordered))
    return [(name, each + (1 if i < left else 0)) for i, name in enumerate(ordered)]


def roll_off(contenders: Sequence[str], rng: random.Random, *, lowest: bool = False,
             category: str | None = None) -> str:
    """Each contender rolls three dice; the highest total wins (the lowest, for the lowest-score
    category: pass ``category`` and the rule is applied here). Tied totals roll again."""
    lowest = lowest or category == Category.LOWEST_POINTS
    field_ = list(contenders)
    while len(field_) > 1:
        totals = {name: sum(rng.randint(1, 6) for _ in range(3)) for name in field_}
        best = (min if lowest else max)(totals.values())
        field_ = [n for n in field_ if totals[n] == best]
    return field_[0]


def decide_awards(
    rules: HouseRules,
    stats: Mapping[str, PlayerStats],
    *,
    bunco_order: Sequence[str] = (),
    pot_cents: int | None = None,
    awards: Sequence[Award] | None = None,
    rng: random.Random | None = None,
    roll_offs: Mapping[str, str] | None = None,
) -> list[AwardResult]:
    """Every award's winners (and money). Ghosts are never eligible. Ties follow
    ``rules.award_ties``: split, or a roll-off, played with ``rng`` or taken from ``roll_offs``
    (category -> winner); without either, the result lists the contenders to roll off."""
    awards = list(rules.awards if awards is None else awards)
    roll_offs = roll_offs or {}
    already: set[str] = set()
    results: list[AwardResult] = []
    for award in awards:
        eligible = [
            s for s in stats.values()
            if not s.ghost and not (rules.one_prize_per_person and s.name in already)
        ]
        contenders, value = _leaders(award, eligible, bunco_order)
        winners, pending = contenders, ()
        if len(contenders) > 1 and rules.award_ties is AwardTies.ROLL_OFF:
            chosen = roll_offs.get(str(award.category))
            lowest = award.category is Category.LOWEST_POINTS
            if chosen is not None and chosen not in contenders:
                raise IllegalMove(f"{chosen} is not tied for {award.category}")
            if chosen is None and rng is not None:
                chosen = roll_off(contenders, rng, lowest=lowest)
            winners, pending = ((chosen,), ()) if chosen else ((), contenders)
        already.update(winners)
        results.append(AwardResult(award.category, winners, award.share_percent,
                                   award.prize, value, roll_off=pending))
    if pot_cents is not None:
        results = _pay(results, pot_cents)
    return results


def _leaders(
    award: Award, eligible: list[PlayerStats], bunco_order: Sequence[str]
) -> tuple[tuple[str, ...], int | None]:
    category = award.category
    names = {s.name for s in eligible}
    if category in _SEQUENCE:
        order = [n for n in bunco_order if n in names]
        if not order:
            return (), None
        return ((order[0],) if category is Category.FIRST_BUNCO else (order[-1],)), None
    if category in (Category.HIGHEST_POINTS, Category.LOWEST_POINTS):
        if not eligible:
            return (), None
        pick = min if category is Category.LOWEST_POINTS else max
        value = pick(s.points for s in eligible)
        tied = [s for s in eligible if s.points == value]
    else:
        count = _COUNTED[category]
        value = max((count(s) for s in eligible), default=0)
        if value == 0:
            return (), None  # "most buncos" needs at least one bunco
        tied = [s for s in eligible if count(s) == value]
    for stat in award.then_by:
        best = max(getattr(s, str(stat)) for s in tied)
        tied = [s for s in tied if getattr(s, str(stat)) == best]
    return tuple(sorted((s.name for s in tied), key=str.casefold)), value


def _pay(results: list[AwardResult], pot_cents: int) -> list[AwardResult]:
    shared = [i for i, r in enumerate(results) if r.share_percent is not None]
    cents = dict(zip(shared, split_pot(pot_cents, [results[i].share_percent for i in shared]),
                     strict=True))
    claimed = [i for i in shared if results[i].winners or results[i].roll_off]
    unclaimed = sum(cents[i] for i in shared if i not in claimed)
    if claimed and unclaimed:
        cents[claimed[0]] += unclaimed
        for i in shared:
            if i not in claimed:
                cents[i] = 0
    out = []
    for i, r in enumerate(results):
        if i not in cents:
            out.append(r)
            continue
        amount = cents[i]
        payouts = tuple(split_evenly(amount, r.winners)) if r.winners else ()
        out.append(AwardResult(r.category, r.winners, r.share_percent, r.prize, r.value,
                               amount, payouts, r.roll_off))
    return out


__all__ = ["AwardResult", "Stat", "decide_awards", "roll_off", "split_evenly", "split_pot"]
