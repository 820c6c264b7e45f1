"""Each statement the "How we play tonight" card makes that the engine can answer, checked
against the engine's own answer: play it, then read the card. A card that states a target reads
it from the rules, so it cannot drift from what the tables play."""

import random
import re

import pytest

from scoring import (
    PRESETS,
    RoomRound,
    TableOutcome,
    decide_awards,
    house_choices,
    how_we_play,
    rotate,
    seat_night,
)
from scoring.night import PlayerStats
from scoring.rules import Layout

from .helpers import MISS, spec

BUNCO1 = (1, 1, 1)
WITH_GHOSTS = [k for k, r in PRESETS.items() if r.layout is not Layout.ONE_TABLE]


def card(preset_id: str) -> dict[str, str]:
    rules = PRESETS[preset_id]
    return dict(how_we_play(rules, house_choices(preset_id, rules)))


@pytest.mark.parametrize("preset_id", WITH_GHOSTS)
def test_what_the_card_says_of_a_ghosts_bunco_at_the_head_table_is_what_the_engine_does(
        preset_id):
    rules = PRESETS[preset_id]
    room = RoomRound(rules, 1, [spec("ABCG", 1, ghosts="G"), spec("EFHI", 2)])
    for _ in range(3):
        room.roll(0, MISS)  # A, B and C miss: the ghost's turn, its partner rolls for it
    room.roll(0, BUNCO1)
    ghosts = card(preset_id)["Ghosts"]
    if room.bell_rung:
        assert re.search(r"at the head table (a ghost's bunco ends the round|its 21 points "
                         r"reach the 21 and end the round)", ghosts, re.I), ghosts
    else:
        assert "does not end the round" in ghosts, ghosts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_table_bunco_plays_to_the_target_the_winning_moves_card_states(players):
    rules = PRESETS["winning-moves"]
    tables = seat_night(rules, [f"P{i}" for i in range(players)], random.Random(1))
    room = RoomRound(rules, 1, tables)
    target = room.tables[0].target
    assert target == 21  # the seed: One Table Bunco plays to 21
    said = card("winning-moves")["What ends the round"]
    assert f"with only 2 to 4 players, all at one table on their own, {target}" in said


@pytest.mark.parametrize("players", range(5, 12))
def test_the_winning_moves_card_says_who_leaves_the_last_small_table(players):
    """Play a round in each Winning Moves layout: does the last table's winner move to table 1?
    The card names exactly the player counts where the engine moves them."""
    rules = PRESETS["winning-moves"]
    names = [f"P{i}" for i in range(players)]
    tables = seat_night(rules, names, random.Random(2))
    outcomes = []
    for t in tables:  # the first seat's side wins every table
        seats = range(len(t.seats))
        won = tuple(s for s in seats if t.team_of(s) == t.team_of(0))
        outcomes.append(TableOutcome(won, tuple(s for s in seats if s not in won)))
    last = tables[-1]
    winner = last.seats[0].name
    moved = rotate(rules, tables, outcomes)
    winner_to_head = winner in {s.name for s in moved[0].seats}
    said = card("winning-moves")["How you move"]
    listed = re.search(r"except that with ([\d, or]+) players everyone at the last small table "
                       r"moves to table 1, its winner included", said)
    assert listed, said
    counts = {int(n) for n in re.findall(r"\d+", listed.group(1))}
    assert (players in counts) == winner_to_head, (players, winner_to_head)


@pytest.mark.parametrize("preset_id", [k for k, r in PRESETS.items() if r.awards])
def test_late_arrivals_winning_no_prize_is_told_when_the_engine_applies_it(preset_id):
    rules = PRESETS[preset_id]
    stats = {"Late": PlayerStats("Late", wins=9, buncos=9, points=99, losses=9,
                                 mini_buncos=9, joined_after=2),
             "Early": PlayerStats("Early", wins=1, buncos=1, points=10, losses=1,
                                  mini_buncos=1)}
    won = {w for a in decide_awards(rules, stats, rng=random.Random(1)) for w in a.winners}
    said = card(preset_id)["Tonight's prizes"]
    if "Late" not in won and "Early" in won:
        assert "Players who arrive after the first round cannot win a prize." in said
        # the seeds are silent on it: a house rule, said as such (once, for the whole part,
        # where the prize list itself is a house choice)
        assert (said.startswith("House rule: ")
                or "House rule: Players who arrive after the first round" in said)


def test_an_unwon_prizes_share_passing_on_is_told_as_the_engine_pays_it():
    rules = PRESETS["babz"]
    stats = {"Ann": PlayerStats("Ann", wins=4, losses=2, points=50),
             "Bea": PlayerStats("Bea", wins=2, losses=4, points=40)}
    paid = {str(a.category): a for a in decide_awards(rules, stats, pot_cents=10_000)}
    assert paid["most_buncos"].amount_cents == 0  # nobody rolled one
    first = next(a for a in paid.values() if a.winners and a.share_percent is not None)
    assert first.passed_from and first.amount_cents > first.share_cents
    # no seed says where an unwon prize's money goes: the card says it is a house rule
    assert ("House rule: A prize nobody wins passes its share of the pot to the first prize "
            "listed above that has a winner.") in card("babz")["Tonight's prizes"]


def test_the_head_table_cards_extra_turns_are_what_the_tables_play():
    """Seed 001: each player gets a chance to roll at least once: a whole turn."""
    rules = PRESETS["head-table"]
    room = RoomRound(rules, 1, [spec("ABCD", 1), spec("EFHI", 2)])
    room.roll(0, BUNCO1)  # A: 21, the head table rings; B, C and D have not rolled
    head = room.tables[0]
    assert head.phase.value == "extra_rolls"
    head.roll((1, 2, 3))  # B scores: a whole turn keeps rolling
    assert head.current == 1
    assert "gets one whole turn" in card("head-table")["After the bell"]


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_every_house_choice_is_marked_and_the_groups_own_rules_are_not(preset_id):
    c = card(preset_id)
    assert "House rule: the standings" in c["Who wins"]
    if preset_id == "fuzzy-die":  # seed 000 is silent on a tied table
        assert c["Ties"].startswith("House rule: ")
        assert "funko" in c["What scores"]  # the group's own word
    else:
        assert not c["Ties"].startswith("House rule: ")
    if preset_id == "babz":
        assert "House rule: Players who go home early cannot win a prize." in c[
            "Tonight's prizes"]
    # a setting the host changes tonight becomes a house rule on the card
    rules = PRESETS[preset_id].replace(sets=PRESETS[preset_id].sets % 10 + 1)
    changed = dict(how_we_play(rules, house_choices(preset_id, rules)))
    assert changed["The night"].startswith("House rule: We play")
