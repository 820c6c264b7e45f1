"""The house's prizes: what each prize category is, its share of the pot or its named prize,
and how a tie in it is settled, read and checked for a night's ``HouseRules``.

Deciding who wins them is ``awards.py``; explaining them on the card, ``explain_prizes.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from .errors import RulesError, choice


class PrizeRollOff(StrEnum):
    """How a tied prize is rolled off."""

    HIGH_TOTAL = "high_total"  # three dice each, highest total (lowest for the lowest score)
    TO_POINTS = "to_points"  # WM: first to ``roll_off_points`` in target dice and buncos


class AwardTies(StrEnum):
    SPLIT = "split"
    ROLL_OFF = "roll_off"
    ASK = "ask"  # seed 004: the tied players choose at the end of the night: split or roll off


class Category(StrEnum):
    MOST_BUNCOS = "most_buncos"
    MOST_WINS = "most_wins"
    MOST_LOSSES = "most_losses"
    MOST_MINI_BUNCOS = "most_mini_buncos"
    HIGHEST_POINTS = "highest_points"
    LOWEST_POINTS = "lowest_points"
    FUZZY_DIE = "fuzzy_die"
    MOST_WIPEOUTS = "most_wipeouts"
    FIRST_BUNCO = "first_bunco"
    LAST_BUNCO = "last_bunco"
    MOST_BUNCOS_AND_WINS = "most_buncos_and_wins"  # seed 002's alternative: buncos + wins


class Stat(StrEnum):
    """A player's counted statistic, used as a secondary tie-breaker for an award."""

    WINS = "wins"
    LOSSES = "losses"
    BUNCOS = "buncos"
    MINI_BUNCOS = "mini_buncos"
    POINTS = "points"
    WIPEOUTS = "wipeouts"


@dataclass(frozen=True, slots=True)
class Award:
    """One prize category: a share of the pot in percent, and/or a named prize."""

    category: Category
    share_percent: Decimal | None = None
    prize: str = ""
    then_by: tuple[Stat, ...] = ()  # tie-breakers before the tie policy applies (WM: buncos)
    ties: AwardTies | None = None  # this category's tie policy; None: the night's ``award_ties``
    # A named prize that stays with its winner until the group's next night, and comes back
    # then (seed 004's doormat: "bring back the doormat").
    travels: bool = False

    @property
    def named(self) -> bool:
        """A named prize (a doormat, a medal) cannot be split: it goes to one person."""
        return bool(self.prize)

    def tie_policy(self, default: AwardTies) -> AwardTies:
        """How a tie in this category is settled: a named prize always by a roll-off."""
        if self.named:
            return AwardTies.ROLL_OFF
        return self.ties or default

    def to_dict(self) -> dict[str, Any]:
        out = {
            "category": str(self.category),
            "share_percent": None if self.share_percent is None else str(self.share_percent),
            "prize": self.prize,
            "then_by": [str(s) for s in self.then_by],
        }
        if self.ties is not None:
            out["ties"] = str(self.ties)
        if self.travels:
            out["travels"] = True
        return out


def read_award(index: int, item: Any, field_name: str = "awards") -> Award:
    where = f"{field_name}[{index}]"
    if isinstance(item, Award):
        return item
    if not isinstance(item, dict):
        raise RulesError(where, "must be an object with a category")
    unknown = sorted(set(item) - {"category", "share_percent", "prize", "then_by", "ties",
                                  "travels"})
    if unknown:
        raise RulesError(f"{where}.{unknown[0]}", "is not an award setting")
    category = choice(Category, f"{where}.category", item.get("category"))
    share = item.get("share_percent")
    if share is not None:
        if isinstance(share, bool | float):
            raise RulesError(f"{where}.share_percent", "must be a whole or decimal string, e.g. 15")
        try:
            share = Decimal(str(share))
        except InvalidOperation:
            raise RulesError(f"{where}.share_percent", f"{share!r} is not a number") from None
    prize = item.get("prize", "")
    if not isinstance(prize, str):
        raise RulesError(f"{where}.prize", "must be text")
    then_by = item.get("then_by", ())
    if not isinstance(then_by, list | tuple):
        raise RulesError(f"{where}.then_by", "must be a list")
    stats = tuple(choice(Stat, f"{where}.then_by", s) for s in then_by)
    ties = item.get("ties")
    if ties is not None:
        ties = choice(AwardTies, f"{where}.ties", ties)
    travels = item.get("travels", False)
    if not isinstance(travels, bool):
        raise RulesError(f"{where}.travels", "must be true or false")
    if travels and not prize.strip():
        raise RulesError(f"{where}.travels", "only a named prize (a doormat) can travel")
    return Award(category=category, share_percent=share, prize=prize.strip(), then_by=stats,
                 ties=ties, travels=travels)


def check_awards(awards: tuple[Award, ...], field_name: str = "awards") -> None:
    seen: set[Category] = set()
    total = Decimal(0)
    any_share = False
    for i, award in enumerate(awards):
        where = f"{field_name}[{i}]"
        if not isinstance(award, Award):
            raise RulesError(where, "must be an Award")
        if award.category in seen:
            raise RulesError(f"{where}.category", f"{award.category} is listed twice")
        seen.add(award.category)
        share = award.share_percent
        if share is None:
            if not award.prize:
                raise RulesError(where, "needs a share of the pot or a named prize")
            continue
        if not share.is_finite() or share <= 0 or share > 100:
            raise RulesError(f"{where}.share_percent", "must be more than 0 and at most 100")
        if share != share.quantize(Decimal("0.01")):
            raise RulesError(f"{where}.share_percent", "may have at most two decimals")
        any_share = True
        total += share
    if any_share and total != 100:
        raise RulesError(field_name, f"the shares of the pot add up to {total}%, not 100%")


def award(category: str, share: str | int | None = None, prize: str = "", then_by=(),
          ties: str | None = None, travels: bool = False) -> Award:
    """Shorthand used by the presets and tests."""
    return read_award(
        0,
        {"category": category, "share_percent": None if share is None else str(share),
         "prize": prize, "then_by": list(then_by), "ties": ties, "travels": travels},
    )


__all__ = ["Award", "AwardTies", "Category", "PrizeRollOff", "Stat", "award"]
