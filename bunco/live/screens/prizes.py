"""The prizes and the money: the races while the night is played, the winners at the end, the
pot and the fees."""

from __future__ import annotations

from bunco.models import Night
from bunco.night.fold import LiveNight
from scoring import (
    decide_awards,
    pot_for,
)
from scoring.awards import decide_set_awards, set_key
from scoring.explain import award_rule
from scoring.words import MINI_WORD, roll_name, roll_names

CATEGORY_LABELS = {
    "most_buncos": "Most buncos", "most_wins": "Most wins", "most_losses": "Most losses",
    "most_mini_buncos": f"Most {MINI_WORD}s", "highest_points": "Highest score",
    "lowest_points": "Lowest score", "fuzzy_die": "Fuzzy die at the end",
    "most_wipeouts": "Most wipeouts", "first_bunco": "First bunco", "last_bunco": "Last bunco",
    "most_buncos_and_wins": "Most buncos + wins",
}


#: What a prize race says before anybody has what it counts.
NONE_YET = {
    "most_buncos": "No buncos yet", "most_wins": "No wins yet", "most_losses": "No losses yet",
    "highest_points": "Nobody has scored yet",
    "lowest_points": "Nobody has scored yet", "fuzzy_die": "No buncos yet",
    "most_wipeouts": "No wipeouts yet", "first_bunco": "No buncos yet",
    "last_bunco": "No buncos yet", "most_buncos_and_wins": "Nobody has scored yet",
}


def category_labels(rules) -> dict[str, str]:
    """The prize categories' names tonight: the mini buncos' in the night's own word."""
    return {**CATEGORY_LABELS, "most_mini_buncos": f"Most {roll_names(rules, 'mini_bunco')}"}


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
    labels, nobody = category_labels(state.rules), {
        **NONE_YET, "most_mini_buncos": f"No {roll_names(state.rules, 'mini_bunco')} yet"}
    out = []
    for r in results:
        category = str(r.category)
        names = list(r.winners or r.roll_off)  # a named prize is tied, never split
        # Nobody leads a race that nobody has started ("12 tied (0)" says nothing); the lowest
        # score is a race only once somebody has scored.
        none_yet = not names or (r.value in (0, None) if category != "lowest_points"
                                     else not scored)
        out.append({"label": labels[category], "leaders": leaders(names),
                    "names": names, "tied": len(names),
                    "none_yet": nobody.get(category, "Nobody yet") if none_yet else "",
                    "value": r.value, "share": r.share_label, "prize": r.prize})
    return out


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def fees_note(state: LiveNight) -> str:
    """Whose entry fees make the pot: "13 fees: 12 at the start, 1 late arrival". A late
    arrival came after the first round was played (or checked in and waits for a chair)."""
    here = len(state.here())
    stats = state.night.stats if state.night else {}
    late = sum(1 for n in state.here()
               if n in state.waiting or (n in stats and stats[n].late))
    note = f"{here:,} fee{'s' if here != 1 else ''}"
    if late:
        note += (f": {here - late:,} at the start, {late:,} late "
                 f"arrival{'s' if late != 1 else ''}")
    return note


def night_pot(state: LiveNight, typed: bool = True) -> int:
    """The pot as the rules make it (``pot_for``): the amount the host typed (unless ``typed``
    is False), else the entry fee of everyone checked in, as the log says who they are."""
    return pot_for(typed_cents=state.pot_cents if typed else None,
                   entry_fee_cents=state.entry_fee_cents, players=len(state.here()))


def final_awards(state: LiveNight) -> list[dict]:
    """The night's prizes as the engine decides them, with the money and any roll-off the
    host still has to run. ``moved`` says where an unwon prize's share of the pot went (or
    which unwon shares a prize took on), so every dollar is accounted for on screen."""
    if not state.night:
        return []
    out, labels = [], category_labels(state.rules)
    for a in decide_awards(state.rules, state.night.stats, bunco_order=state.night.bunco_order,
                           pot_cents=night_pot(state), roll_offs=state.roll_offs,
                           splits=sorted(state.splits), shares=state.split_shares):
        payouts = [{"name": n, "amount": money(c) if a.amount_cents is not None else "",
                    "cents": c}
                   for n, c in (a.payouts or [(w, 0) for w in a.winners])]
        out.append({"category": str(a.category), "label": labels[str(a.category)],
                    "share": a.share_label, "prize": a.prize, "value": a.value,
                    "payouts": payouts, "roll_off": list(a.roll_off),
                    "can_split": a.can_split, "moved": _moved(a, labels),
                    "amount": money(a.amount_cents) if a.amount_cents is not None else ""})
    return out


def _moved(a, labels: dict[str, str]) -> str:
    """Where an unwon prize's share went, or what a prize took on: the sentence the reveal,
    the host's page and the phones show under it."""
    if a.passed_to:
        return (f"Nobody won it: its {money(a.share_cents)} went to "
                f"{labels[a.passed_to]}.")
    if a.passed_from:
        extra = a.amount_cents - a.share_cents
        names = " and ".join(labels[c] for c in a.passed_from)
        return (f"{money(a.share_cents)} of its own + {money(extra)} from {names}, which "
                f"nobody won.")
    return ""


def fee_without_prizes(rules, entry_fee_cents: int) -> str:
    """The warning when a night takes entry fees but none of its prizes pays money."""
    if not entry_fee_cents or rules.pays_money:
        return ""
    return (f"These rules give no money prizes, so the {money(entry_fee_cents)} entry fees "
            "are paid out to nobody: add a share of the pot to a prize in \"Prizes and pot\", "
            "or set the fee to $0.")


def pot_unpaid(state: LiveNight, awards: list[dict] | None = None) -> str:
    """Money taken that no prize pays out: entry fees on a night with no money prizes (or a
    pot nobody won). Empty when every dollar goes to a winner. ``awards``: ``final_awards``,
    when the caller has them already."""
    pot = night_pot(state)
    if not pot or not state.night:
        return ""
    if not state.rules.pays_money:
        taken = (f"The pot is {money(pot)}" if state.pot_cents is not None else
                 f"{money(pot)} was taken in entry fees ({fees_note(state)})")
        return (f"{taken}, and tonight's prizes pay no money: it is the host's to hand out "
                "as the group agrees.")
    awards = final_awards(state) if awards is None else awards
    if not any(p["cents"] for a in awards for p in a["payouts"]) and not any(
            a["roll_off"] for a in awards):
        return f"Nobody won a money prize: the {money(pot)} pot was not paid out."
    return ""


def set_winners(state: LiveNight) -> list[dict]:
    """Each finished set's own awards (Winning Moves: the set winner), with any tie the host
    still has to settle. Keys (``set1:most_wins``) name the set for the roll-off forms."""
    if not state.night or not state.rules.set_awards:
        return []
    out = []
    for result in decide_set_awards(state.rules, state.night, roll_offs=state.roll_offs,
                                    splits=sorted(state.splits)):
        awards = [{"category": set_key(result.set_number, str(a.category)),
                   "label": a.prize or category_labels(state.rules)[str(a.category)],
                   "winners": list(a.winners), "roll_off": list(a.roll_off),
                   "can_split": a.can_split,
                   "value": _counted(state.rules, str(a.category), a.value),
                   "rule": award_rule(state.rules, rule, "in the set")}
                  for a, rule in zip(result.awards, state.rules.set_awards, strict=True)]
        out.append({"number": result.set_number, "winner": ", ".join(result.winner),
                    "awards": awards})
    return out


_COUNTS = {"most_wins": ("win", "wins"), "most_buncos": ("bunco", "buncos"),
           "most_losses": ("loss", "losses"),
           "highest_points": ("point", "points"), "lowest_points": ("point", "points"),
           "most_wipeouts": ("wipeout", "wipeouts"),
           "most_buncos_and_wins": ("bunco or win", "buncos and wins")}


def _counted(rules, category: str, value: int | None) -> str:
    """An award's winning count in words ("7 wins"); empty where it has none."""
    counts = {**_COUNTS, "most_mini_buncos": (roll_name(rules, "mini_bunco"),
                                              roll_names(rules, "mini_bunco"))}
    if value is None or category not in counts:
        return ""
    one, many = counts[category]
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
        for a in final_awards(state):
            if a["roll_off"]:
                ties[a["category"]] = {"key": a["category"], "contenders": a["roll_off"],
                                       "label": a["label"], "can_split": a["can_split"]}
    return ties
