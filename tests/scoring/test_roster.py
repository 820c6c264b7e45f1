"""Late arrivals, players who leave, and typo fixes, between rounds."""

import random

import pytest

from scoring import PRESETS, IllegalMove, Night, Seat, sample_names
from scoring.seating import ghosts_partnered
from scoring.simulate import play_round


def night_with(count, rules_id="babz", seed=1):
    return Night.seat(PRESETS[rules_id], sample_names(count), random.Random(seed))


def test_a_late_arrival_takes_a_ghosts_chair_from_the_next_round():
    night = night_with(11)
    ghost = next(s.name for t in night.tables for s in t.seats if s.ghost)
    night.substitute(ghost, Seat("Mo"))
    seated = [s for t in night.tables for s in t.seats]
    assert "Mo" in [s.name for s in seated] and not any(s.ghost for s in seated)
    room = night.start_round()
    play_round(room, random.Random(2), seconds_per_roll=6)
    night.finish_round(room)
    assert night.stats["Mo"].wins + night.stats["Mo"].losses == 1


def test_a_player_who_leaves_keeps_what_they_earned_and_a_ghost_plays_on():
    night = night_with(12)
    room = night.start_round()
    play_round(room, random.Random(2), seconds_per_roll=6)
    night.finish_round(room)
    earned = night.stats["Ava"].wins + night.stats["Ava"].losses
    night.substitute("Ava", Seat("Ghost 1", ghost=True))
    assert night.stats["Ava"].wins + night.stats["Ava"].losses == earned == 1
    for spec in night.tables:
        for i in range(2):
            assert not (spec.seats[i].ghost and spec.seats[i + 2].ghost)
    room = night.start_round()
    play_round(room, random.Random(3), seconds_per_roll=6)
    night.finish_round(room)
    assert night.stats["Ava"].wins + night.stats["Ava"].losses == 1  # nothing after leaving


def test_two_ghosts_never_end_up_partners():
    night = night_with(11)  # one ghost already
    spec = next(t for t in night.tables if any(s.ghost for s in t.seats))
    ghost_chair = next(i for i, s in enumerate(spec.seats) if s.ghost)
    partner = spec.seats[(ghost_chair + 2) % 4].name
    night.substitute(partner, Seat("Ghost 2", ghost=True))
    spec = next(t for t in night.tables if t.number == spec.number)
    assert sum(s.ghost for s in spec.seats) == 2
    assert not any(spec.seats[i].ghost and spec.seats[i + 2].ghost for i in range(2))


def test_a_guest_at_a_table_with_two_ghosts_goes_home_and_a_ghost_changes_tables():
    """A table is never left with one real player: the guest goes home, and one of its ghosts
    changes chairs with a real player of the table with the fewest ghosts."""
    night = night_with(10)  # two ghosts, at different tables
    spec = night.tables[-1]
    real = [s.name for s in spec.seats if not s.ghost]
    night.substitute(real[0], Seat("Ghost 8", ghost=True))
    before = {s.name for t in night.tables for s in t.seats if not s.ghost}
    night.substitute(real[1], Seat("Ghost 9", ghost=True))
    assert night.stats[real[1]].left
    after = {s.name for t in night.tables for s in t.seats if not s.ghost}
    assert after == before - {real[1]}
    for table in night.tables:
        assert sum(s.ghost for s in table.seats) <= 2, table
        assert not ghosts_partnered(table), table
    room = night.start_round()  # and the night plays on
    play_round(room, random.Random(3), seconds_per_roll=6)
    night.finish_round(room)
    assert night.stats[real[1]].wins + night.stats[real[1]].losses == 0


def test_a_table_left_with_one_real_player_is_refused_only_with_no_chair_to_spare():
    night = night_with(8)  # two full tables
    for name in sample_names(8):
        spec = next(t for t in night.tables if name in [s.name for s in t.seats])
        if sum(s.ghost for s in spec.seats) == 2 and all(
                sum(s.ghost for s in t.seats) == 2 for t in night.tables):
            with pytest.raises(IllegalMove, match="no other table has a chair to spare"):
                night.substitute(name, Seat(f"Ghost {name}", ghost=True))
            return
        night.substitute(name, Seat(f"Ghost {name}", ghost=True))
    raise AssertionError("the room never ran out of chairs to spare")


def test_a_typo_is_fixed_everywhere_including_rounds_played():
    night = night_with(12)
    room = night.start_round()
    play_round(room, random.Random(2), seconds_per_roll=6)
    night.finish_round(room)
    night.rename("Ava", "Eva")
    assert "Ava" not in night.stats and night.stats["Eva"].name == "Eva"
    names = [n for r in night.history for t in r.tables for n in t.seats]
    assert "Eva" in names and "Ava" not in names
    with pytest.raises(IllegalMove, match="already a name"):
        night.rename("Eva", "Ben")


def test_a_scorecard_lists_every_round_and_adds_up_to_the_totals():
    night = night_with(12)
    rng = random.Random(5)
    for _ in range(6):
        room = night.start_round()
        play_round(room, rng, seconds_per_roll=6)
        night.finish_round(room)
    card = night.scorecard("Ava")
    assert [(r["set"], r["round"]) for r in card] == [(1, n) for n in range(1, 7)]
    totals = night.stats["Ava"]
    assert sum(r["result"] == "W" for r in card) == totals.wins
    assert sum(r["points"] for r in card) == totals.points
    assert sum(r["buncos"] for r in card) == totals.buncos
    assert sum(r["mini_buncos"] for r in card) == totals.mini_buncos
    assert all(r["partner"] not in (None, "Ava") for r in card)
