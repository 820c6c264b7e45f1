"""A table's chairs for one round (who sits where, the teams and partners, who rolls for a
ghost, the points that end its round), the phases its round goes through, and the table as
the screens are told it (``TableView``, from ``TableRound.describe``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalMove
from .rules import AfterBell, HouseRules


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
