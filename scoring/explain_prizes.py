"""The prizes' part of the "How we play tonight" card, and each award's rule in one line."""

from __future__ import annotations

from .prize_rules import Award, AwardTies, Category, PrizeRollOff
from .rules import HouseRules
from .words import roll_names, stat_names

#: What the card says before a sentence the group's written rules do not say: the host's (or the
#: app's) choice for tonight, which "Change the house rules" can change.
HOUSE = "House rule: "

#: The settings that make the prizes' part a house choice as a whole.
PRIZE_SETTINGS = frozenset({"awards", "one_prize_per_person"})


# The card's words, shared with ``explain``.

def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _join(parts: list[str]) -> str:
    return " ".join(p for p in parts if p)


_CATEGORY = {
    Category.MOST_BUNCOS: "the most buncos",
    Category.MOST_WINS: "the most wins",
    Category.MOST_LOSSES: "the most losses",
    Category.HIGHEST_POINTS: "the highest score",
    Category.LOWEST_POINTS: "the lowest score",
    Category.FUZZY_DIE: "the fuzzy die at the end",
    Category.MOST_WIPEOUTS: "the most wipeouts",
    Category.FIRST_BUNCO: "the night's first bunco",
    Category.LAST_BUNCO: "the night's last bunco",
    Category.MOST_BUNCOS_AND_WINS: "the most buncos and wins added together",
}



def _category(rules: HouseRules, award: Award) -> str:
    if award.category is Category.MOST_MINI_BUNCOS:
        return f"the most {roll_names(rules, 'mini_bunco')}"
    return _CATEGORY[award.category]


def _roll_off(rules: HouseRules) -> str:
    """How a tied prize is rolled off."""
    if rules.prize_roll_off is PrizeRollOff.TO_POINTS:
        return (f"a roll-off: the first to {_points(rules.roll_off_points)} wins (the round's "
                "number and buncos count), and the highest total of three dice starts")
    return ("a roll-off: three dice each, and the highest total wins (the lowest, for the "
            "lowest score)")


def _prize(award: Award) -> str:
    share = f"{award.share_percent:g}% of the pot" if award.share_percent is not None else ""
    what = " and ".join(p for p in (award.prize, share) if p)
    if award.travels:
        what += " (it goes home with its winner, who brings it back to the next night)"
    return what or "A prize"


def _prizes(rules: HouseRules, house: frozenset[str] | set[str] = frozenset()) -> str:
    """Tonight's prize list, as the host set it, and how its ties are settled; each sentence
    that is a house choice says so."""
    if not rules.awards:
        return "No prizes are set for tonight."

    whole = PRIZE_SETTINGS & set(house)  # the whole part says it once

    def said(text: str, *settings: str) -> str:
        return HOUSE + text if set(settings) & set(house) and not whole else text

    listed = "; ".join(f"{_prize(a)} for {_category(rules, a)}" for a in rules.awards)
    roll_off = f"A tie is settled by {_roll_off(rules)}"
    if rules.award_ties is AwardTies.ROLL_OFF or all(a.named for a in rules.awards):
        ties = said(roll_off + ".", "award_ties", "prize_roll_off")
    else:
        ties = said(("A tie shares the money." if rules.award_ties is AwardTies.SPLIT
                     else "A tie: the tied players choose at the end of the night to share the "
                          "money or roll off."), "award_ties")
        if any(a.named for a in rules.awards):
            ties += " " + said(f"A named prize always goes to one player, by "
                               f"{_roll_off(rules)}.", "prize_roll_off")
    passes = (said("A prize nobody wins passes its share of the pot to the first prize listed "
                   "above that has a winner.", "unwon_share") if rules.pays_money else "")
    once = "Nobody wins more than one prize." if rules.one_prize_per_person else ""
    left = ("" if rules.left_early_win_awards
            else said("Players who go home early cannot win a prize.", "left_early_win_awards"))
    late = ("" if rules.late_arrivals_win_awards
            else said("Players who arrive after the first round cannot win a prize.",
                      "late_arrivals_win_awards"))
    return _join([f"Tonight's prizes: {listed}.", ties, passes, once, left, late])


_WINS_BY = {
    "most_buncos": "the most buncos", "most_wins": "the most wins (W's)",
    "most_losses": "the most losses",
    "highest_points": "the highest score", "lowest_points": "the lowest score",
    "fuzzy_die": "whoever holds the fuzzy die at the end", "most_wipeouts": "the most wipeouts",
    "first_bunco": "the first bunco", "last_bunco": "the last bunco",
    "most_buncos_and_wins": "the most buncos and wins together",
}


def award_rule(rules: HouseRules, award: Award, over: str = "tonight") -> str:
    """How an award is decided, in one line: "The most wins (W's) in the set. Ties: the most
    buncos among them, then a roll-off to 5 points." ``over``: tonight, or "in the set" for a
    set's own award."""
    wins_by = (_WINS_BY.get(str(award.category))
               or f"the most {roll_names(rules, 'mini_bunco')}")
    text = f"{wins_by[0].upper()}{wins_by[1:]} {over}."
    if award.category in ("fuzzy_die", "first_bunco", "last_bunco"):
        return text  # never tied
    steps = [f"the most {stat_names(rules)[str(stat)]} among them" for stat in award.then_by]
    policy = award.tie_policy(rules.award_ties)
    if policy is AwardTies.SPLIT:
        steps.append("they share it")
    elif policy is AwardTies.ASK:
        steps.append("the tied players choose to share it or roll off")
    elif rules.prize_roll_off is PrizeRollOff.TO_POINTS:
        steps.append(f"a roll-off to {_points(rules.roll_off_points)}")
    else:
        total = "lowest" if award.category == "lowest_points" else "highest"
        steps.append(f"a roll-off (three dice each, {total} total)")
    return f"{text} Ties: {', then '.join(steps)}."
