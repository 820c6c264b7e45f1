"""The simulator's faster way of playing a round plays the same game as rolling pass by pass.

Three steps, each tested here:

1. ``TableRound.roll_many(rolls)`` leaves a table exactly as ``roll`` with each roll in turn
   (for as long as the table is in normal play): same state, same bunco log.
2. Given the same rolls at each table (the k-th roll at table i fixed in advance), playing the
   tables one after another (``_play_table_by_table``) gives exactly the round that playing
   them pass by pass (``_play_in_passes``) gives: every table's state, the room's bunco log in
   the same order, the bell, the number of passes. Checked for any house rules where only the
   head table rings the room's bell, with loaded dice so that buncos, wipeouts, triples, ties
   and the horn all come up often.
3. ``RandomDice`` draws every roll uniformly: a chi-square test on the rolls drawn in bulk,
   and the fast and the plain way compared on random dice over many rounds of each preset.
"""

import math
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    PRESETS,
    HouseRules,
    IllegalMove,
    Night,
    Phase,
    RoomRound,
    Seat,
    TableRound,
    TableSpec,
    sample_names,
)
from scoring.roll import ALL_DICE
from scoring.rules import (
    AfterBell,
    AfterMini,
    AtLeastOnce,
    BuncoEffect,
    HeadTableWinner,
    Layout,
    PointsPerHit,
    RollOffOrder,
    Rotation,
    RoundEnd,
    TargetScope,
    TieBreak,
    Triples,
)
from scoring.simulate import (
    RandomDice,
    _play_in_passes,
    _play_table_by_table,
    play_round,
    play_round_roll_by_roll,
)

TRIPLES = [i for i, (a, b, c) in enumerate(ALL_DICE) if a == b == c]


def loaded_weights(load: int) -> list[int]:
    """Triples (every bunco, mini bunco and wipeout) ``load`` times likelier than fair."""
    return [load if i in TRIPLES else 1 for i in range(len(ALL_DICE))]


class ScriptedDice:
    """Every table's rolls fixed in advance: the k-th roll at table i is the same whichever way
    the round is played and whenever it is asked for. Same interface as ``RandomDice``."""

    def __init__(self, seed: int, load: int = 1):
        self.seed = seed
        self.weights = loaded_weights(load)
        self.streams: dict[tuple[str, int], tuple[random.Random, list[int]]] = {}

    def _at(self, kind: str, table: int, number: int) -> int:
        rng, values = self.streams.setdefault(
            (kind, table), (random.Random(f"{self.seed}/{kind}/{table}"), []))
        while len(values) < number:
            if kind == "three":
                values.append(rng.choices(range(len(ALL_DICE)), self.weights)[0])
            else:
                values.append(rng.randrange(6))
        return values[number - 1]

    def roll(self, table: int, number: int) -> int:
        return self._at("three", table, number)

    def die(self, table: int, number: int) -> int:
        return 1 + self._at("one", table, number)

    def rolls(self, table: int, first: int, count: int) -> bytes:
        return bytes(self.roll(table, first + k) for k in range(1, count + 1))


def table_state(table: TableRound) -> dict:
    """Everything a table knows, but its fixed setup."""
    return {k: v for k, v in vars(table).items()
            if k not in ("rules", "spec", "bunco_log", "_scores")}


def room_state(room: RoomRound) -> dict:
    return {"tables": [table_state(t) for t in room.tables], "bell": list(room.pod_rung),
            "buncos": list(room.bunco_log)}


# -- 1. roll_many is roll, many times -----------------------------------------------------------

any_rules = st.builds(
    lambda tri, mini, bell, tie, order, end, effect, wipe, one_each, once, scope, winner, per_hit,
    target: HouseRules(
        triples=tri, after_mini_bunco=mini, after_bell=bell, tie_break=tie,
        roll_off_order=order, round_end=end, bunco_effect=effect, wipeout=wipe,
        at_least_one_roll_each=one_each, at_least_once=once, target_reached_by=scope,
        head_table_winner=winner, points_per_hit=per_hit, team_target=target,
        individual_target=target, sets=1,
    ),
    st.sampled_from(Triples), st.sampled_from(AfterMini), st.sampled_from(AfterBell),
    st.sampled_from(TieBreak), st.sampled_from(RollOffOrder), st.sampled_from(RoundEnd),
    st.sampled_from(BuncoEffect), st.booleans(), st.booleans(), st.sampled_from(AtLeastOnce),
    st.sampled_from(TargetScope), st.sampled_from(HeadTableWinner),
    st.sampled_from(PointsPerHit), st.integers(3, 30),
)

table_specs = st.one_of(
    # a team table of four, perhaps with a ghost (never two partners)
    st.tuples(st.sampled_from([(), (0,), (1,), (0, 1), (2, 3)])).map(
        lambda g: TableSpec(1, tuple(Seat(n, ghost=i in g[0]) for i, n in enumerate("ABCD")))),
    # players on their own, two to four
    st.integers(2, 4).map(
        lambda n: TableSpec(1, tuple(Seat(c) for c in "ABCD"[:n]), individuals=True)),
)
dice_index = st.one_of(st.integers(0, 215), st.sampled_from(TRIPLES))


@settings(max_examples=300, deadline=None)
@given(any_rules, table_specs, st.integers(1, 6), st.booleans(), st.integers(0, 3),
       st.lists(dice_index, max_size=80), st.integers(0, 80))
def test_roll_many_leaves_a_table_as_rolling_each_roll_in_turn(rules, spec, round_number,
                                                                head, first, rolls, cut):
    first %= len(spec.seats)
    one = TableRound(rules, round_number, spec, is_head=head, first_seat=first)
    many = TableRound(rules, round_number, spec, is_head=head, first_seat=first)
    dice = [ALL_DICE[i] for i in rolls]
    rolled = 0
    for faces in dice:
        if one.phase is not Phase.PLAYING:
            break
        one.roll(faces)
        rolled += 1
    # In two calls, split anywhere: a run can be handed over in parts.
    cut = min(cut, len(dice))
    assert many.roll_many(dice[:cut]) + many.roll_many(iter(dice[cut:])) == rolled
    assert table_state(many) == table_state(one)
    assert many.bunco_log == one.bunco_log
    # The same rolls as bytes, each its index in ALL_DICE.
    indexed = TableRound(rules, round_number, spec, is_head=head, first_seat=first)
    assert indexed.roll_many(bytes(rolls[:cut])) + indexed.roll_many(bytes(rolls[cut:])) == rolled
    assert table_state(indexed) | {"_in_order": None} == table_state(one)
    assert indexed.bunco_log == one.bunco_log


def test_roll_many_stops_at_the_roll_that_ends_normal_play_and_leaves_the_rest():
    t = TableRound(PRESETS["clockwise"], 1, TableSpec(1, tuple(Seat(c) for c in "ABCD")),
                   is_head=True)
    rolls = iter([(1, 1, 1), (2, 3, 5), (2, 3, 5)])  # A's bunco: 21, the head table rings
    assert t.roll_many(rolls) == 1
    assert list(rolls) == [(2, 3, 5), (2, 3, 5)]
    assert t.phase is Phase.FINISHING and t.rolls == 1
    assert t.roll_many([(2, 3, 5)]) == 0  # after the bell every roll is owed: one at a time


def test_roll_many_refuses_what_is_not_dice_like_roll_and_keeps_what_was_rolled():
    t = TableRound(PRESETS["clockwise"], 1, TableSpec(1, tuple(Seat(c) for c in "ABCD")),
                   is_head=False)
    with pytest.raises(IllegalMove, match="7 is not a die face"):
        t.roll_many([(2, 3, 5), (1, 2, 3), (7, 1, 1)])  # a miss (A), a hit (B), not dice
    assert (t.rolls, t.current, t.team_scores) == (2, 1, [0, 1])
    with pytest.raises(IllegalMove, match="0-215"):
        t.roll_many(bytes([0, 216]))
    assert t.rolls == 3
    with pytest.raises(IllegalMove, match="tuple of three faces"):
        t.roll_many([[1, 2, 3]])
    assert t.rolls == 3


# -- 2. table by table is pass by pass, roll for roll -------------------------------------------

ringing_rules = any_rules.filter(lambda r: r.bunco_effect is not BuncoEffect.ENDS_ROUND_EVERYWHERE)


@st.composite
def nights(draw):
    rules = draw(ringing_rules)
    if draw(st.booleans()):
        rules = rules.replace(layout=Layout.WM_LAYOUTS)  # tables of two and three on their own
    count = draw(st.integers(4, 23))
    rotation = draw(st.sampled_from([Rotation.CIRCULAR, Rotation.LADDER_DROP_ONE,
                                     Rotation.LADDER_HEAD_TO_BOTTOM]))
    pods = draw(st.sampled_from([0, 2, 3]))  # one room, or pods of two or three tables
    return rules.replace(rotation=rotation, pod_tables=pods), count


@settings(max_examples=150, deadline=None)
@given(nights(), st.integers(0, 10**6), st.sampled_from([1, 4, 30]), st.integers(1, 40))
def test_playing_table_by_table_gives_the_round_playing_pass_by_pass_gives(night_setup, seed,
                                                                             load, horn):
    rules, count = night_setup
    timer = horn if rules.round_end is RoundEnd.TIMER else None
    night = Night.seat(rules, sample_names(count), random.Random(seed))
    for number in range(6):
        passes, tables = RoomRound(rules, number + 1, night.tables), night.start_round()
        dice = ScriptedDice(seed * 7 + number, load)
        expected = _play_in_passes(passes, dice, timer)
        assert _play_table_by_table(tables, dice, timer) == expected
        assert room_state(tables) == room_state(passes)
        night.finish_round(tables)


def test_a_round_half_played_is_played_on_the_same_either_way():
    rules = PRESETS["head-table"]
    night = Night.seat(rules, sample_names(16), random.Random(3))
    rooms = [night.start_round(), night.start_round()]
    for room in rooms:  # some rolls already in: passes count from here
        room.roll(1, (2, 3, 5))
        room.roll(2, (1, 1, 2))
    dice = ScriptedDice(11, load=4)
    assert _play_table_by_table(rooms[0], dice, None) == _play_in_passes(rooms[1], dice, None)
    assert room_state(rooms[0]) == room_state(rooms[1])


# -- 3. random dice -----------------------------------------------------------------------------

def chi_square_limit(df: int, z: float = 4.753) -> float:
    """The chi-square value exceeded with chance about 1e-6 (z = 4.753; Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_random_dice_drawn_in_bulk_are_uniform_over_the_216_rolls():
    dice = RandomDice(random.Random(2024))
    drawn = bytearray()
    while len(drawn) < 216 * 300:
        drawn += dice.rolls(0, 0, 97)
    assert max(drawn) < 216
    counts = [drawn.count(i) for i in range(216)]
    expected = len(drawn) / 216
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < chi_square_limit(215)
    # Neighbours independent: the pairs of consecutive rolls' first die, 36 cells.
    pairs = [0] * 36
    for a, b in zip(drawn, drawn[1:], strict=False):
        pairs[(a // 36) * 6 + b // 36] += 1
    expected = (len(drawn) - 1) / 36
    assert sum((c - expected) ** 2 / expected for c in pairs) < chi_square_limit(35)


def sample_rounds(rules, play, rounds: int, players: int = 20) -> dict[str, list[float]]:
    """Per round: passes, rolls per table, buncos per table, points per table, and whether
    the head table's first team won."""
    out: dict[str, list[float]] = {"passes": [], "rolls": [], "buncos": [], "points": [],
                                   "head_team_0": []}
    names = sample_names(players)
    for seed in range(rounds):
        rng = random.Random(seed)
        tables = Night.seat(rules, names, rng).tables
        room = RoomRound(rules, 1 + seed % 6, tables)
        out["passes"].append(play(room, rng, seconds_per_roll=6))
        n = len(room.tables)
        out["rolls"].append(sum(t.rolls for t in room.tables) / n)
        out["buncos"].append(len(room.bunco_log) / n)
        out["points"].append(sum(sum(t.team_scores) for t in room.tables) / n)
        out["head_team_0"].append(room.tables[0].winner_team == 0)
    return out


def test_the_fast_way_and_the_plain_way_play_the_same_game_on_random_dice():
    """Over 800 rounds of each preset that plays table by table, the means of the fast and
    the plain way agree within 5 standard errors of their difference (with these fixed seeds
    the test passes or fails the same every time; for a fair comparison, a false alarm has a
    chance below one in a million per figure). The number of passes is the round's length, so
    this also checks that ``round_seconds`` keeps its meaning."""
    for rules_id in ("fuzzy-die", "head-table", "ladder", "clockwise", "babz"):
        rules = PRESETS[rules_id]
        assert rules.bunco_effect is not BuncoEffect.ENDS_ROUND_EVERYWHERE
        fast = sample_rounds(rules, play_round, 800)
        plain = sample_rounds(rules, play_round_roll_by_roll, 800)
        for figure in fast:
            a, b = fast[figure], plain[figure]
            spread = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
            gap = abs(statistics.fmean(a) - statistics.fmean(b))
            assert gap <= 5 * spread, (rules_id, figure, statistics.fmean(a), statistics.fmean(b))


def test_rules_where_a_bunco_rings_everywhere_are_played_pass_by_pass():
    rules = PRESETS["winning-moves"]
    names = sample_names(20)
    a, b = (RoomRound(rules, 2, Night.seat(rules, names, random.Random(5)).tables)
            for _ in range(2))
    assert play_round(a, random.Random(9), seconds_per_roll=6) == play_round_roll_by_roll(
        b, random.Random(9), seconds_per_roll=6)
    assert room_state(a) == room_state(b)


def test_a_simulated_night_leaves_the_cycle_collector_as_it_found_it():
    import gc

    from scoring import simulate_night
    from scoring.simulate import cyclic_gc_paused

    rules = PRESETS["clockwise"]
    assert gc.isenabled()
    simulate_night(rules, sample_names(12), random.Random(1))
    assert gc.isenabled()
    with pytest.raises(RuntimeError), cyclic_gc_paused():
        assert not gc.isenabled()
        raise RuntimeError("a night that fails half way")
    assert gc.isenabled()
    gc.disable()
    try:
        simulate_night(rules, sample_names(12), random.Random(1))
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()


def test_a_simulated_night_makes_no_reference_cycles_for_the_collector_to_find():
    """Why the collector may rest while a night is simulated: nothing is left for it."""
    import gc

    from scoring import simulate_night

    gc.collect()
    gc.disable()
    try:
        for rules_id, rules in PRESETS.items():
            low, high = rules.player_limits
            sim = simulate_night(rules, sample_names(min(high, 13)), random.Random(low))
            del sim
            assert gc.collect() == 0, rules_id
    finally:
        gc.enable()
