"""Awards and the pot: who wins each category, and each share to the cent.

Money is in whole cents. Two stated rules keep every cent accounted for:

* Splitting the pot between categories: each gets its percentage rounded down to the cent;
  the cents left over go one at a time to the categories with the largest rounded-off
  fractions (ties: in the order the host listed the categories).
* Splitting one category between tied winners: each gets the amount divided evenly, rounded
  down; the cents left over go one each to the winners in alphabetical order.
* A category nobody qualifies for (no bunco was rolled all night, say) passes its money to the
  first listed category that has a winner.

Ties left after a category's ``then_by`` follow the category's own policy (``Award.ties``, or
the night's ``award_ties``): split, roll off, or ask the tied players at the end of the night
(seed 004). A named prize (a doormat, a medal) is never split: it always goes to one person.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from .errors import IllegalMove
from .night import Night, PlayerStats, fuzzy_die_holder
from .prize_rules import Award, AwardTies, Category, PrizeRollOff, Stat
from .roll import ALL_DICE, BUNCO, HITS, roll_table
from .rules import HouseRules

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
    can_split: bool = False  # a pending tie the tied players may split instead (seed 004)
    share_cents: int | None = None  # this category's own share of the pot, before passing on
    passed_to: str | None = None  # nobody won it: the category its share went to
    passed_from: tuple[str, ...] = ()  # the unwon categories whose shares came here

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


def roll_off_to_points(contenders: Sequence[str], rng: random.Random, rules: HouseRules,
                       round_number: int = 6) -> str:
    """Winning Moves: "the first player to reach 5 points wins the roll off (points are scored
    for rolling the number of the round just completed, as well as for Buncos.) To determine
    who goes first in a roll-off, each player rolls all three dice. High total will roll first
    (but does not score for this roll)." Equal high totals roll again; then the dice pass in
    the listed order, and a player rolls on while scoring."""
    field_ = list(contenders)
    starters = field_
    while len(starters) > 1:
        totals = {name: sum(rng.randint(1, 6) for _ in range(3)) for name in starters}
        best = max(totals.values())
        starters = [n for n in starters if totals[n] == best]
    scores = roll_table(rules, round_number)
    points = dict.fromkeys(field_, 0)
    turn = field_.index(starters[0])
    while True:
        name = field_[turn]
        while True:
            score = scores[ALL_DICE[rng.randrange(216)]]
            if score.kind not in (HITS, BUNCO):
                break
            points[name] += score.points
            if points[name] >= rules.roll_off_points:
                return name
        turn = (turn + 1) % len(field_)


def settle_roll_off(rules: HouseRules, contenders: Sequence[str], rng: random.Random, *,
                    category: str) -> str:
    """A tied prize rolled off the way the rules say (``prize_roll_off``)."""
    if rules.prize_roll_off is PrizeRollOff.TO_POINTS:
        return roll_off_to_points(contenders, rng, rules)
    return roll_off(contenders, rng, category=category)


def decide_awards(
    rules: HouseRules,
    stats: Mapping[str, PlayerStats],
    *,
    bunco_order: Sequence[str] = (),
    pot_cents: int | None = None,
    awards: Sequence[Award] | None = None,
    rng: random.Random | None = None,
    roll_offs: Mapping[str, str] | None = None,
    splits: Sequence[str] = (),
    shares: Mapping[str, Mapping[str, int]] | None = None,
) -> list[AwardResult]:
    """Every award's winners (and money). Ghosts are never eligible, nor (when the rules say
    so) players who went home early or came after the first round (``PlayerStats.late``).
    A tie follows the category's policy: split; a roll-off, played with ``rng`` or taken from
    ``roll_offs`` (category -> winner); or the tied players' choice, taken from ``roll_offs``
    or ``splits`` (categories they chose to split; with ``rng`` and no choice, the simulator
    splits), evenly or in the percents they agreed (``shares``: category -> name -> percent,
    seed 004's "divvy up the prize money"). Without a decision the result lists the
    contenders to roll off."""
    awards = list(rules.awards if awards is None else awards)
    roll_offs = roll_offs or {}
    already: set[str] = set()
    results: list[AwardResult] = []
    holder = fuzzy_die_holder(bunco_order)
    for award in awards:
        contenders, value = _leaders(award, _eligible(rules, stats, already), bunco_order,
                                     holder)
        winners, pending, can_split = contenders, (), False
        if len(contenders) > 1:
            winners, pending, can_split = _settle_tie(rules, award, contenders, rng,
                                                      roll_offs, splits)
        already.update(winners)
        results.append(AwardResult(award.category, winners, award.share_percent,
                                   award.prize, value, roll_off=pending, can_split=can_split))
    if pot_cents is not None:
        results = _pay(results, pot_cents, shares or {})
    return results


def _eligible(rules: HouseRules, stats: Mapping[str, PlayerStats],
              already: set[str]) -> list[PlayerStats]:
    """Who may win the next prize: never a ghost, nor, as the rules say, a player who has won
    one already, went home early or came after the first round."""
    return [
        s for s in stats.values()
        if not s.ghost and not (rules.one_prize_per_person and s.name in already)
        and not (s.left and not rules.left_early_win_awards)
        and not (s.late and not rules.late_arrivals_win_awards)
    ]


def _settle_tie(rules: HouseRules, award: Award, contenders: tuple[str, ...],
                rng: random.Random | None, roll_offs: Mapping[str, str],
                splits: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """A tie for ``award`` by its policy: (winners, contenders still to roll off, whether they
    may choose to split instead)."""
    policy = award.tie_policy(rules.award_ties)
    if policy is AwardTies.SPLIT:
        return contenders, (), False
    category = str(award.category)
    chosen = roll_offs.get(category)
    if chosen is not None and chosen not in contenders:
        raise IllegalMove(f"{chosen} is not tied for {award.category}")
    if policy is AwardTies.ASK and chosen is None and (category in splits or rng is not None):
        return contenders, (), False
    if chosen is None and rng is not None:
        chosen = settle_roll_off(rules, contenders, rng, category=category)
    if chosen:
        return (chosen,), (), False
    return (), contenders, policy is AwardTies.ASK


def set_key(set_number: int, category: str) -> str:
    """The key of a set award's tie decision among the night's roll-offs and splits."""
    return f"set{set_number}:{category}"


@dataclass(frozen=True, slots=True)
class SetResult:
    """A finished set's own awards (Winning Moves: "The winner of the Set")."""

    set_number: int
    awards: tuple[AwardResult, ...]

    @property
    def winner(self) -> tuple[str, ...]:
        """The first set award's winners (the set winner), empty while a roll-off is due."""
        return self.awards[0].winners if self.awards else ()


def decide_set_awards(
    rules: HouseRules,
    night: Night,
    *,
    rng: random.Random | None = None,
    roll_offs: Mapping[str, str] | None = None,
    splits: Sequence[str] = (),
) -> list[SetResult]:
    """Each finished set's awards (``rules.set_awards``), from that set's rounds only. Tie
    decisions are keyed by ``set_key``."""
    if not rules.set_awards:
        return []
    roll_offs = roll_offs or {}
    out = []
    for number in range(1, rules.sets + 1):
        if not night.set_finished(number):
            break
        prefix = set_key(number, "")
        order = [name for r in night.history if r.set_number == number for _, name in r.buncos]
        results = decide_awards(
            rules, night.set_stats(number), bunco_order=order, awards=rules.set_awards,
            rng=rng, roll_offs={k[len(prefix):]: v for k, v in roll_offs.items()
                                if k.startswith(prefix)},
            splits=[k[len(prefix):] for k in splits if k.startswith(prefix)])
        out.append(SetResult(number, tuple(results)))
    return out


def _leaders(
    award: Award, eligible: list[PlayerStats], bunco_order: Sequence[str], holder: str | None
) -> tuple[tuple[str, ...], int | None]:
    category = award.category
    names = {s.name for s in eligible}
    if category is Category.FUZZY_DIE:
        # The prize follows the die: whoever holds it now, if they may win.
        return ((holder,) if holder in names else ()), None
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


def split_agreed(cents: int, percents: Mapping[str, int]) -> list[tuple[str, int]]:
    """A prize's money shared in the percents its winners agreed (they add up to 100): rounded
    as the pot is, so no cent is lost or invented."""
    names = sorted(percents, key=str.casefold)
    return list(zip(names, split_pot(cents, [Decimal(percents[n]) for n in names]),
                    strict=True))


def check_agreed(percents: Mapping[str, int], contenders: Sequence[str]) -> None:
    """Refuse agreed shares that are not each tied player's whole percent, adding up to 100."""
    if set(percents) != set(contenders):
        raise IllegalMove("give a share to each tied player, and to nobody else")
    if any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 100
           for p in percents.values()):
        raise IllegalMove("each share is a whole percent from 0 to 100")
    if sum(percents.values()) != 100:
        raise IllegalMove(f"the shares add up to {sum(percents.values())}%, not 100%")


def _pay(results: list[AwardResult], pot_cents: int,
         shares: Mapping[str, Mapping[str, int]]) -> list[AwardResult]:
    """Each category's money. A prize nobody wins passes its share to the first listed prize
    that has a winner (or a tie still to settle); with no such prize, nobody is paid."""
    shared = [i for i, r in enumerate(results) if r.share_percent is not None]
    own = dict(zip(shared, split_pot(pot_cents, [results[i].share_percent for i in shared]),
                   strict=True))
    cents = dict(own)
    claimed = [i for i in shared if results[i].winners or results[i].roll_off]
    unclaimed = [i for i in shared if i not in claimed and own[i]]
    passed_to: dict[int, str] = {}
    passed_from: dict[int, tuple[str, ...]] = {}
    if claimed and unclaimed:
        cents[claimed[0]] += sum(own[i] for i in unclaimed)
        passed_from[claimed[0]] = tuple(str(results[i].category) for i in unclaimed)
        for i in unclaimed:
            cents[i], passed_to[i] = 0, str(results[claimed[0]].category)
    out = []
    for i, r in enumerate(results):
        if i not in cents:
            out.append(r)
            continue
        amount = cents[i]
        agreed = shares.get(str(r.category))
        if agreed and set(agreed) == set(r.winners):
            payouts = tuple(split_agreed(amount, agreed))
        else:
            payouts = tuple(split_evenly(amount, r.winners)) if r.winners else ()
        out.append(AwardResult(r.category, r.winners, r.share_percent, r.prize, r.value,
                               amount, payouts, r.roll_off, r.can_split, own[i],
                               passed_to.get(i), passed_from.get(i, ())))
    return out


__all__ = [
    "AwardResult", "SetResult", "Stat", "decide_awards", "decide_set_awards", "roll_off",
    "roll_off_to_points", "set_key", "settle_roll_off", "split_evenly", "split_pot",
]
