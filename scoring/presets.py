"""One ``HouseRules`` per written rule set in the seeds, under a stable id.

Each preset plays its source exactly; see docs/rules.md for the reading of each seed.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from .prize_rules import AwardTies, PrizeRollOff, award
from .rules import (
    AfterBell,
    AfterMini,
    AtLeastOnce,
    BuncoEffect,
    FirstRoller,
    HeadTableWinner,
    HouseRules,
    Layout,
    PointsPerHit,
    RollOffOrder,
    Rotation,
    RoundEnd,
    Seating,
    TargetScope,
    TieBreak,
    Triples,
)

_WINNING_MOVES = HouseRules(
    name="Winning Moves Party Bunco",
    bunco_effect=BuncoEffect.ENDS_ROUND_EVERYWHERE,
    triples=Triples.LOW_HIGH,
    after_mini_bunco=AfterMini.CONTINUE,
    team_target=21,
    individual_target=11,  # individuals at a party of 5-11
    one_table_target=21,  # One Table Bunco (2-4 players); 11 for the quick game
    round_end=RoundEnd.EACH_TABLE,
    after_bell=AfterBell.STOP,  # a true bunco ends the round at every table at once
    tie_break=TieBreak.ROLL_OFF,
    roll_off_points=5,
    roll_off_order=RollOffOrder.HIGH_TOTAL_FIRST,
    rotation=Rotation.CIRCULAR,
    layout=Layout.WM_LAYOUTS,  # 2-4 players: One Table Bunco
    first_roller=FirstRoller.LEFT_OF_WINNER_AT_ONE_TABLE,
    sets=1,  # "For a longer party, take a break ... and then play a second Set."
    # "The winner of the Set is the player with the most "W's."" Ties: most B's among the
    # tied, then a roll-off to 5 points.
    set_awards=(award("most_wins", prize="Set winner", then_by=["buncos"]),),
    award_ties=AwardTies.ROLL_OFF,
    prize_roll_off=PrizeRollOff.TO_POINTS,
)

_PRESETS = {
    # Seed 000, the group's own rules: play stops the moment the head table rings.
    "fuzzy-die": HouseRules(
        name="Fuzzy die (group rules)",
        after_mini_bunco=AfterMini.CONTINUE_WITH_HIT,
        mini_word="funko",  # "a "funko" which is 3-of-a-kind, of any other number"
        after_bell=AfterBell.STOP,
        tie_break=TieBreak.EXTRA_TURN_EACH,  # the seed is silent on ties
        rotation=Rotation.CIRCULAR,
        fuzzy_die=True,
        sets=4,
        awards=(
            award("most_buncos", prize="Grand prize"),
            award("most_wins", prize="Second prize"),
            award("most_losses", prize="Third prize"),
        ),
    ),
    # Seed 000, Winning Moves Party Bunco and the layouts for 5-11 players.
    "winning-moves": _WINNING_MOVES,
    # Seed 000, Winning Moves One Table Bunco for 2-4 players: the same scoring, individuals.
    "winning-moves-solo": _WINNING_MOVES.replace(
        name="Winning Moves One Table Bunco",
        individual_target=21,  # 11 for the quick game
        rotation=Rotation.NONE,
        layout=Layout.ONE_TABLE,
        first_roller=FirstRoller.LEFT_OF_LAST_WINNER,
    ),
    # Seed 001.
    "head-table": HouseRules(
        name="Head table rings",
        bunco_must_be_called=True,  # "the player has to yell it out to get credit for it"
        after_bell=AfterBell.FINISH_ROLL,
        at_least_one_roll_each=True,  # "Each player gets a chance to roll at least once"
        at_least_once=AtLeastOnce.TURN,
        tie_break=TieBreak.EXTRA_TURN_EACH,
        rotation=Rotation.CIRCULAR,
        sets=4,
    ),
    # Seed 002.
    "ladder": HouseRules(
        name="Ladder (round number per hit)",
        points_per_hit=PointsPerHit.ROUND_NUMBER,
        after_bell=AfterBell.FINISH_TURN,
        tie_break=TieBreak.ONE_DIE,
        rotation=Rotation.LADDER_DROP_ONE,
        seating=Seating.STARRED_SHEETS,
        sets=4,
        awards=(award("most_buncos", prize="Winner"),),
    ),
    # Seed 003.
    "clockwise": HouseRules(
        name="Clockwise (losers walk)",
        mini_word="mini-bunco",  # "This is called a 'mini-BUNCO'"
        bunco_must_be_called=True,  # "has to yell it out to get credit for it"
        after_bell=AfterBell.FINISH_TURN,
        tie_break=TieBreak.FIRST_TO_HIT,
        rotation=Rotation.CIRCULAR,
        sets=1,
        awards=(
            award("most_wins", prize="Medal"),
            award("most_buncos", prize="Medal"),
            award("most_mini_buncos", prize="Medal"),
        ),
    ),
    # Seed 004.
    "babz": HouseRules(
        name="Babz (ghosts and the doormat)",
        mini_word="baby bunco",  # "A baby bunco, also known as a mini bunco"
        after_mini_bunco=AfterMini.END_TURN,
        target_reached_by=TargetScope.PLAYER,  # "until someone ... reaches 21 points"
        round_end=RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO,
        after_bell=AfterBell.STOP,  # "everyone continues playing until the head table hits
        # the gong": nothing lets a roller finish the turn, the head table's included
        head_table_winner=HeadTableWinner.TRIGGER_WINS,
        tie_break=TieBreak.EXTRA_TURN_EACH,
        rotation=Rotation.LADDER_HEAD_TO_BOTTOM,
        sets=2,
        awards=(
            award("most_buncos", 40),
            award("highest_points", 20),
            award("most_wins", 15),
            award("most_mini_buncos", 15),
            award("most_losses", 10),
            # "This will stay at the front door ... bring back the doormat": it travels.
            award("lowest_points", prize="Upside-down pineapple doormat", travels=True),
        ),
        # "we let them decide if they want a roll-off ... Or ... divvy up the prize money";
        # the doormat, a named prize, always goes to one person (lowest roll-off wins it).
        award_ties=AwardTies.ASK,
        # The doormat "will go home with the person who had the lowest score of the night":
        # a player who went home early does not (the host can change this).
        left_early_win_awards=False,
    ),
}

PRESETS = MappingProxyType(_PRESETS)

#: House choices the app makes that are no setting: the card marks them as it marks a setting.
#: ``ghosts``: ghosts fill a table (only seed 004 has them); ``ghost_takes_chair``: a ghost
#: takes the chair of one who goes home (no seed says); ``unwon_share``: a prize nobody wins
#: passes its money to the prize above (no seed says).
APP_CHOICES = frozenset({"ghosts", "ghost_takes_chair", "unwon_share"})

#: Where a preset's written rules are silent, the app chose; the "How we play tonight" card
#: says so ("House rule:"). Every preset: the standings' order, that late arrivals win no
#: prize, a ghost in the chair of one who goes home, an unwon prize's money. A setting the host
#: changed tonight is a house choice too (``house_choices``).
_SILENT_EVERYWHERE = frozenset({"late_arrivals_win_awards", "ghost_takes_chair",
                                "unwon_share"})
_SEEDS_SILENT = {
    # seed 000 names no tie rule, and no ghosts
    "fuzzy-die": {"tie_break", "prize_roll_off", "award_ties", "ghosts"},
    "winning-moves": {"ghosts"},  # seed 000's layouts stop at 12 players: no ghosts
    "winning-moves-solo": set(),
    "head-table": {"sets", "ghosts"},  # seed 001: six rounds a set, not how many sets
    # seed 002: no tie rule for the prize, and the winner has "the most buncos" or "the most
    # buncos and wins", "depending on the initial agreement"
    "ladder": {"prize_roll_off", "awards", "ghosts"},
    "clockwise": {"prize_roll_off", "ghosts"},  # seed 003: no tie rule for the medals
    "babz": {"left_early_win_awards"},  # seed 004: silent on who goes home early
}


def house_choices(preset_id: str, rules: HouseRules) -> frozenset[str]:
    """The settings of ``rules`` that are house choices, not what the written rules of the
    preset it started from say: where that write-up is silent, and whatever the host changed."""
    source = _PRESETS.get(preset_id)
    if source is None:
        return frozenset(f.name for f in dataclasses.fields(rules)) | APP_CHOICES
    changed = {f.name for f in dataclasses.fields(rules)
               if getattr(rules, f.name) != getattr(source, f.name) and f.name != "name"}
    return frozenset(_SILENT_EVERYWHERE | _SEEDS_SILENT.get(preset_id, set()) | changed)


def preset(preset_id: str) -> HouseRules:
    try:
        return PRESETS[preset_id]
    except KeyError:
        known = ", ".join(PRESETS)
        raise KeyError(f"unknown rules {preset_id!r}; choose one of: {known}") from None
