"""Scoring one throw of the three dice. Public contract: ``score_roll(rules, round, dice)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .errors import IllegalMove
from .rules import AfterMini, BuncoEffect, HouseRules, PointsPerHit, Triples

BUNCO = "bunco"
MINI_BUNCO = "mini_bunco"
LOW_BUNCO = "low_bunco"
HIGH_BUNCO = "high_bunco"
WIPEOUT = "wipeout"
HITS = "hits"
MISS = "miss"
UNCALLED = "uncalled"  # a bunco nobody called out, where the rules want it called: nothing

TRIPLE_KINDS = frozenset({MINI_BUNCO, LOW_BUNCO, HIGH_BUNCO})
ALL_DICE = tuple(product(range(1, 7), repeat=3))


@dataclass(frozen=True, slots=True)
class RollScore:
    """What one roll is worth. A wipeout scores 0 here; the table zeroes the team's round."""

    points: int
    kind: str
    keeps_turn: bool
    hits: int  # dice showing the target


def check_round(round_number: object) -> int:
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ValueError(f"round number must be a whole number 1-6, not {round_number!r}")
    if not 1 <= round_number <= 6:
        raise ValueError(f"round number must be 1-6, not {round_number}")
    return round_number


def check_dice(dice: object, count: int = 3) -> tuple[int, ...]:
    """The dice as a tuple, or an ``IllegalMove`` saying what is wrong with them: dice come
    from a tap, so this is the game refusing a roll, which the tapper reads."""
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
        raise IllegalMove(f"dice must be a sequence of {count} numbers 1-6, not {dice!r}")
    if len(dice) != count:
        raise IllegalMove(f"a roll has {count} dice, not {len(dice)}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise IllegalMove(f"each die shows 1-6; {face!r} is not a die face")
    return tuple(dice)


def score_roll(rules: HouseRules, round_number: int, dice: Sequence[int]) -> RollScore:
    """Score one roll of three dice in round ``round_number`` (the target) under ``rules``."""
    return roll_table(rules, check_round(round_number))[check_dice(dice)]


@lru_cache(maxsize=256)
def roll_table(rules: HouseRules, round_number: int) -> dict[tuple[int, ...], RollScore]:
    """Every one of the 216 rolls scored once; tables look rolls up here while playing."""
    return {dice: _score(rules, round_number, dice) for dice in ALL_DICE}


def _score(rules: HouseRules, target: int, dice: tuple[int, ...]) -> RollScore:
    a, b, c = dice
    hits = (a == target) + (b == target) + (c == target)
    if hits == 3:
        keeps = rules.bunco_effect is not BuncoEffect.ENDS_ROUND_EVERYWHERE
        return RollScore(rules.bunco_points, BUNCO, keeps, 3)
    if a == b == c:
        if rules.wipeout and a == 1:
            return RollScore(0, WIPEOUT, False, 0)
        if rules.triples is not Triples.NONE:
            # A triple of another number holds no target die, so "continue only with a hit"
            # ends the turn.
            keeps = rules.after_mini_bunco is AfterMini.CONTINUE
            if rules.triples is Triples.MINI:
                return RollScore(rules.mini_bunco_points, MINI_BUNCO, keeps, 0)
            if a < target:
                return RollScore(rules.low_bunco_points, LOW_BUNCO, keeps, 0)
            return RollScore(rules.high_bunco_points, HIGH_BUNCO, keeps, 0)
    if hits == 0:
        return RollScore(0, MISS, False, 0)
    per_hit = target if rules.points_per_hit is PointsPerHit.ROUND_NUMBER else 1
    return RollScore(hits * per_hit, HITS, True, hits)


@lru_cache(maxsize=256)
def scores_in_order(rules: HouseRules, round_number: int) -> tuple[RollScore, ...]:
    """``roll_table``'s scores in ``ALL_DICE`` order: a roll given as its index in ALL_DICE
    (how the simulator draws rolls, a byte each) is scored by indexing."""
    table = roll_table(rules, round_number)
    return tuple(table[dice] for dice in ALL_DICE)


@lru_cache(maxsize=256)
def turn_keeping_rolls(rules: HouseRules, round_number: int) -> frozenset[str]:
    """The rolls that keep the roller's turn in normal play, as sorted faces (``"144"``): what
    a phone needs to show whose turn comes next while its taps wait to be sent."""
    return frozenset("".join(map(str, sorted(dice))) for dice, score
                     in roll_table(rules, check_round(round_number)).items() if score.keeps_turn)


QUICK_KINDS = ("miss", "hit1", "hit2", "mini", "low", "high", "bunco", "uncalled", "wipeout")


def uncalled(score: RollScore) -> RollScore:
    """A bunco nobody called out, under rules that want it called: no points, no bunco, and
    the turn goes on (the dice still show the round's number)."""
    return RollScore(0, UNCALLED, True, score.hits) if score.kind == BUNCO else score

#: A one-die tie-break's buttons, one per face: ``die4`` is a single die showing 4.
DIE_BUTTONS: dict[str, int] = {f"die{n}": n for n in range(1, 7)}

FACES_ONLY = ("this roll decides who starts the roll-off by its total: tap the three dice as "
              "they fell, not a quick button")


def tapped_dice(rules: HouseRules, round_number: int, *, dice: Sequence[int] | None = None,
                quick: str | None = None, count: int = 3,
                quick_allowed: bool = True) -> tuple[int, ...]:
    """The dice a tap stands for: the faces tapped, a one-die button's face, or a quick
    button's made-up dice (only where ``quick_allowed``: a roll whose total counts takes the
    faces only). Raises IllegalMove, which the tapper reads, for anything else."""
    rolled = dice
    if quick is not None:
        if quick in DIE_BUTTONS:
            rolled = (DIE_BUTTONS[quick],)
        elif not quick_allowed:
            raise IllegalMove(FACES_ONLY)
        else:
            rolled = dice_for(rules, round_number, quick)
    if rolled is None:
        raise IllegalMove("tap three dice or a button")
    return check_dice(list(rolled), count=count)


def dice_for(rules: HouseRules, round_number: int, quick: str) -> tuple[int, int, int]:
    """Dice that stand for a quick button (``miss``, ``hit1``, ``hit2``, ``mini``, ``low``,
    ``high``, ``bunco``, ``wipeout``), so a scorekeeper can tap one button instead of three
    faces and the engine still scores real dice. Raises IllegalMove where the button does
    not exist under these rules or in this round (a tap the game refuses)."""
    target = check_round(round_number)
    others = [f for f in range(1, 7) if f != target]
    if quick == "miss":
        return (others[0], others[1], others[2])
    if quick == "hit1":
        return (target, others[0], others[1])
    if quick == "hit2":
        return (target, target, others[0])
    if quick == "bunco":
        return (target, target, target)
    if quick == "uncalled":
        if not rules.bunco_must_be_called:
            raise IllegalMove("tonight a bunco counts whether or not it is called out")
        return (target, target, target)
    if quick == "wipeout":
        if not rules.wipeout or target == 1:
            raise IllegalMove("there is no wipeout under these rules in this round")
        return (1, 1, 1)
    if quick in ("mini", "low", "high"):
        faces = [f for f in others if not (rules.wipeout and f == 1)]
        if rules.triples is Triples.NONE:
            raise IllegalMove("these rules score no mini buncos")
        if (quick == "mini") != (rules.triples is Triples.MINI):
            raise IllegalMove(f"these rules have no {quick} bunco")
        if quick == "low":
            faces = [f for f in faces if f < target]
        elif quick == "high":
            faces = [f for f in faces if f > target]
        if not faces:
            raise IllegalMove(f"there is no {quick} bunco in round {target}")
        return (faces[0], faces[0], faces[0])
    raise IllegalMove(f"unknown quick button {quick!r}")
