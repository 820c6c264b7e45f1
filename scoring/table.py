"""One table's round as a state machine driven by rolls.

The table knows whose turn it is, the team and player tallies, when it rings the bell, how it
finishes after the bell, and the tie-break it plays through. It never looks at the clock or
rolls dice itself: every roll comes in from outside (a phone tap, or the simulator's Random).
What the screens ask of it (whose roll, the bell's duty, ``describe``) is in ``table_spec.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import IllegalMove
from .roll import (
    ALL_DICE,
    BUNCO,
    MISS,
    TRIPLE_KINDS,
    WIPEOUT,
    RollScore,
    check_dice,
    roll_table,
    scores_in_order,
    uncalled,
)
from .rules import (
    AfterBell,
    AtLeastOnce,
    BuncoEffect,
    HeadTableWinner,
    HouseRules,
    RoundEnd,
    TargetScope,
)
from .table_spec import Phase, TableQuestions, TableSpec, round_target, team_layout
from .tie_break import TieBreakPlay

# Enum members as module names: an enum member's lookup costs more than a global's, and the
# simulator asks these questions hundreds of thousands of times a night.
_FINISH_TURN = AfterBell.FINISH_TURN
_STOP_AT_BELL = AfterBell.STOP
_WHOLE_TURN = AtLeastOnce.TURN
_ENDS_ROUND_EVERYWHERE = BuncoEffect.ENDS_ROUND_EVERYWHERE
_TRIGGER_WINS = HeadTableWinner.TRIGGER_WINS
_DONE = Phase.DONE
_EXTRA_ROLLS = Phase.EXTRA_ROLLS
_FINISHING = Phase.FINISHING
_PLAYING = Phase.PLAYING
_TIE_BREAK = Phase.TIE_BREAK
_EACH_TABLE = RoundEnd.EACH_TABLE
_HEAD_TABLE_TARGET = RoundEnd.HEAD_TABLE_TARGET
_HEAD_TABLE_TARGET_OR_BUNCO = RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO
_BY_PLAYER = TargetScope.PLAYER


class TableRound(TableQuestions, TieBreakPlay):
    """The play of one round at one table."""

    def __init__(
        self,
        rules: HouseRules,
        round_number: int,
        spec: TableSpec,
        *,
        is_head: bool,
        first_seat: int = 0,
        bunco_log: list | None = None,
        only_table: bool = False,
        scores: dict | None = None,
        scores_in_order: tuple[RollScore, ...] | None = None,
    ):
        if not 0 <= first_seat < len(spec.seats):
            raise IllegalMove(f"table {spec.number} has no seat {first_seat}")
        self.rules = rules
        self.round_number = round_number
        self.spec = spec
        self.is_head = is_head
        self.target = round_target(rules, spec, only_table)
        # ``scores``: the round's roll table, looked up once for all of a room's tables.
        self._scores = scores if scores is not None else roll_table(rules, round_number)
        self._in_order = scores_in_order  # the same, by index in ALL_DICE (asked for if None)
        self._n = n = len(spec.seats)
        self._team_of, team_count = team_layout(spec)
        self._ghost = [s.ghost for s in spec.seats]
        self.bunco_log = bunco_log if bunco_log is not None else []
        self._what_ends_play(rules, is_head, spec)
        self._start_tallies(n, team_count)
        self._start_play(n, first_seat)

    def _what_ends_play(self, rules: HouseRules, is_head: bool, spec: TableSpec) -> None:
        """What ends normal play at this table, worked out once for its every roll."""
        # Seed 004 keeps a tally per player: one player's own points reach the target.
        self._player_target = (
            rules.target_reached_by is _BY_PLAYER and not spec.individuals)
        self._self_ending = rules.round_end is _EACH_TABLE or (
            is_head and rules.round_end in (_HEAD_TABLE_TARGET, _HEAD_TABLE_TARGET_OR_BUNCO))
        self._bunco_everywhere = rules.bunco_effect is _ENDS_ROUND_EVERYWHERE
        # A real player's bunco ends the round: everywhere (Winning Moves) or, under seed 004,
        # at the head table. A ghost's roll counts as points only, so it ends a round by points.
        self._bunco_triggers = self._bunco_everywhere or (
            is_head and rules.round_end is _HEAD_TABLE_TARGET_OR_BUNCO)

    def _start_tallies(self, n: int, team_count: int) -> None:
        """Every team's and chair's counts at nought."""
        self.team_scores = [0] * team_count
        self.seat_points = [0] * n
        self.seat_buncos = [0] * n
        self.seat_minis = [0] * n
        self.seat_wipeouts = [0] * n

    def _start_play(self, n: int, first_seat: int) -> None:
        """Normal play from ``first_seat``: no bell yet, nobody has rolled, nothing decided."""
        self.current = first_seat
        self.phase = _PLAYING
        self.rolls = 0
        self.bell_rung = False
        self.rang_bell_for_room = False  # set when this table's roll ends the round elsewhere
        self.triggered_team: int | None = None
        self.triggered_seat: int | None = None  # whose roll ended normal play here
        self.trigger_was_bunco = False
        self.winner_team: int | None = None
        self.tie_teams: tuple[int, ...] = ()
        self._rolled = [False] * n
        self._queue: list[int] = []  # seats still to roll (extra rolls, laps, one-die)
        self._tie_values: dict[int, int] = {}
        self._roll_off_scores: dict[int, int] = {}
        self._order_totals: dict[int, int] = {}  # a roll-off's unscored rolls for who starts
        self.choosing_first = False  # a roll-off's tied players roll for who starts

    # -- commands ----------------------------------------------------------------------------

    def roll(self, dice: Sequence[int], seat: int | None = None,
             called: bool = True) -> RollScore | None:
        """The player whose turn it is rolled ``dice``; returns how it scored (None for a
        one-die tie-break roll, which scores nothing).

        ``seat`` names the chair the roll is credited to, as the score log recorded it. In
        normal play a recorded roll is credited to its chair even if the turn order would say
        otherwise (an earlier roll was taken back), and the turn moves on from that chair. After
        the bell, when every roll is owed by a particular chair, a roll for another chair does
        not fit and is refused. ``called`` False: a bunco nobody called out, which earns
        nothing where the rules want it called."""
        if seat is not None and seat != self.current:
            if not 0 <= seat < self._n:
                raise IllegalMove(f"table {self.spec.number} has no seat {seat + 1}")
            if self.phase is not _PLAYING:
                raise IllegalMove(
                    f"it is {self.spec.seats[self.current].name}'s roll at table "
                    f"{self.spec.number}, not {self.spec.seats[seat].name}'s")
            self.current = seat
        if self.phase is not _PLAYING:
            return self._roll_outside_play(dice)
        score = self._lookup(dice)
        if not called and self.rules.bunco_must_be_called:
            score = uncalled(score)
        return self._roll_in_play((score,))

    def roll_many(self, rolls: Iterable[tuple[int, int, int]] | bytes) -> int:
        """Roll each of ``rolls`` in turn while the table is in normal play: the same as
        calling ``roll`` with each of them for as long as ``phase`` is PLAYING, in one call.
        Stops at the roll that ends normal play (the target reached, a bunco that rings);
        returns how many were rolled. Nothing is rolled outside normal play, where every roll
        is owed by a particular chair. Each roll is a tuple of three faces, or, when ``rolls``
        is ``bytes``, a byte: its index in ``ALL_DICE`` (how the simulator draws them).
        Anything else is refused, with the rolls before it rolled."""
        if self.phase is not _PLAYING:
            return 0
        before = self.rolls
        if isinstance(rolls, bytes | bytearray):
            in_order = self._in_order
            if in_order is None:
                in_order = self._in_order = scores_in_order(self.rules, self.round_number)
            scores = map(in_order.__getitem__, rolls)
        else:
            scores = map(self._scores.__getitem__, rolls)
        try:
            self._roll_in_play(scores)
        except KeyError as exc:  # not a roll of three dice: say what is wrong with it
            check_dice(exc.args[0])
            raise
        except IndexError as exc:
            raise IllegalMove(f"a roll given as a byte is 0-{len(ALL_DICE) - 1}") from exc
        except TypeError as exc:
            raise IllegalMove("each roll must be a tuple of three faces 1-6") from exc
        return self.rolls - before

    def _roll_in_play(self, scores: Iterable[RollScore]) -> RollScore | None:
        """Normal play, roll after roll (each already scored), until the rolls run out or
        normal play ends; returns the last roll's score. The one place a roll in normal play
        is credited; kept flat (the turn and the roll count in local variables, written back
        whatever happens) because a simulated night makes half a million of them."""
        n = self._n
        rolled = self._rolled
        team_of = self._team_of
        ghosts = self._ghost
        team_scores = self.team_scores
        seat_points = self.seat_points
        self_ending = self._self_ending
        seat = self.current
        count = self.rolls
        score = None
        try:
            for score in scores:
                count += 1
                rolled[seat] = True
                kind = score.kind
                if kind == MISS:  # more than half of all rolls: nothing scored, nothing rings
                    seat = seat + 1 if seat + 1 < n else 0
                    continue
                ghost = ghosts[seat]
                if ghost or kind == WIPEOUT:
                    self._apply(seat, score)
                else:
                    points = score.points
                    team_scores[team_of[seat]] += points
                    seat_points[seat] += points
                    if kind == BUNCO:
                        self.seat_buncos[seat] += 1
                        self.bunco_log.append((self.spec.number, self.spec.seats[seat].name))
                    elif kind in TRIPLE_KINDS:
                        self.seat_minis[seat] += 1
                if (
                    self_ending
                    and (seat_points[seat] if self._player_target
                         else team_scores[team_of[seat]]) >= self.target
                ) or (kind == BUNCO and self._bunco_triggers and not ghost):
                    break  # this roll ends normal play
                if not score.keeps_turn:
                    seat = seat + 1 if seat + 1 < n else 0
            else:
                return score
        finally:
            self.current, self.rolls = seat, count
        self._normal_play_ended(seat, score)
        return score

    def _lookup(self, dice: Sequence[int]) -> RollScore:
        try:
            return self._scores[dice]
        except (KeyError, TypeError):  # a list, or not dice at all: validate for a clear error
            return self._scores[check_dice(dice)]

    def _roll_outside_play(self, dice: Sequence[int]) -> RollScore | None:
        phase = self.phase
        if phase is _DONE:
            raise IllegalMove(f"table {self.spec.number} has finished this round")
        if phase is _TIE_BREAK:
            return self._tie_roll(dice)
        score = self._lookup(dice)
        seat = self.current
        self.rolls += 1
        self._rolled[seat] = True
        self._apply(seat, score)
        if phase is _FINISHING:
            if self.rules.after_bell is not _FINISH_TURN or not score.keeps_turn:
                self._end_play()
        elif not (self.rules.at_least_once is _WHOLE_TURN and score.keeps_turn):
            # EXTRA_ROLLS: one roll (or one turn) each for those who had none
            self._next_in_queue()
        return score

    def bell(self) -> None:
        """The round-ending bell rang elsewhere (head table, a bunco, or the host's clock)."""
        if self.phase is not _PLAYING:
            return
        self.bell_rung = True
        if self.rules.after_bell is _STOP_AT_BELL:
            self._end_play()
        else:
            self.phase = _FINISHING

    def finish(self) -> None:
        """After the bell, the scorekeeper says nobody was mid-roll: stop finishing."""
        if self.phase is not _FINISHING:
            raise IllegalMove("only a table finishing after the bell can stop rolling")
        self._end_play()

    # -- internals ---------------------------------------------------------------------------

    def _apply(self, seat: int, score: RollScore) -> None:
        team = self._team_of[seat]
        if score.kind == WIPEOUT:
            # The roller's team loses its points for this round.
            self.team_scores[team] = 0
            for s in self.spec.teams[team]:
                self.seat_points[s] = 0
            if not self._ghost[seat]:
                self.seat_wipeouts[seat] += 1
            return
        self.team_scores[team] += score.points
        self.seat_points[seat] += score.points
        if self._ghost[seat]:
            return  # a ghost's roll scores for the team only (seed 004)
        if score.kind == BUNCO:
            self.seat_buncos[seat] += 1
            self.bunco_log.append((self.spec.number, self.spec.seats[seat].name))
        elif score.kind in TRIPLE_KINDS:
            self.seat_minis[seat] += 1

    def _normal_play_ended(self, seat: int, score: RollScore) -> None:
        """``seat``'s roll ended normal play: the bell rings, and the table finishes the turn
        (as the rules say after the bell) or ends its play."""
        self._trigger(seat, score)
        if self.rules.after_bell is _FINISH_TURN and score.keeps_turn:
            self.phase = _FINISHING
        else:
            self._end_play()

    def _trigger(self, seat: int, score: RollScore) -> None:
        self.bell_rung = True
        self.triggered_team = self._team_of[seat]
        self.triggered_seat = seat
        self.trigger_was_bunco = score.kind == BUNCO and not self._ghost[seat]
        head_rings = self.is_head and self.rules.round_end in (
            _HEAD_TABLE_TARGET,
            _HEAD_TABLE_TARGET_OR_BUNCO,
        )
        self.rang_bell_for_room = head_rings or (self._bunco_everywhere and self.trigger_was_bunco)

    def _end_play(self) -> None:
        if self.rules.at_least_one_roll_each and not all(self._rolled):
            self.phase = _EXTRA_ROLLS
            n = len(self._rolled)
            order = [(self.current + k) % n for k in range(1, n + 1)]
            self._queue = [s for s in order if not self._rolled[s]]
            self.current = self._queue[0]
            return
        self._decide(tuple(range(len(self.team_scores))))

    def _next_in_queue(self) -> None:
        self._queue.pop(0)
        if self._queue:
            self.current = self._queue[0]
        elif self.phase is _EXTRA_ROLLS:
            self._decide(tuple(range(len(self.team_scores))))
        else:
            self._decide(self.tie_teams)

    def _decide(self, contenders: tuple[int, ...]) -> None:
        trigger = self.triggered_team
        if trigger is not None and (
            (self.is_head and self.rules.head_table_winner is _TRIGGER_WINS)
            or (self._bunco_everywhere and self.trigger_was_bunco)
        ):
            self._finish(trigger)
            return
        scores = self.team_scores
        best = max([scores[t] for t in contenders])
        tied = tuple([t for t in contenders if scores[t] == best])
        if len(tied) == 1:
            self._finish(tied[0])
        else:
            self._start_tie_break(tied)

    def _finish(self, team: int) -> None:
        self.winner_team = team
        self.phase = _DONE
        self._queue = []
