"""The night's results: the standings every screen numbers alike, and the end of the night as
each guest sees it on their own phone (and on the page they can keep): their place, their
totals as the standings count them, every prize they won with its money, the night's winners
and their own night in a few lines."""

from __future__ import annotations

import functools
import re

from django.contrib.staticfiles import finders

from bunco.live.screens.prizes import final_awards, money, night_pot, pot_unpaid
from bunco.night.fold import LiveNight
from scoring import placed, ranked
from scoring.words import counted


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def standings(state: LiveNight) -> list[dict]:
    """Every player (never a ghost) in standings order, numbered from 1; players level on
    everything the standings count share a place ("3=", ``shared``)."""
    if not state.night:
        return []
    rows = ranked(state.night.stats)
    return [vars(s) | {"place": place, "shared": shared,
                       "place_label": f"{place}=" if shared else f"{place}."}
            for s, (place, shared) in zip(rows, placed(rows), strict=True)]


class EndOfNight:
    """What every guest's end of the night reads of the room, worked out once for all the
    phones a push draws: the standings and the prizes."""

    def __init__(self, state: LiveNight) -> None:
        self.state = state

    @functools.cached_property
    def standings(self) -> list[dict]:
        return standings(self.state)

    @functools.cached_property
    def awards(self) -> list[dict]:
        return final_awards(self.state)

    @functools.cached_property
    def winners(self) -> list[dict]:
        """The night's winners, prize by prize, as the reveal names them."""
        out = []
        for a in self.awards:
            names = [(p["name"], p["amount"] if p["cents"] else "") for p in a["payouts"]]
            out.append({"label": a["label"], "prize": a["prize"], "names": names,
                        "roll_off": a["roll_off"], "moved": a["moved"]})
        return out

    @functools.cached_property
    def unpaid(self) -> str:
        return pot_unpaid(self.state, self.awards)


def my_night(state: LiveNight, name: str, end: EndOfNight | None = None) -> dict | None:
    """``name``'s end of the night, or None while the night goes on (or for a name that
    played no round). While the TV reveals the prizes (``prizes_out``) it holds only the
    prizes the TV has shown, and no place or totals, which would give the rest away."""
    if not state.ended or not state.night:
        return None
    if name not in state.night.stats:  # checked in, and no chair came free all night
        return waited_night(state, name, end or EndOfNight(state))
    end = end or EndOfNight(state)
    rows = end.standings
    mine = next((r for r in rows if r["name"] == name), None)
    if mine is None:  # a ghost's name: ghosts are never in the standings
        return None
    key = (mine["wins"], mine["buncos"], mine["points"])
    level = [r["name"] for r in rows
             if r["name"] != name and (r["wins"], r["buncos"], r["points"]) == key]
    out = len(end.awards) if state.prizes_out is None else state.prizes_out
    waiting = len(end.awards) - out  # prizes the TV has still to reveal
    prizes = [_my_prize(a, name) for a in end.awards[:out]]
    prizes = [p for p in prizes if p]
    story = _story(state, name)
    night = {"name": name, "of": len(rows), "prizes": prizes, "winners": end.winners[:out],
             "story": story, "waiting": waiting,
             "summary": _summary(mine, story, prizes, waiting=bool(waiting)),
             "place": None, "place_text": "", "level_with": [], "stats": None,
             "unpaid": "", "no_prize_why": ""}
    if waiting:
        return night
    place_text = ordinal(mine["place"]) + ("=" if mine["shared"] else "")
    return night | {"place": mine["place"], "place_text": place_text,
                    "minis": counted(state.rules, "mini_bunco", mine["mini_buncos"]),
                    "level_with": level, "stats": mine, "unpaid": end.unpaid,
                    "no_prize_why": _no_prize_why(state, name) if not prizes else ""}


def _my_prize(a: dict, name: str) -> dict | None:
    """What ``name`` has of one prize: won (alone or split) or a tie still to settle."""
    label = a["label"] + (f" · {a['prize']}" if a["prize"] else "")
    if name in a["roll_off"]:
        others = [n for n in a["roll_off"] if n != name]
        how = ("the tied players choose: split it or roll off" if a["can_split"]
               else "the host settles it with a roll-off")
        return {"label": label, "amount": "", "pending": True, "with": others,
                "text": f"Tied for it: {how}."}
    paid = next((p for p in a["payouts"] if p["name"] == name), None)
    if paid is None:
        return None
    others = [p["name"] for p in a["payouts"] if p["name"] != name]
    text = ""
    if others:
        text = (f"Split with {', '.join(others)}: your share of {a['amount']}."
                if a["amount"] else f"Shared with {', '.join(others)}.")
    return {"label": label, "amount": paid["amount"] if paid["cents"] else "",
            "pending": False, "with": others, "text": text, "moved": a["moved"]}


def _story(state: LiveNight, name: str) -> dict:
    """Their own night from the rounds played: rounds won, buncos, the best round, partners."""
    played = won = 0
    best = None
    partners: list[str] = []
    ghosts = {n for n, s in state.night.stats.items() if s.ghost}
    for record in state.night.history:
        for play in record.tables:
            if name not in play.seats:
                continue
            played += 1
            won += name in play.winners
            t = next(i for i, team in enumerate(play.teams) if name in team)
            partner = next((n for n in play.teams[t] if n != name), None)
            if partner and partner not in ghosts and partner not in partners:
                partners.append(partner)
            if best is None or play.scores[t] > best["score"]:
                best = {"score": play.scores[t], "set": record.set_number,
                        "round": record.round_number, "table": play.number,
                        "partner": partner if partner not in ghosts else None}
    return {"played": played, "won": won, "best": best, "partners": partners}


def _summary(mine: dict, story: dict, prizes: list[dict], waiting: bool = False) -> str:
    """A warm sentence that is true of their night (``waiting``: for prizes still to be
    revealed on the TV)."""
    if not story["played"]:
        return "Thanks for coming: you were here for the fun, if not for the rounds."
    parts = [f"You won {story['won']} of {story['played']} round"
             f"{'s' if story['played'] != 1 else ''}"]
    if mine["buncos"]:
        many = mine["buncos"] > 1
        parts.append(f"rolled {mine['buncos'] if many else 'a'} bunco{'s' if many else ''}")
    if len(story["partners"]) > 1:
        parts.append(f"played beside {len(story['partners'])} different partners")
    sentence = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] + "."
    if prizes:
        return sentence + " What a night!"
    return sentence + (" Watch the TV for the prizes!" if waiting else " Thanks for playing!")


def _no_prize_why(state: LiveNight, name: str) -> str:
    """Why a guest could not win a prize, when a house rule says so."""
    stats = state.night.stats[name]
    if stats.late and not state.rules.late_arrivals_win_awards:
        return "You joined after the first round: by tonight's house rules, late arrivals " \
               "win no prize."
    if stats.left and not state.rules.left_early_win_awards:
        return "You went home early: by tonight's house rules, that means no prize."
    return ""


@functools.cache
def stylesheet() -> str:
    """The app's stylesheet, for a saved page that must look right with no server."""
    path = finders.find("bunco/bunco.css")
    with open(path, encoding="utf-8") as f:
        return f.read()


def results_filename(night: str, name: str) -> str:
    """A saved page's file name: plain letters only, so every phone can keep it."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{night} {name}").strip("-")[:60] or "night"
    return f"bunco-{slug}.html"


def waited_night(state: LiveNight, name: str, end: EndOfNight) -> dict | None:
    """The end of the night of a guest who checked in (their fee in the pot, as the pot
    counts everyone here) and never had a chair: what happened to their fee. None for a name
    that never arrived."""
    if name not in state.here():
        return None
    fee, pot = state.entry_fee_cents, night_pot(state)
    if not fee:
        fee_text = "Tonight had no entry fee: nothing was taken from you."
    elif state.pot_cents is not None:
        fee_text = (f"Your {money(fee)} entry went to the host, who set tonight's pot at "
                    f"{money(pot)}: ask the host about it.")
    else:
        fee_text = (f"Your {money(fee)} entry went into the {money(pot)} pot with everyone "
                    "else's, and the pot paid tonight's prizes.")
    out = len(end.awards) if state.prizes_out is None else state.prizes_out
    held = out < len(end.awards)  # the TV is still revealing: nothing given away here
    why = ("You checked in and went home before a chair came free" if name in state.left
           else "You checked in, but no chair came free all night")
    return {"name": name, "waited": True, "prizes": [], "why": f"{why}: you played no round.",
            "fee_text": fee_text, "winners": end.winners[:out],
            "unpaid": "" if held else end.unpaid}
