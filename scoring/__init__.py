"""The rules of Bunco in pure Python: no Django, no I/O, no clock.

Public contract used by other tools::

    from scoring import PRESETS, score_roll
    score_roll(PRESETS["babz"], 4, (4, 4, 2)).points  # -> 2
"""

from .awards import AwardResult, decide_awards, pot_for, roll_off, split_evenly, split_pot
from .errors import IllegalMove, RulesError
from .explain import how_we_play
from .night import (
    ROUNDS_PER_SET,
    Night,
    PlayerStats,
    RoundRecord,
    TablePlay,
    placed,
    ranked,
    round_of,
    standing_key,
)
from .presets import PRESETS, house_choices, preset
from .prize_rules import Award, Category, award
from .roll import RollScore, roll_table, score_roll, turn_keeping_rolls
from .rotation import TableOutcome, first_seats, move_plan, rotate
from .round import RoomRound
from .rules import HouseRules
from .seating import seat_night, table_sizes
from .simulate import night_summary, night_to_json, sample_names, simulate_night
from .table import TableRound
from .table_spec import BellDuty, Phase, Seat, TableSpec, TableView

__all__ = [
    "Award", "AwardResult", "BellDuty", "Category", "HouseRules", "IllegalMove", "Night",
    "PRESETS", "Phase",
    "PlayerStats", "ROUNDS_PER_SET", "RollScore", "RoomRound", "RoundRecord", "RulesError", "Seat",
    "TableOutcome", "TablePlay", "TableRound", "TableSpec", "TableView", "award", "decide_awards",
    "first_seats", "house_choices", "how_we_play", "move_plan", "night_summary",
    "night_to_json", "pot_for",
    "placed", "preset", "ranked",
    "roll_off", "roll_table", "rotate", "round_of", "sample_names", "score_roll", "seat_night",
    "simulate_night", "split_evenly", "split_pot", "standing_key", "table_sizes",
    "turn_keeping_rolls",
]
