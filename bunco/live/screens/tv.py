"""The TV's room-wide parts and the "How we play tonight" card."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe

from bunco.live import sync
from bunco.live.screens.people import movement
from bunco.live.screens.prizes import final_awards, prize_races, set_winners
from bunco.live.screens.results import standings
from bunco.live.screens.round import up_next
from bunco.live.screens.table import fuzzy_die_at
from bunco.models import Night
from bunco.night.fold import LiveNight
from scoring import (
    house_choices,
    how_we_play,
)
from scoring.words import roll_names

#: At most this many tables, the TV shows them large in one row, the prize races under them;
#: more are drawn in a grid of smaller cards (``_tv_tables.html``: "many").
TV_FEW_TABLES = 3
#: Up to this many, the grid has big cards, two a row (three for five or six tables): a small
#: room is not drawn as a big one's corner.
TV_ROOMY_TABLES = 6
#: Up to this many tables, the prize races go under them; more, and they top the standings.
TV_RACES_UNDER = 4


def tv_room(night: Night, state: LiveNight) -> dict:
    """The TV's room-wide parts: standings, prize races, the movement board, the prizes.
    They change on round events only, never on a single table's tap."""
    holder = state.night.fuzzy_die_holder if state.rules.fuzzy_die and state.night else None
    return {
        "sets": set_winners(state),
        "standings": standings(state), "movement": movement(state),
        "races": prize_races(state) if state.started and not state.ended else [],
        # The races count finished rounds: the heading says how many (a bunco in the round in
        # play shows in its banner, and joins the races when the round ends).
        "rounds_counted": len(state.night.history) if state.night else 0,
        # A small room leaves room under its tables: the races go there, and the standings
        # get the side column to themselves.
        "races_by_tables": len(state.tables) <= TV_RACES_UNDER,
        "ended": state.ended,
        "reveal": final_awards(state)[:state.revealed] if state.ended else [],
        "to_reveal": max(0, len(state.rules.awards) - state.revealed) if state.ended else 0,
        "fuzzy_holder": holder, "seq": state.versions.seats,
        "minis": roll_names(state.rules, "mini_bunco"),  # the standings' column
        "break": {"ends": state.break_ends, "minutes": state.break_minutes,
                  "up_next": up_next(state)} if state.break_ends is not None else None,
    }


def tv_bunco(state: LiveNight) -> dict:
    """This round's latest bunco, celebrated on the TV while the round is played: it ends
    with the round (not one from an hour ago, nor over the next round's movement board)."""
    # Its seq moves on with every correction too, so a bunco taken back leaves the TV.
    seq = sync.bunco_seq(state)
    bunco = state.last_bunco
    # The fuzzy die passes with each bunco (and back with a take-back): shown with them.
    fuzzy = fuzzy_die_at(state) if state.seated else None
    if bunco is None or state.room is None or bunco not in state.rolls:
        return {"bunco": None, "seq": seq, "fuzzy": fuzzy}
    return {"bunco": {"name": bunco.roller, "table": bunco.table, "seq": bunco.seq},
            "seq": seq, "fuzzy": fuzzy}


def house_rules_card(night: Night) -> dict:
    """The "How we play tonight" card: the night's own rules, read out by scoring."""
    rules = night.rules
    return {"name": rules.name,
            "parts": [{"heading": h, "text": _marked(t)} for h, t in how_we_play(
                rules, house_choices(night.rules_id, rules))]}


def _marked(text: str):
    """A card part with its "House rule:" marks set apart, so a guest sees at a glance what
    the host chose tonight."""
    return mark_safe(escape(text).replace(
        "House rule:", '<strong class="house-rule">House rule:</strong>'))
