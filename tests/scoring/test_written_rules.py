"""The rules exactly as written: each test quotes the seed sentence it checks (issue 8)."""

import random

import pytest

from scoring import (
    PRESETS,
    HouseRules,
    IllegalMove,
    Night,
    Phase,
    PlayerStats,
    RoomRound,
    RoundRecord,
    Seat,
    TablePlay,
    award,
    decide_awards,
    house_choices,
    how_we_play,
    night_to_json,
    placed,
    ranked,
    rotate,
    sample_names,
    seat_night,
    simulate_night,
)
from scoring.awards import decide_set_awards, roll_off, roll_off_to_points, set_key
from scoring.roll import ALL_DICE
from scoring.rotation import TableOutcome, first_seats
from scoring.simulate import play_round

from .helpers import MISS, hits, room, spec

BUNCO1 = (1, 1, 1)
TWO = (1, 1, 5)  # two 1s: 2 points in round 1


def by_category(results):
    return {str(r.category): r for r in results}


class Dice(random.Random):
    """A Random that deals scripted dice: ``randint`` faces and ``randrange(216)`` rolls."""

    def __init__(self, faces=(), rolls=()):
        super().__init__(0)
        self.faces, self.rolls = list(faces), list(rolls)

    def randint(self, a, b):
        return self.faces.pop(0)

    def randrange(self, *args):
        return ALL_DICE.index(self.rolls.pop(0))


# -- 1. babz: one player's own tally reaches 21; the trigger's team wins the head table ------

def test_babz_one_players_own_21_ends_the_round_and_their_team_wins_even_when_behind():
    """Seed 004: "Each person at the table takes a turn and you keep going around and around
    and around until someone at the head table rolls a bunco or reaches 21 points in that
    round." and "If you are on a team with the person who got a bunco or 21 points, your team
    automatically wins that round (winning is not necessarily based on the highest total score
    between those two players).\""""
    rules = PRESETS["babz"]
    assert str(rules.target_reached_by) == "player"
    r = room(rules, 1, "ABCD", "EFGH")
    head, other = r.tables
    for _ in range(10):
        r.roll(0, TWO)  # A: 20
    r.roll(0, MISS)
    r.roll(0, MISS)  # B: 0
    for _ in range(10):
        r.roll(0, TWO)  # C: 20, so A & C have 40: no team total ends the round
    assert head.team_scores == [40, 0] and not r.bell_rung
    r.roll(0, MISS)
    r.roll(1, hits(1))  # E at table 2: 1
    r.roll(1, MISS)
    r.roll(1, hits(2))  # F: 2, so F & H lead table 2 by 2 to 1
    for _ in range(10):
        r.roll(0, TWO)  # D: 20
    assert not r.bell_rung
    r.roll(0, hits(1))  # D: 21, the gong
    assert r.bell_rung and head.done and other.done
    assert head.team_scores == [40, 21] and head.winners == (1, 3)  # behind, and wins
    assert other.winners == (1, 3)  # team totals still decide the other tables


def test_babz_a_bunco_at_the_head_table_wins_it_for_a_team_that_is_behind():
    """Seed 004: "until someone at the head table rolls a bunco" and "your team automatically
    wins that round\""""
    r = room(PRESETS["babz"], 1, "ABCD")
    head = r.tables[0]
    for _ in range(10):
        r.roll(0, TWO)  # A: 20
    r.roll(0, MISS)
    r.roll(0, MISS)  # B
    for _ in range(10):
        r.roll(0, TWO)  # C: 20
    r.roll(0, MISS)
    r.roll(0, BUNCO1)  # D: a bunco, 21 against 40
    assert head.done and head.winners == (1, 3)


def test_team_rules_still_end_the_round_on_the_teams_total():
    """Seed 001: "The round is over when the Head table reached 21 points\""""
    rules = PRESETS["head-table"]
    assert str(rules.target_reached_by) == "team"
    r = room(rules.replace(at_least_one_roll_each=False), 1, "ABCD")
    for _ in range(6):
        r.roll(0, TWO)  # A: 12
    r.roll(0, MISS)
    r.roll(0, MISS)
    for _ in range(5):
        r.roll(0, TWO)  # C: 10, A & C 22
    assert r.bell_rung


def test_rules_saved_before_these_dimensions_play_as_they_did():
    """Old nights store their rules as JSON without the new fields: the defaults are the old
    behaviour, so a finished night replays identically."""
    old = PRESETS["babz"].to_dict()
    for name in ("target_reached_by", "at_least_once", "roll_off_order", "one_table_target",
                 "prize_roll_off", "left_early_win_awards", "set_awards"):
        old.pop(name)
    old.update(after_bell="finish_turn", award_ties="split")
    rules = HouseRules.from_dict(old)
    assert str(rules.target_reached_by) == "team" and str(rules.at_least_once) == "roll"
    assert str(rules.roll_off_order) == "in_turn" and rules.one_table_target == 0
    assert str(rules.prize_roll_off) == "high_total" and rules.left_early_win_awards
    assert rules.set_awards == () and all(a.ties is None for a in rules.awards)
    assert HouseRules.from_json(rules.to_json()) == rules


def test_bad_values_for_the_new_dimensions_are_refused_by_name():
    with pytest.raises(ValueError, match="target_reached_by"):
        HouseRules().replace(target_reached_by="table")
    with pytest.raises(ValueError, match="at_least_once"):
        HouseRules().replace(at_least_once="twice")
    with pytest.raises(ValueError, match=r"awards\[0\].ties"):
        HouseRules().replace(awards=[{"category": "most_wins", "prize": "Cup", "ties": "x"}])
    with pytest.raises(ValueError, match="set_awards"):
        HouseRules().replace(set_awards="most_wins")
    with pytest.raises(ValueError, match="left_early_win_awards"):
        HouseRules().replace(left_early_win_awards="no")


# -- 2. babz: the gong stops play at once, everywhere -----------------------------------------

def test_babz_the_gong_stops_play_at_once_at_every_table_head_table_included():
    """Seed 004: "If someone at a table other than the head table rolls a bunco, everyone
    continues playing until the head table hits the gong." Nothing lets a roller finish."""
    r = room(PRESETS["babz"], 1, "ABCD", "EFGH", "IJKL")
    r.roll(1, BUNCO1)  # a bunco at table 2: play goes on
    assert not r.bell_rung
    r.roll(2, hits(2))  # I is mid-turn at table 3
    r.roll(0, BUNCO1)  # A's bunco at the head table: the gong
    assert all(t.done for t in r.tables)  # A's turn does not go on, nor I's
    assert r.tables[2].winners == (0, 2)
    with pytest.raises(IllegalMove, match="finished"):
        r.roll(0, hits(1))
    with pytest.raises(IllegalMove, match="finished"):
        r.roll(2, hits(1))


# -- 3. ties decided per category; named prizes go to one person ------------------------------

NIGHT = {
    "Ann": PlayerStats("Ann", wins=8, losses=4, buncos=2, mini_buncos=3, points=60),
    "Bea": PlayerStats("Bea", wins=8, losses=4, buncos=2, mini_buncos=1, points=60),
    "Cat": PlayerStats("Cat", wins=5, losses=7, buncos=1, mini_buncos=5, points=150),
    "Ghost 1": PlayerStats("Ghost 1", ghost=True),
}


def test_babz_each_tie_waits_for_the_tied_players_to_choose_a_roll_off_or_a_split():
    """Seed 004: "For ties on the Final Score Sheet, we let them decide if they want a
    roll-off to see who wins it all. Or, they can decide how they would like to divvy up the
    prize money.\""""
    rules = PRESETS["babz"]
    asked = by_category(decide_awards(rules, NIGHT, pot_cents=10_000))
    buncos = asked["most_buncos"]
    assert buncos.winners == () and buncos.roll_off == ("Ann", "Bea") and buncos.can_split
    assert buncos.amount_cents == 4000 and buncos.payouts == ()  # the money waits
    split = by_category(decide_awards(rules, NIGHT, pot_cents=10_000, splits=["most_buncos"]))
    assert split["most_buncos"].payouts == (("Ann", 2000), ("Bea", 2000))
    assert split["most_wins"].roll_off == ("Ann", "Bea")  # decided on its own
    rolled = by_category(decide_awards(rules, NIGHT, pot_cents=10_000,
                                       roll_offs={"most_buncos": "Bea"}))
    assert rolled["most_buncos"].payouts == (("Bea", 4000),)  # "who wins it all"


def test_the_tie_policy_is_set_per_category():
    rules = HouseRules(awards=[award("most_buncos", 50, ties="roll_off"),
                               award("most_wins", 50)], award_ties="split")
    results = by_category(decide_awards(rules, NIGHT, pot_cents=1000))
    assert results["most_buncos"].roll_off == ("Ann", "Bea")
    assert results["most_wins"].payouts == (("Ann", 250), ("Bea", 250))


def test_a_named_prize_is_never_split_and_the_lowest_roll_wins_the_doormat():
    """Seed 004: "The upside-down pineapple doormat will go home with the person who had the
    lowest score of the night" and "Roll-offs will determine the winner based on who rolls the
    highest score, unless the roll-off is for the category of lowest score (lowest score would
    win).\""""
    rules = PRESETS["babz"].replace(award_ties="split")
    doormat = by_category(decide_awards(rules, NIGHT))["lowest_points"]
    assert doormat.winners == () and doormat.roll_off == ("Ann", "Bea")
    assert not doormat.can_split
    # Ann rolls 6-6-6 and Bea 1-1-1: the lowest total takes the doormat.
    assert roll_off(["Ann", "Bea"], Dice([6, 6, 6, 1, 1, 1]), category="lowest_points") == "Bea"
    assert roll_off(["Ann", "Bea"], Dice([6, 6, 6, 1, 1, 1]), category="most_wins") == "Ann"
    played = by_category(decide_awards(rules, NIGHT, rng=random.Random(3)))["lowest_points"]
    assert len(played.winners) == 1


def test_simulated_babz_nights_never_send_a_named_prize_home_with_two_people():
    for seed in range(150):
        sim = simulate_night(PRESETS["babz"], sample_names(12), random.Random(seed))
        for result in sim.awards:
            if result.prize:
                assert len(result.winners) <= 1, (seed, result)


# -- 4. players who went home early ------------------------------------------------------------

def test_babz_a_player_who_went_home_early_does_not_take_the_doormat_home():
    """Seed 004: the doormat "will go home with the person who had the lowest score of the
    night"; "At the end of the night, the host will collect everyone's scorecards". A house
    rule says whether players who went home early can win awards."""
    night = Night.seat(PRESETS["babz"], sample_names(12), random.Random(1))
    for _ in range(3):
        play = night.start_round()
        play_round(play, random.Random(len(night.history)), seconds_per_roll=6)
        night.finish_round(play)
    night.substitute("Ava", Seat("Ghost 1", ghost=True))
    assert night.stats["Ava"].left and not night.stats["Ben"].left
    stats = dict(night.stats)
    stats["Ava"].points = -1  # the lowest score of all
    doormat = by_category(decide_awards(PRESETS["babz"], stats))["lowest_points"]
    assert "Ava" not in doormat.winners + doormat.roll_off
    lenient = PRESETS["babz"].replace(left_early_win_awards=True)
    assert by_category(decide_awards(lenient, stats))["lowest_points"].winners == ("Ava",)


# -- 5. Winning Moves: a winner per set ---------------------------------------------------------

def record(set_number, round_number, winners, losers, buncos=()):
    seats = tuple(winners) + tuple(losers)
    return RoundRecord(set_number, round_number, (TablePlay(
        1, seats, tuple((n,) for n in seats), (0,) * len(seats), tuple(winners), tuple(losers),
        1, (0,) * len(seats), tuple(buncos.count(n) for n in seats), (0,) * len(seats)),),
        tuple((1, n) for n in buncos))


def one_table_night(history, sets=2):
    rules = PRESETS["winning-moves"].replace(sets=sets)
    night = Night.from_tables(rules, [spec("ABC", individuals=True)])
    night.history = list(history)
    night.set_number = sets + 1
    return night


def test_winning_moves_each_set_has_its_own_winner_most_w_then_most_b():
    """Seed 000: "Continue playing until a full Set is completed. The winner of the Set is the
    player with the most "W's." If there is a tie, it is broken by the same procedure as in One
    Table Bunco." and "If there is a tie, the player with the most "B's," among those in the
    tie, wins the game." and "For a longer party, take a break, serve some food, and then play
    a second Set.\""""
    first = [record(1, n, "A", "BC") for n in range(1, 4)]
    first += [record(1, n, "B", "AC", buncos="B") for n in range(4, 7)]  # 3 W each, B has B's
    second = [record(2, n, "C", "AB") for n in range(1, 7)]
    night = one_table_night(first + second)
    results = decide_set_awards(night.rules, night)
    assert [(r.set_number, r.winner) for r in results] == [(1, ("B",)), (2, ("C",))]
    # Over the whole night A and B have 3 W and C 6: each set is judged on its own rounds.


def test_winning_moves_a_set_still_tied_goes_to_a_roll_off():
    """Seed 000: "If there is still a tie, a "roll off" breaks the tie\""""
    tied = [record(1, n, "A" if n % 2 else "B", "BC" if n % 2 else "AC") for n in range(1, 7)]
    night = one_table_night(tied, sets=1)
    (pending,) = decide_set_awards(night.rules, night)
    assert pending.winner == () and pending.awards[0].roll_off == ("A", "B")
    (entered,) = decide_set_awards(night.rules, night,
                                   roll_offs={set_key(1, "most_wins"): "A"})
    assert entered.winner == ("A",)
    (played,) = decide_set_awards(night.rules, night, rng=random.Random(2))
    assert played.winner in (("A",), ("B",))


def test_any_rules_can_award_prizes_per_set_and_the_simulator_plays_them():
    rules = PRESETS["babz"].replace(set_awards=[award("highest_points", prize="Set top score")])
    sim = simulate_night(rules, sample_names(12), random.Random(4), rules_id="custom")
    assert [r.set_number for r in sim.sets] == [1, 2]
    for result in sim.sets:
        stats = sim.night.set_stats(result.set_number)
        best = max(s.points for s in stats.values() if not s.ghost)
        assert stats[result.winner[0]].points == best
    data = night_to_json(sim)
    assert [s["set"] for s in data["sets"]] == [1, 2]
    assert data["sets"][0]["winner"] == list(sim.sets[0].winner)
    assert {"rules", "seed", "players", "rounds", "awards"} <= set(data)


def test_the_simulator_json_lists_each_sets_winner():
    sim = simulate_night(PRESETS["winning-moves"].replace(sets=2), sample_names(12),
                         random.Random(7), rules_id="winning-moves", seed=7)
    data = night_to_json(sim)
    assert [s["set"] for s in data["sets"]] == [1, 2]
    for entry in data["sets"]:
        assert len(entry["winner"]) == 1  # ties rolled off
        assert entry["awards"][0]["prize"] == "Set winner"
    babz = night_to_json(simulate_night(PRESETS["babz"], sample_names(12), random.Random(1)))
    assert babz["sets"] == [{"set": 1, "winner": [], "awards": []},
                            {"set": 2, "winner": [], "awards": []}]


# -- 6. The roll-off procedure -------------------------------------------------------------------

def test_winning_moves_set_roll_off_is_first_to_five_and_high_total_rolls_first():
    """Seed 000: "In a roll off, the first player to reach 5 points wins the roll off (points
    are scored for rolling the number of the round just completed, as well as for Buncos.) To
    determine who goes first in a roll-off, each player rolls all three dice. High total will
    roll first (but does not score for this roll).\""""
    rules = PRESETS["winning-moves"]
    # Who starts: Ann 1-1-1 (3), Bea 6-6-6 (18; a bunco in round 6, but not scored).
    # Bea: two 6s (2), one 6 (3), a miss. Ann: a bunco (21): Ann wins the roll-off.
    dice = Dice(faces=[1, 1, 1, 6, 6, 6],
                rolls=[(6, 6, 1), (6, 2, 3), (1, 2, 3), (6, 6, 6)])
    assert roll_off_to_points(["Ann", "Bea"], dice, rules, round_number=6) == "Ann"
    assert dice.rolls == []
    # Five target dice win without a bunco; a low bunco scores nothing in a roll-off.
    dice = Dice(faces=[6, 6, 6, 1, 1, 1],
                rolls=[(6, 6, 2), (2, 2, 2), (6, 6, 5), (6, 1, 2), (6, 6, 4)])
    assert roll_off_to_points(["Ann", "Bea"], dice, rules, round_number=6) == "Bea"


# -- 7. Winning Moves with 2-4 players: One Table Bunco ------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4])
def test_winning_moves_with_two_to_four_players_seats_one_table_of_individuals(count):
    """Seed 000: "One Table Bunco (For 2-4 players)\" ... "All players sit around one table."
    and "Play continues in this manner until one player accumulates 21 points and wins the
    round.\""""
    rules = PRESETS["winning-moves"]
    tables = seat_night(rules, sample_names(count), random.Random(1))
    assert len(tables) == 1 and tables[0].individuals and len(tables[0].seats) == count
    assert RoomRound(rules, 1, tables).tables[0].target == 21  # not 11, not a team's 21
    sim = simulate_night(rules, sample_names(count), random.Random(count))
    for rnd in sim.rounds:
        (play,) = rnd.tables
        assert len(play.winners) == 1 and play.seats == sim.rounds[0].tables[0].seats


def test_one_table_bunco_starts_left_of_the_last_winner_and_a_party_with_the_scorekeeper():
    """Seed 000: "The player to the left of the round's winner picks up the dice and rolls
    first to start Round #2." and (Party Bunco) "The scorekeeper at each table rolls first, as
    usual.\""""
    rules = PRESETS["winning-moves"]
    one = [spec("ABCD", individuals=True)]
    assert first_seats(rules, rotate(rules, one, [TableOutcome((2,), (0, 1, 3))]), ["C"]) == [3]
    party = [spec("ABCD", 1), spec("EFGH", 2)]
    assert first_seats(rules, party, ["A", "C", "E", "G"]) == [0, 0]


def test_a_winning_moves_night_seated_in_two_teams_before_still_rotates_as_it_did():
    """A four-player night seated as two teams before this change replays as it was played."""
    rules = PRESETS["winning-moves"]
    nxt = rotate(rules, [spec("ABCD")], [TableOutcome((1, 3), (0, 2))])
    assert not nxt[0].individuals and len(nxt[0].seats) == 4
    assert RoomRound(rules, 1, nxt).tables[0].target == 21


# -- 8. head-table: at least once is a turn -------------------------------------------------------

def test_head_table_each_player_gets_a_turn_not_a_roll():
    """Seed 001: "Each player gets a chance to roll at least once in each round" -- a chance
    to roll is a turn: the player rolls on while scoring."""
    rules = PRESETS["head-table"]
    assert str(rules.at_least_once) == "turn"
    r = room(rules, 1, "ABCD")
    head = r.tables[0]
    r.roll(0, BUNCO1)  # A: 21, the bell; B, C and D have not rolled
    assert head.phase is Phase.EXTRA_ROLLS and head.current == 1
    r.roll(0, hits(1))
    r.roll(0, hits(2))
    assert head.current == 1  # B's turn goes on while B scores
    r.roll(0, MISS)
    assert head.current == 2
    one_roll = room(rules.replace(at_least_once="roll"), 1, "ABCD")
    one_roll.roll(0, BUNCO1)
    one_roll.roll(0, hits(1))
    assert one_roll.tables[0].current == 2  # the other reading: one roll each


# -- 9. the fuzzy die -------------------------------------------------------------------------

def test_the_fuzzy_die_starts_at_the_head_table_and_passes_to_each_bunco_roller():
    """Seed 000: "The head table holds the bell and fuzzy die." and "If any player rolls 3
    ones, she will shout "bunco", and receive the fuzzy die\""""
    rules = PRESETS["fuzzy-die"]
    night = Night.from_tables(rules, [spec("ABCD", 1), spec("EFGH", 2)])
    assert night.fuzzy_die_holder is None  # the head table holds it
    play = night.start_round()
    play.roll(1, BUNCO1)  # E at table 2
    play.roll(1, BUNCO1)  # E again
    play.roll(0, hits(1))
    play.roll(0, MISS)
    play.roll(0, BUNCO1)  # B at the head table: 22, the bell
    night.finish_round(play)
    assert night.fuzzy_die_holder == "B"


def test_the_fuzzy_die_prize_follows_the_die():
    """The fuzzy-die prize goes to whoever holds the die at the end; if that player cannot
    win (went home early), nobody else is handed it."""
    rules = HouseRules(fuzzy_die=True, awards=[award("fuzzy_die", prize="Fuzzy die")],
                       left_early_win_awards=False)
    stats = {n: PlayerStats(n) for n in "ABC"}
    assert decide_awards(rules, stats, bunco_order=["A", "C"])[0].winners == ("C",)
    assert decide_awards(rules, stats, bunco_order=[])[0].winners == ()
    stats["C"].left = True
    assert decide_awards(rules, stats, bunco_order=["A", "C"])[0].winners == ()


# -- 10. up to 2,000 players -------------------------------------------------------------------

@pytest.mark.parametrize("rules_id", [k for k, r in PRESETS.items()
                                      if r.player_limits[1] == 2000])
def test_two_thousand_players_are_seated_rotated_and_awarded(rules_id):
    """Charity nights of about 2,000 players: 500 tables of four, everyone seated once every
    round, every round a W or an L for each player, prizes decided."""
    rules = PRESETS[rules_id].replace(sets=1)
    sim = simulate_night(rules, sample_names(2000), random.Random(1))
    assert all(len(r.tables) == 500 for r in sim.rounds)
    for rnd in sim.rounds:
        seated = [n for t in rnd.tables for n in t.seats]
        assert len(seated) == len(set(seated)) == 2000
    assert all(s.wins + s.losses == 6 for s in sim.night.stats.values())
    assert all(a.winners or not a.value for a in sim.awards)
    with pytest.raises(ValueError, match="to 2000 players, not 2001"):
        rules.check_player_count(2001)


# -- 7. the card's last statements, played ------------------------------------------------------

def test_babz_a_ghosts_bunco_at_the_head_table_wins_the_round_for_its_partner():
    """Seed 004: "If you are on a team with the person who got a bunco or 21 points, your team
    automatically wins that round": at the head table the ghost's partner rolls it a bunco, the
    round ends and the partner is credited the win (never the bunco), as the card says."""
    rules = PRESETS["babz"]
    night = Night.from_tables(rules, [spec("ABCZ", 1, ghosts="Z"), spec("EFGH", 2)])
    play = night.start_round()
    head = play.tables[0]
    play.roll(1, hits(1))  # E: table 2 leads 1-0 when the gong stops it
    play.roll(1, MISS)
    for _ in range(10):
        play.roll(0, TWO)  # A: 20
    play.roll(0, MISS)
    play.roll(0, MISS)  # B
    play.roll(0, MISS)  # C
    play.roll(0, BUNCO1)  # B rolls Z's bunco: 21 for B and Z, against 20
    assert play.bell_rung and head.done and head.winners == (1, 3)
    night.finish_round(play)
    assert night.stats["B"].wins == 1 and night.stats["B"].buncos == 0
    assert night.stats["A"].losses == 1
    ghosts = dict(how_we_play(rules))["Ghosts"]
    assert ("nobody is credited a bunco for a ghost's roll, and a round its points win is its "
            "partner's win") in ghosts
    assert "(its partner's team wins the round, as with anyone's)" in ghosts
    assert "a win for a ghost's roll" not in ghosts


def test_winning_moves_rings_the_bell_at_the_head_table_as_each_table_wins():
    """Seed 000: "ring the bell as each table winner is declared. Ring the bell three times to
    declare the round over after the third table completes the round": each table plays to 21
    on its own, and the card says who rings, not "There is no bell"."""
    rules = PRESETS["winning-moves"]
    r = room(rules, 1, "ABCD", "EFGH")
    for _ in range(10):
        r.roll(1, TWO)  # E: 20 at table 2
    r.roll(1, hits(1))  # E: 21, table 2 has its winner; table 1 plays on
    assert r.tables[1].done and not r.tables[0].done
    ends = dict(how_we_play(rules))["What ends the round"]
    assert "There is no bell" not in ends
    assert ("The head table rings the bell as each table's winner is declared, and three times "
            "when the last table finishes: the round is over.") in ends


def house_card(preset_id: str) -> dict[str, str]:
    rules = PRESETS[preset_id]
    return dict(how_we_play(rules, house_choices(preset_id, rules)))


def test_head_table_plays_four_sets_a_house_rule_of_six_rounds_each():
    """Seed 001: "There are six rounds in each set of Bunco": how many sets, it does not say."""
    rules = PRESETS["head-table"]
    sim = simulate_night(rules, sample_names(12), random.Random(3))
    assert {r.set_number for r in sim.night.history} == {1, 2, 3, 4}
    night = house_card("head-table")["The night"]
    assert night.startswith("House rule: We play 4 sets of 6 rounds. Each round has its number")
    assert night.count("House rule") == 1  # the head table's bell is the seed's own


def test_ladders_one_prize_for_the_most_buncos_is_a_house_rule():
    """Seed 002: "Either the player with the most buncos is declared the winner, or the player
    with the most buncos and wins ... depending on the initial agreement\""""
    stats = {"Ann": PlayerStats("Ann", wins=9, buncos=1), "Bea": PlayerStats("Bea", buncos=2)}
    assert by_category(decide_awards(PRESETS["ladder"], stats))["most_buncos"].winners == (
        "Bea",)
    assert house_card("ladder")["Tonight's prizes"].startswith(
        "House rule: Tonight's prizes: Winner for the most buncos.")


@pytest.mark.parametrize("preset_id", ["fuzzy-die", "winning-moves", "head-table", "ladder",
                                       "clockwise", "babz"])
def test_ghosts_and_a_ghost_in_a_leavers_chair_are_house_rules_where_no_seed_has_them(
        preset_id):
    """Only seed 004 has ghosts ("A "ghost" is used when we don't have enough players"), and no
    seed puts a ghost in the chair of one who goes home."""
    rules = PRESETS[preset_id]
    night = Night.seat(rules, sample_names(14), random.Random(2))
    assert any(s.ghost for t in night.tables for s in t.seats)
    night.substitute(sample_names(14)[0], Seat("Ghost 9", ghost=True))
    assert night.stats[sample_names(14)[0]].left
    ghosts = house_card(preset_id)["Ghosts"]
    if preset_id == "babz":  # the seed's own ghosts; the leaver's chair is the app's
        assert not ghosts.startswith("House rule")
        assert ("House rule: A ghost also takes the chair of anyone who goes home early; "
                "where that would leave one player with three ghosts, a ghost changes chairs "
                "with a player of the table with the fewest ghosts.") in ghosts
    else:
        assert ghosts.startswith("House rule: ") and ghosts.count("House rule") == 1


def test_players_level_on_everything_share_a_place_and_the_next_counts_them():
    """No seed ranks the players: the standings' order is a house rule, and two players level
    on wins, buncos and points share a place (1, 2, 3=, 3=, 5), listed by name."""
    stats = {n: PlayerStats(n, wins=w, buncos=1, points=p) for n, w, p in (
        ("Eve", 1, 5), ("dee", 3, 9), ("Cat", 3, 9), ("Bo", 4, 0), ("Al", 3, 10))}
    rows = ranked(stats)
    assert [s.name for s in rows] == ["Bo", "Al", "Cat", "dee", "Eve"]
    assert placed(rows) == [(1, False), (2, False), (3, True), (3, True), (5, False)]
    assert "players level on all three share a place (3rd=), listed by name." in house_card(
        "babz")["Who wins"]
