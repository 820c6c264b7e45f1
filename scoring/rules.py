"""House rules: every dimension of Bunco that groups play differently, as one immutable value.

A night stores its ``HouseRules`` as JSON, so a finished night always replays under the rules
it was played with. ``HouseRules.from_dict`` validates and names the bad field. The prizes'
settings (``Award``, its categories and ties) are ``prize_rules.py``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import RulesError, choice
from .prize_rules import Award, AwardTies, PrizeRollOff, check_awards, read_award


class PointsPerHit(StrEnum):
    ONE = "one"  # 1 point for each die showing the target
    ROUND_NUMBER = "round_number"  # seed 002: two 4s in round 4 score 8


class BuncoEffect(StrEnum):
    TURN_CONTINUES = "turn_continues"
    ENDS_ROUND_EVERYWHERE = "ends_round_everywhere"  # Winning Moves: the round ends at all tables


class Triples(StrEnum):
    MINI = "mini"  # any other three of a kind: mini (baby) bunco
    LOW_HIGH = "low_high"  # Winning Moves: low bunco below the target, high bunco above
    NONE = "none"  # other triples score nothing special


class AfterMini(StrEnum):
    CONTINUE = "continue"
    END_TURN = "end_turn"  # seed 004: a baby bunco ends the turn
    # Seed 000's group reads literally "rolls until she no longer rolls the target"; a triple of
    # another number holds no target die, so it ends the turn exactly like END_TURN.
    CONTINUE_WITH_HIT = "continue_with_hit"


class RoundEnd(StrEnum):
    HEAD_TABLE_TARGET = "head_table_target"
    HEAD_TABLE_TARGET_OR_BUNCO = "head_table_target_or_bunco"  # seed 004
    EACH_TABLE = "each_table"  # Winning Moves: each table plays to its own winner
    TIMER = "timer"  # large events: only the host's bell (horn) ends the round


class AfterBell(StrEnum):
    STOP = "stop"  # play stops at once
    FINISH_ROLL = "finish_roll"  # the player rolling finishes that roll
    FINISH_TURN = "finish_turn"  # the player rolling finishes the whole turn


class TargetScope(StrEnum):
    """Whose points reach the target that ends a round."""

    TEAM = "team"  # the team's combined tally (most groups)
    PLAYER = "player"  # seed 004: one player's own tally ("until someone ... reaches 21")


class AtLeastOnce(StrEnum):
    """What "everyone gets a chance to roll at least once" gives a player who has not rolled."""

    ROLL = "roll"  # one roll
    TURN = "turn"  # a whole turn: rolling on while scoring (seed 001)


class RollOffOrder(StrEnum):
    """Who starts a roll-off (the table tie-break and a prize's roll-off to points)."""

    IN_TURN = "in_turn"  # the next tied player in seat order
    HIGH_TOTAL_FIRST = "high_total_first"  # WM: all roll three dice, high total starts (unscored)



class HeadTableWinner(StrEnum):
    HIGHER_TOTAL = "higher_total"
    TRIGGER_WINS = "trigger_wins"  # seed 004: the team that ended the round wins the head table


class TieBreak(StrEnum):
    EXTRA_TURN_EACH = "extra_turn_each"  # 001 / 004: one more lap, then most points
    ONE_DIE = "one_die"  # 002: one die per team, highest wins
    FIRST_TO_HIT = "first_to_hit"  # 003: keep rolling, first team to roll the target wins
    ROLL_OFF = "roll_off"  # Winning Moves: roll off to ``roll_off_points``


class Rotation(StrEnum):
    CIRCULAR = "circular"  # losers walk to the next table, last table's losers to the head
    LADDER_DROP_ONE = "ladder_drop_one"  # seed 002
    LADDER_HEAD_TO_BOTTOM = "ladder_head_to_bottom"  # seed 004
    NONE = "none"  # nobody changes table


class Partners(StrEnum):
    # Every seed asks for a new partner each round ("never the same partner twice running");
    # the engine guarantees it by always pairing a staying player with an arriving one.
    CHANGE_EVERY_ROUND = "change_every_round"
    FIXED = "fixed"  # teams stay together all night


class Layout(StrEnum):
    TEAMS_WITH_GHOSTS = "teams_with_ghosts"  # tables of four; ghosts fill the empty seats
    WM_LAYOUTS = "wm_layouts"  # Winning Moves layouts for 5-11 players, ghosts beyond
    ONE_TABLE = "one_table"  # Winning Moves One Table Bunco: 2-4 individuals


class FirstRoller(StrEnum):
    SCOREKEEPER = "scorekeeper"
    LEFT_OF_LAST_WINNER = "left_of_last_winner"
    # Winning Moves: the scorekeeper at a party; at One Table Bunco the player left of the
    # round's winner.
    LEFT_OF_WINNER_AT_ONE_TABLE = "left_of_winner_at_one_table"


class Seating(StrEnum):
    RANDOM = "random"
    STARRED_SHEETS = "starred_sheets"  # seed 002: four starred sheets start at the head table



MAX_PLAYERS = 2000
PLAYER_LIMITS = {Layout.ONE_TABLE: (2, 4), Layout.WM_LAYOUTS: (2, MAX_PLAYERS)}
DEFAULT_PLAYER_LIMITS = (4, MAX_PLAYERS)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every rule a Bunco group can vary. The defaults are the common "standard" game."""

    name: str = "Custom rules"
    points_per_hit: PointsPerHit = PointsPerHit.ONE
    bunco_points: int = 21
    # Seeds 001 and 003: "the player has to yell it out to get credit for it": a bunco nobody
    # called earns nothing (the scorekeeper taps "Bunco, not called"), and the turn goes on.
    bunco_must_be_called: bool = False
    bunco_effect: BuncoEffect = BuncoEffect.TURN_CONTINUES
    triples: Triples = Triples.MINI
    mini_bunco_points: int = 5
    mini_word: str = ""  # the group's own word for a baby bunco (seed 000: "funko")
    low_bunco_points: int = 7
    high_bunco_points: int = 5
    after_mini_bunco: AfterMini = AfterMini.CONTINUE
    wipeout: bool = False
    team_target: int = 21
    individual_target: int = 11
    one_table_target: int = 0  # a night of one table of players on their own; 0: as above
    target_reached_by: TargetScope = TargetScope.TEAM
    round_end: RoundEnd = RoundEnd.HEAD_TABLE_TARGET
    after_bell: AfterBell = AfterBell.FINISH_TURN
    at_least_one_roll_each: bool = False
    at_least_once: AtLeastOnce = AtLeastOnce.ROLL
    head_table_winner: HeadTableWinner = HeadTableWinner.HIGHER_TOTAL
    tie_break: TieBreak = TieBreak.EXTRA_TURN_EACH
    roll_off_points: int = 5
    roll_off_order: RollOffOrder = RollOffOrder.IN_TURN
    rotation: Rotation = Rotation.CIRCULAR
    partners: Partners = Partners.CHANGE_EVERY_ROUND
    layout: Layout = Layout.TEAMS_WITH_GHOSTS
    first_roller: FirstRoller = FirstRoller.SCOREKEEPER
    seating: Seating = Seating.RANDOM
    # Every seed: "a player at the head table rings the bell" to start each round. Its phone
    # can (the host's button always can). Rules saved before this setting: the host only.
    head_table_starts: bool = True
    fuzzy_die: bool = False
    sets: int = 4
    awards: tuple[Award, ...] = ()
    award_ties: AwardTies = AwardTies.SPLIT
    one_prize_per_person: bool = False
    prize_roll_off: PrizeRollOff = PrizeRollOff.HIGH_TOTAL
    left_early_win_awards: bool = True  # players who went home early can win awards
    # Players who came after the first round was played (they missed rounds) can win awards.
    # Off for a new night: a doormat for "lowest score" must not go to the guest who played 2
    # of 6 rounds. Rules saved before this setting existed keep it on (``_SAVED_BEFORE``).
    late_arrivals_win_awards: bool = False
    set_awards: tuple[Award, ...] = ()  # decided for each set on its own (WM: the set winner)
    # The clock of a big event: a horn ends play after ``play_seconds`` at every table (0: no
    # clock), and the next round starts by itself ``move_seconds`` after the horn (0: at the
    # host's bell).
    play_seconds: int = 0
    move_seconds: int = 0
    # Pods (large events): the room splits into pods of this many tables, each with its own
    # head table and bell; players move only within their pod; prizes go over the whole room.
    # 0: one room, one head table.
    pod_tables: int = 0

    def __post_init__(self) -> None:
        # Accept plain strings for the enumerated dimensions (HouseRules(rotation="none")).
        for f in dataclasses.fields(self):
            default, value = f.default, getattr(self, f.name)
            if isinstance(default, StrEnum) and not isinstance(value, type(default)):
                object.__setattr__(self, f.name, choice(type(default), f.name, value))
        for name in _AWARD_LISTS:
            if not isinstance(getattr(self, name), tuple):
                object.__setattr__(self, name, _coerce(_FIELDS[name], getattr(self, name)))
        _validate(self)

    # -- derived facts ---------------------------------------------------------------------

    @property
    def pays_money(self) -> bool:
        """Whether any of the night's prizes is a share of the pot (named prizes pay none)."""
        return any(a.share_percent is not None for a in self.awards)

    @property
    def player_limits(self) -> tuple[int, int]:
        return PLAYER_LIMITS.get(self.layout, DEFAULT_PLAYER_LIMITS)

    def check_player_count(self, count: int) -> None:
        low, high = self.player_limits
        if not low <= count <= high:
            raise RulesError(
                "players", f"these rules seat {low} to {high} players, not {count}"
            )

    def replace(self, **changes: Any) -> HouseRules:
        """A copy with some dimensions changed (validated like any other value)."""
        return HouseRules.from_dict({**self.to_dict(), **changes})

    # -- serialisation ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in _AWARD_LISTS:
                value = [a.to_dict() for a in value]
            elif isinstance(value, StrEnum):
                value = str(value)
            out[f.name] = value
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> HouseRules:
        if not isinstance(data, dict):
            raise RulesError("rules", "must be a JSON object")
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RulesError(unknown[0], "is not a house-rules setting")
        kwargs = {name: _coerce(known[name], value) for name, value in data.items()}
        return cls(**{**_SAVED_BEFORE, **kwargs})

    @classmethod
    def from_json(cls, text: str) -> HouseRules:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError("rules", f"is not valid JSON ({exc.msg})") from None
        return cls.from_dict(data)


# -- validation ------------------------------------------------------------------------------

INT_BOUNDS = {  # each whole-number setting: (lowest, highest)
    "bunco_points": (1, 100),
    "mini_bunco_points": (0, 50),
    "low_bunco_points": (0, 50),
    "high_bunco_points": (0, 50),
    "team_target": (1, 200),
    "individual_target": (1, 200),
    "roll_off_points": (1, 50),
    "one_table_target": (0, 200),
    "sets": (1, 10),
    "play_seconds": (0, 3600),
    "move_seconds": (0, 3600),
    "pod_tables": (0, 500),
}


def _coerce(f: dataclasses.Field, value: Any) -> Any:
    name = f.name
    default = f.default
    if name in _AWARD_LISTS:
        if not isinstance(value, list | tuple):
            raise RulesError(name, "must be a list")
        return tuple(read_award(i, item, name) for i, item in enumerate(value))
    if isinstance(default, StrEnum):
        return choice(type(default), name, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RulesError(name, "must be true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(name, "must be a whole number")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise RulesError(name, "must be text")
        return value
    return value


def _validate(rules: HouseRules) -> None:
    if not isinstance(rules.name, str) or not rules.name.strip():
        raise RulesError("name", "must not be empty")
    for name in ("wipeout", "at_least_one_roll_each", "fuzzy_die", "one_prize_per_person",
                 "left_early_win_awards", "late_arrivals_win_awards", "head_table_starts",
                 "bunco_must_be_called"):
        if not isinstance(getattr(rules, name), bool):
            raise RulesError(name, "must be true or false")
    if not rules.name.strip():
        raise RulesError("name", "must not be empty")
    if len(rules.name) > 80:
        raise RulesError("name", "must be at most 80 characters")
    letters = rules.mini_word.replace(" ", "").replace("-", "")
    if len(rules.mini_word) > 30 or (rules.mini_word and not letters.isalpha()):
        raise RulesError("mini_word", "must be a word of at most 30 letters")
    for name, (low, high) in INT_BOUNDS.items():
        value = getattr(rules, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(name, "must be a whole number")
        if not low <= value <= high:
            raise RulesError(name, f"must be between {low} and {high}, not {value}")
    if rules.pod_tables == 1:
        raise RulesError("pod_tables", "a pod has at least 2 tables (0: one room, no pods)")
    check_awards(rules.awards)
    check_awards(rules.set_awards, "set_awards")



__all__ = [
    "AfterBell", "AfterMini", "AtLeastOnce", "BuncoEffect", "FirstRoller", "HeadTableWinner",
    "HouseRules", "Layout", "MAX_PLAYERS", "Partners", "PointsPerHit", "RollOffOrder",
    "Rotation", "RoundEnd", "Seating", "TargetScope", "TieBreak", "Triples",
]


_AWARD_LISTS = ("awards", "set_awards")
# Settings whose default for a new night differs from how nights saved before the setting
# existed were played: rules read without the field keep the old behaviour, so a finished
# night replays to the same prizes.
_SAVED_BEFORE = {"late_arrivals_win_awards": True, "head_table_starts": False}
_FIELDS = {f.name: f for f in dataclasses.fields(HouseRules)}
