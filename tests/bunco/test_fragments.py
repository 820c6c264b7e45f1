"""A table's live tally has one source, templates/jinja2/tables/ (bunco/runtime/jinja.py),
drawn by two Jinja2 environments: the tuned one (a dict's keys read first, each roll drawn
once) and, stock, Jinja2's own. Both draw every table of many nights here, at every step, and
must draw the same bytes, so that the tuning cannot change what a table shows."""

import random
import uuid
from unittest import mock

import pytest
from django.conf import settings
from django.template import TemplateDoesNotExist, engines
from django.template.backends.jinja2 import Jinja2

from bunco.live.screens.table import _quick_buttons, table_context
from bunco.night import services
from bunco.night.cache import live_state
from bunco.runtime import jinja as fragments
from scoring import PRESETS, sample_names
from tests.playing import roll

pytestmark = pytest.mark.django_db

#: Names both environments must escape alike.
HOSTILE = ["O'Hara", 'Cy "the dice"', "<b>Bo</b>", "Al & Co", "Mary-Katherine Wolfeschlegel"]

#: Every preset, at sizes with ghosts (babz from 13), individuals, One Table Bunco, pods.
CASES = [
    ("fuzzy-die", 12, None), ("winning-moves", 7, None), ("winning-moves", 12, None),
    ("winning-moves-solo", 3, None), ("head-table", 12, None), ("ladder", 12, None),
    ("clockwise", 8, None), ("babz", 13, None), ("babz", 5, None),
    ("clockwise", 16, {"pod_tables": 2}),
]


def jinja_engine(stock: bool) -> Jinja2:
    """The engine as the settings make it, tuned or stock (whichever this run is)."""
    params = fragments.engine(settings.APP_FILES / "templates")
    params.pop("BACKEND")
    with mock.patch.object(fragments, "tuned", lambda: not stock):
        return Jinja2(params)


class Both:
    """Every table of a night drawn by both environments: the same bytes."""

    def __init__(self):
        self.tuned = jinja_engine(stock=False).get_template("tables/_table.html")
        self.stock = jinja_engine(stock=True).get_template("tables/_table.html")
        self.drawn = 0
        self.seen: set[str] = set()

    def same(self, night, tables=None) -> None:
        state = live_state(night)
        for n in tables or range(1, len(state.tables) + 1):
            self.draw(table_context(state, n), n)

    def draw(self, t: dict, n: int) -> None:
        tuned = self.tuned.render({"t": t})
        stock = self.stock.render({"t": t})
        assert tuned == stock, f"table {n} drawn differently:\n{tuned}\n---\n{stock}"
        self.drawn += 1
        self.seen.update(mark for mark in MARKS if mark in stock)
        self.last = t


#: What the nights below must have drawn at least once between them.
MARKS = ["bell-duty", "fuzzy-die", "own-tally", 'class="own close"', "next-teams",
         "taken-back", "won-by", "quick-roll", 'class="dice"', "icon-ghost", "rolled by",
         'class="final"', "data-turns", 'data-one-die="1"', 'data-can-finish="1"',
         'class="pod"', "Paused by the host", "icon-trophy", "<b>done</b>",
         "&lt;b&gt;Bo&lt;/b&gt;", "O&#39;Hara", "Cy &#34;the dice&#34;"]


def tap(night, rng, number) -> None:
    """A roll at table ``number``: dice, or one of the round's quick buttons."""
    state = live_state(night)
    table = state.room.tables[number - 1]
    buttons = _quick_buttons(state.rules, table.round_number)
    if table.dice_expected == 3 and buttons and rng.random() < 0.4:
        try:
            roll(night, number, quick=rng.choice(buttons))
            return
        except services.CommandRefused:
            pass
    roll(night, number, dice=[rng.randint(1, 6) for _ in range(table.dice_expected)])


def play_on(night, rng, both, taps: int | None = None) -> None:
    """Tap at the tables still playing (all the round, or ``taps`` taps), each drawn after."""
    for _ in range(taps if taps is not None else 10_000):
        state = live_state(night)
        if state.room is None:
            return
        open_tables = [t.spec.number for t in state.room.tables if not t.done]
        if not open_tables:
            return
        number = rng.choice(open_tables)
        table = state.room.tables[number - 1]
        if table.phase.value == "finishing" and rng.random() < 0.5:
            services.table_finish(night=night, claim=services.claim_for(state, number),
                                  key=uuid.UUID(int=rng.getrandbits(128)), actor="test")
        else:
            tap(night, rng, number)
        both.same(night, [number])


def attempt(action, **kwargs) -> bool:
    try:
        action(**kwargs)
    except services.CommandRefused:
        return False
    return True


def test_both_environments_draw_every_table_of_every_preset_alike():
    both = Both()
    for rules_id, players, change in CASES:
        play_a_night(both, rules_id, players, change)
    # What random play seldom reaches (a one-die tie-break, a round won by a trigger), on
    # the last table drawn.
    t = both.last
    for change in ({"one_die": True, "can_roll": True},
                   {"won_by": {"name": "O'Hara", "what": "rolled a bunco"}},
                   {"won_by": {"name": "<b>Bo</b>", "what": "reached 21"}}):
        both.draw({**t, **change}, t["number"])
    missing = [mark for mark in MARKS if mark not in both.seen]
    assert not missing, f"no night drew {missing}"
    assert both.drawn > 1000


def play_a_night(both, rules_id, players, change) -> None:
    """A set: the first round to its end; in the second a pause, a take-back, the bell and its
    take-back, then on to its end; then the others."""
    rng = random.Random(f"{rules_id}-{players}")
    names = HOSTILE + sample_names(players)[len(HOSTILE):] if players > 5 \
        else sample_names(players)
    rules = PRESETS[rules_id].replace(sets=1, **(change or {}))
    with mock.patch("bunco.runtime.pushes.push"):
        night = services.night_create(name="Fragments", rules_id=rules_id, rules=rules,
                                      player_names=names)
        services.night_seat(night=night, rng=rng)
        both.same(night)  # seated, no round yet
        services.round_start(night=night)
        both.same(night)
        play_on(night, rng, both)  # the first round, to its result
        both.same(night)  # its final tally, the next round's teams
        services.round_start(night=night)
        play_on(night, rng, both, taps=8)
        if attempt(services.game_pause, night=night):
            both.same(night)
            services.game_resume(night=night)
        state = live_state(night)
        if state.room is not None and state.rolls:  # the host takes a roll back
            attempt(services.event_void, night=night, seq=state.rolls[-1].seq)
            both.same(night)
        if attempt(services.bell_ring, night=night):
            both.same(night)
            play_on(night, rng, both, taps=6)
            if attempt(services.event_void, night=night, seq="bell"):
                both.same(night)
        play_on(night, rng, both)
        both.same(night)
        while live_state(night).phase != "over":  # the set's other rounds
            services.round_start(night=night)
            play_on(night, rng, both)
            both.same(night)


def test_the_table_has_one_source():
    """Django's engine, which draws the pages, has no copy of the table to fall out of step."""
    for name in ("tables/_table.html", "tables/_roll.html"):
        with pytest.raises(TemplateDoesNotExist):
            engines["django"].get_template(name)
    assert (settings.APP_FILES / "templates" / "jinja2" / name).is_file()
