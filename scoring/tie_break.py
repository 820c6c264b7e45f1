"""How a tied table plays its tie-break, as the house rules say (``TieBreak``): one more lap,
the first to score, one die each, or a roll-off race (with a roll for who starts, seed 000).
``TableRound`` plays it; this is its part of the table's state machine."""

from __future__ import annotations

from collections.abc import Sequence

from .roll import BUNCO, HITS, RollScore, check_dice
from .rules import RollOffOrder, TieBreak
from .table_spec import Phase

_ROLL_OFF_KINDS = frozenset({HITS, BUNCO})
# Enum members as module names, as in table.py: the simulator asks these very often.
_HIGH_TOTAL_FIRST = RollOffOrder.HIGH_TOTAL_FIRST
_EXTRA_TURN_EACH = TieBreak.EXTRA_TURN_EACH
_FIRST_TO_HIT = TieBreak.FIRST_TO_HIT
_ONE_DIE = TieBreak.ONE_DIE
_ROLL_OFF = TieBreak.ROLL_OFF
_TIE_BREAK = Phase.TIE_BREAK


class TieBreakPlay:
    """The tie-break part of ``TableRound`` (its state lives there: ``_queue``,
    ``_tie_values``, ``_roll_off_scores``, ``_order_totals``, ``choosing_first``)."""

    def _tied_seats_in_order(self, teams: tuple[int, ...]) -> list[int]:
        n = len(self._rolled)
        order = [(self.current + k) % n for k in range(1, n + 1)]
        return [s for s in order if self._team_of[s] in teams]

    def _start_tie_break(self, tied: tuple[int, ...]) -> None:
        self.phase = _TIE_BREAK
        self.tie_teams = tied
        method = self.rules.tie_break
        seats = self._tied_seats_in_order(tied)
        if method is _ONE_DIE:
            # One representative of each tied team rolls a single die.
            reps: list[int] = []
            for s in seats:
                if self._team_of[s] not in {self._team_of[r] for r in reps}:
                    reps.append(s)
            self._queue = reps
            self._tie_values = {}
        elif method is _ROLL_OFF:
            self._queue = []
            self._roll_off_scores = dict.fromkeys(tied, 0)
            if self.rules.roll_off_order is _HIGH_TOTAL_FIRST:
                # Seed 000: "each player rolls all three dice. High total will roll first (but
                # does not score for this roll)." Equal high totals roll again.
                self.choosing_first = True
                self._queue = seats
                self._order_totals = {}
        else:
            self._queue = seats
        self.current = seats[0]

    def _tie_roll(self, dice: Sequence[int]) -> RollScore | None:
        method = self.rules.tie_break
        seat = self.current
        self.rolls += 1
        if method is _ONE_DIE:
            (value,) = check_dice(dice, count=1)
            self._tie_values[self._team_of[seat]] = value
            self._queue.pop(0)
            if self._queue:
                self.current = self._queue[0]
                return None
            best = max(self._tie_values.values())
            tied = tuple(t for t, v in self._tie_values.items() if v == best)
            if len(tied) == 1:
                self._finish(tied[0])
            else:
                self._start_tie_break(tied)
            return None
        score = self._lookup(dice)
        team = self._team_of[seat]
        if self.choosing_first:
            self._choose_first(seat, dice)
            return None
        if method is _EXTRA_TURN_EACH:
            # One more lap: the rolls count as play (points, buncos), then most points wins.
            self._apply(seat, score)
            if not score.keeps_turn:
                self._next_in_queue()
            return score
        counts = score.kind in _ROLL_OFF_KINDS
        if method is _FIRST_TO_HIT:
            if counts:
                self._finish(team)
            else:
                self._pass_among_tied(seat)
            return score
        # ROLL_OFF: the tied teams race to roll_off_points; only target dice and buncos count.
        if counts:
            self._roll_off_scores[team] += score.points
            if self._roll_off_scores[team] >= self.rules.roll_off_points:
                self._finish(team)
            return score
        self._pass_among_tied(seat)
        return score

    def _choose_first(self, seat: int, dice: Sequence[int]) -> None:
        self._order_totals[seat] = sum(dice)
        self._queue.pop(0)
        if self._queue:
            self.current = self._queue[0]
            return
        best = max(self._order_totals.values())
        top = [s for s, total in self._order_totals.items() if total == best]
        if len(top) == 1:
            self.choosing_first = False
            self.current = top[0]
        else:
            self._queue = top
            self._order_totals = {}
            self.current = top[0]

    def _pass_among_tied(self, seat: int) -> None:
        n = len(self._rolled)
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self._team_of[s] in self.tie_teams:
                self.current = s
                return
