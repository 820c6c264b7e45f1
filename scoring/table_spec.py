"""A table's chairs for one round (who sits where, the teams and partners, who rolls for a
ghost) and the phases its round goes through."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalMove


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
