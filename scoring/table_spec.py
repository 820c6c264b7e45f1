"""A table's chairs for one round (who sits where, the teams and partners, who rolls for a
ghost, the points that end its round), the phases its round goes through, and the table as
the screens are told it (``TableView``) and ask it (``TableQuestions``, ``TableRound``'s part
that answers them: ``describe``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalMove
from .roll import tapped_dice
from .rules import AfterBell, HouseRules, TieBreak


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a chair: a player, or a ghost whose partner rolls for it."""

    name: str
    ghost: bool = False


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table's seating for one round. Seats are in clockwise (rolling) order.

    At a team table (four seats) the players across from each other are partners:
    seats 0 and 2 are team 0, seats 1 and 3 are team 1. At an individual table every seat
    plays for itself. Seat 0 is the scorekeeper's chair.
    """

    number: int
    seats: tuple[Seat, ...]
    individuals: bool = False

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        if self.individuals:
            return tuple((i,) for i in range(len(self.seats)))
        return ((0, 2), (1, 3))

    def team_of(self, seat: int) -> int:
        return seat if self.individuals else seat % 2

    def partner_of(self, seat: int) -> int | None:
        return None if self.individuals else (seat + 2) % 4

    def roller_of(self, seat: int) -> int:
        """The chair of the player who physically rolls for ``seat``: a ghost's partner rolls
        for it; everyone else rolls for themselves."""
        if self.seats[seat].ghost and not self.individuals:
            return self.partner_of(seat)
        return seat

    def index_of(self, name: str) -> int:
        for i, seat in enumerate(self.seats):
            if seat.name == name:
                return i
        raise IllegalMove(f"{name} is not at table {self.number}")


class Phase(StrEnum):
    PLAYING = "playing"
    FINISHING = "finishing"  # the bell rang; the roller finishes the roll or turn
    EXTRA_ROLLS = "extra_rolls"  # everyone who has not rolled gets a roll (seed 001)
    TIE_BREAK = "tie_break"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class BellDuty:
    """What a table does now that the bell has rung, as the house rules say: the chair whose
    roll or turn is finished (``then`` FINISH_ROLL or FINISH_TURN), or stop now (STOP)."""

    then: AfterBell
    seat: int | None = None


_TEAM_LAYOUTS: dict[tuple[int, bool], tuple[tuple[int, ...], int]] = {}


def team_layout(spec: TableSpec) -> tuple[tuple[int, ...], int]:
    """Each chair's team and the number of teams, for a table of this shape (asked once for
    every table of every round; there are only a few shapes)."""
    key = (len(spec.seats), spec.individuals)
    layout = _TEAM_LAYOUTS.get(key)
    if layout is None:
        layout = tuple(spec.team_of(i) for i in range(key[0])), len(spec.teams)
        _TEAM_LAYOUTS[key] = layout
    return layout


def round_target(rules: HouseRules, spec: TableSpec, only_table: bool) -> int:
    """The points that end a round at this table: a team's, or a player's at an individual
    table (WM One Table Bunco: its own, 21, or 11 for a quick game)."""
    if not spec.individuals:
        return rules.team_target
    if only_table and rules.one_table_target:
        return rules.one_table_target
    return rules.individual_target

@dataclass(frozen=True, slots=True)
class SeatTally:
    """A player's own points this round, under a player's own target (seed 004)."""

    name: str
    points: int
    close: bool  # within CLOSE_TO_TARGET of their own target: the room watches them


@dataclass(frozen=True, slots=True)
class TeamView:
    names: tuple[str, ...]  # a team's partners, or one player at an individual table
    score: int
    winner: bool
    players: tuple[SeatTally, ...] | None  # each one's own tally, where it counts


@dataclass(frozen=True, slots=True)
class BellView:
    """The bell's duty named: who finishes the roll or turn (rolling for ``ghost``)."""

    then: AfterBell
    who: str | None
    ghost: str | None


@dataclass(frozen=True, slots=True)
class TableView:
    """One table's round as it stands, named: what every screen of it shows."""

    round_number: int
    phase: Phase
    target: int
    teams: tuple[TeamView, ...]
    dice: int  # how many dice the next roll has (0: done)
    quick: bool  # whether it may be a quick button
    choosing_first: bool  # a roll-off's tied players roll for who starts
    bell: BellView | None
    roller: str | None  # the chair whose roll it is (a ghost's name, for a ghost)
    rolls_for: str | None  # who rolls for that chair, when it is a ghost's
    turn: tuple[tuple[str, str], ...]  # (chair, who rolls for it) in turn order from now
    winners: tuple[str, ...]
    won_by: tuple[str, bool] | None  # whose roll won it for a team without the most points


# -- what the screens ask of a table's round ------------------------------------------------------

# Enum members as module names, as in table.py: a tap asks some of these on every roll.
_STOP_AT_BELL = AfterBell.STOP
_ONE_DIE = TieBreak.ONE_DIE
_DONE = Phase.DONE
_FINISHING = Phase.FINISHING
_TIE_BREAK = Phase.TIE_BREAK


#: Under a player's own target (seed 004) a player this few points short of it (18 of 21)
#: is shown as close: the whole room watches that player.
CLOSE_TO_TARGET = 3


class TableQuestions:
    """What the screens ask of ``TableRound``: whose roll, how many dice, the bell's duty, who
    won and why, and the whole table in one ``TableView`` (``describe``). It only reads the
    state the round's play keeps (``table.py``)."""

    @property
    def done(self) -> bool:
        return self.phase is _DONE

    @property
    def dice_expected(self) -> int:
        """How many dice the next roll has: 3, 1 (a one-die tie-break), or 0 when done."""
        if self.phase is _DONE:
            return 0
        if self.phase is _TIE_BREAK and self.rules.tie_break is _ONE_DIE:
            return 1
        return 3

    @property
    def quick_allowed(self) -> bool:
        """Whether the next roll may be entered with a quick button (made-up dice of the
        kind tapped): not in a one-die tie-break, nor in the roll for who starts a roll-off,
        where the three dice's total decides (seed 000: "High total will roll first")."""
        return self.dice_expected == 3 and not self.choosing_first

    def tapped(self, dice: Sequence[int] | None = None,
               quick: str | None = None) -> tuple[int, ...]:
        """The dice a scorekeeper's tap stands for at this table now (``tapped_dice``)."""
        return tapped_dice(self.rules, self.round_number, dice=dice, quick=quick,
                           count=self.dice_expected or 3, quick_allowed=self.quick_allowed)

    @property
    def winners(self) -> tuple[int, ...]:
        if self.winner_team is None:
            return ()
        return self.spec.teams[self.winner_team]

    @property
    def losers(self) -> tuple[int, ...]:
        if self.winner_team is None:
            return ()
        winner = self.winner_team
        return tuple([s for t, seats in enumerate(self.spec.teams) if t != winner for s in seats])

    def bell_duty(self) -> BellDuty | None:
        """What this table does after the bell (None before it): finish a roll or a turn, or
        stop (then any extra rolls or tie-break the table's phase shows)."""
        if not self.bell_rung:
            return None
        if self.phase is _FINISHING:
            return BellDuty(self.rules.after_bell, self.current)
        return BellDuty(_STOP_AT_BELL)

    @property
    def tallies_by_player(self) -> bool:
        """Seed 004: a player's own points reach the target, so each player's tally counts."""
        return self._player_target

    def close_to_target(self, seat: int) -> bool:
        """The player at ``seat`` is within ``CLOSE_TO_TARGET`` of their own target."""
        return self._player_target and self.seat_points[seat] >= self.target - CLOSE_TO_TARGET

    def won_by_trigger(self) -> tuple[int, bool] | None:
        """(seat, bunco) when the round went to a team without the most points because of
        that seat's roll: a player's own target or a bunco at the head table (seed 004's
        trigger wins). None when the winners simply had the most points."""
        team = self.winner_team
        if (team is None or self.triggered_seat is None or team != self.triggered_team
                or len(self.team_scores) < 2):
            return None
        best = max(p for t, p in enumerate(self.team_scores) if t != team)
        if self.team_scores[team] > best:
            return None
        return self.triggered_seat, self.trigger_was_bunco

    def turn_order(self) -> tuple[int, ...]:
        """The chairs in rolling order, from the one whose turn it is (normal play)."""
        return tuple((self.current + k) % self._n for k in range(self._n))

    def describe(self) -> TableView:
        """The table as every screen shows it, in one call: the teams and their tallies, whose
        roll it is (and who rolls for a ghost), what the next roll may be, the bell's duty, the
        turn order from now, and who won and why."""
        names = [seat.name for seat in self.spec.seats]
        rollers = [names[self.spec.roller_of(i)] for i in range(self._n)]
        teams = tuple(TeamView(
            names=tuple(names[i] for i in chairs), score=self.team_scores[t],
            winner=self.winner_team == t,
            players=tuple(SeatTally(names[i], self.seat_points[i], self.close_to_target(i))
                          for i in chairs) if self._player_target else None)
            for t, chairs in enumerate(self.spec.teams))
        duty = self.bell_duty()
        bell = None if duty is None else BellView(duty.then, None, None) if duty.seat is None \
            else BellView(duty.then, rollers[duty.seat],
                          names[duty.seat] if self._ghost[duty.seat] else None)
        won = self.won_by_trigger()
        playing = self.phase is not _DONE
        chair = self.current
        return TableView(
            round_number=self.round_number, phase=self.phase, target=self.target,
            teams=teams, dice=self.dice_expected, quick=self.quick_allowed,
            choosing_first=self.choosing_first, bell=bell,
            roller=names[chair] if playing else None,
            rolls_for=rollers[chair] if playing and self._ghost[chair] else None,
            turn=tuple((names[c], rollers[c]) for c in self.turn_order()),
            winners=tuple(names[i] for i in self.winners),
            won_by=None if won is None else (names[won[0]], won[1]))
