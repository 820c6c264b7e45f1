"""What a night calls each kind of roll, in one place: the card, the pad's buttons, the roll
lines, the TV and the prizes all read these words, so a roll has one name a night (each seed's
own: seed 000's "funko", seed 003's "mini-bunco", seed 004's "baby bunco")."""

from __future__ import annotations

from .rules import HouseRules, Triples

#: Three of a kind of another number, where the rules give it no name of their own.
MINI_WORD = "mini bunco"

_NAMES = {"bunco": "bunco", "low_bunco": "low bunco", "high_bunco": "high bunco",
          "wipeout": "wipeout"}


def roll_name(rules: HouseRules, kind: str) -> str:
    """A roll kind's name tonight, one of them, in lower case: "funko", "low bunco"."""
    if kind == "mini_bunco":
        return rules.mini_word or MINI_WORD
    return _NAMES[kind]


def roll_names(rules: HouseRules, kind: str) -> str:
    """A roll kind's name tonight, counted ("the most funkos"); the mini buncos of low/high
    rules are their low and high buncos."""
    if kind == "mini_bunco" and rules.triples is Triples.LOW_HIGH:
        return "low and high buncos"
    return roll_name(rules, kind) + "s"


def counted(rules: HouseRules, kind: str, n: int) -> str:
    """The word for ``n`` rolls of a kind tonight: "baby bunco" (1), "mini buncos" (3), "low
    or high bunco" (1)."""
    if n != 1:
        return roll_names(rules, kind)
    if kind == "mini_bunco" and rules.triples is Triples.LOW_HIGH:
        return "low or high bunco"
    return roll_name(rules, kind)


def stat_names(rules: HouseRules) -> dict[str, str]:
    """A guest's counted stats by their field, in tonight's words."""
    return {"wins": "wins", "losses": "losses", "buncos": "buncos",
            "mini_buncos": roll_names(rules, "mini_bunco"), "points": "points",
            "wipeouts": "wipeouts"}


__all__ = ["MINI_WORD", "roll_name", "roll_names", "stat_names"]
