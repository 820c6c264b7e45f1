"""A whole night: sets of six rounds, each round's results, the players' tallies, rotation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import IllegalMove
from .rotation import TableOutcome, first_seats, rotate
from .round import RoomRound
from .rules import HouseRules
from .seating import seat_night
from .table import TableRound, TableSpec

ROUNDS_PER_SET = 6


@dataclass
class PlayerStats:
    """A player's scorecard totals. Ghosts keep all zeros: they are never credited."""

    name: str
    ghost: bool = False
    wins: int = 0
    losses: int = 0
    buncos: int = 0
    mini_buncos: int = 0
    wipeouts: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class TablePlay:
    """What happened at one table in one round, in names (for sheets and the simulator)."""

    number: int
    seats: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    rolls: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    set_number: int
    round_number: int
    tables: tuple[TablePlay, ...]
    buncos: tuple[tuple[int, str], ...]  # (table, roller) in the order rolled


@dataclass
class Night:
    """Plays the rounds of a night in order. Each round is a ``RoomRound`` driven from outside;
    ``finish_round`` records it, credits the players and seats the next round."""

    rules: HouseRules
    tables: list[TableSpec]
    stats: dict[str, PlayerStats] = field(default_factory=dict)
    history: list[RoundRecord] = field(default_factory=list)
    set_number: int = 1
    round_number: int = 1

    @classmethod
    def seat(cls, rules: HouseRules, names: Sequence[str], rng: random.Random) -> Night:
        return cls.from_tables(rules, seat_night(rules, names, rng))

    @classmethod
    def from_tables(cls, rules: HouseRules, tables: list[TableSpec]) -> Night:
        stats = {
            seat.name: PlayerStats(seat.name, ghost=seat.ghost)
            for spec in tables
            for seat in spec.seats
        }
        return cls(rules=rules, tables=tables, stats=stats)

    @property
    def finished(self) -> bool:
        return self.set_number > self.rules.sets

    @property
    def bunco_order(self) -> list[str]:
        """Every credited bunco's roller, first to last, across the night."""
        return [name for record in self.history for _, name in record.buncos]

    def start_round(self) -> RoomRound:
        if self.finished:
            raise IllegalMove("the night is over")
        last = self.history[-1] if self.history else None
        winners = [w for t in last.tables for w in t.winners] if last else []
        return RoomRound(
            self.rules,
            self.round_number,
            self.tables,
            first_seats(self.rules, self.tables, winners),
        )

    def finish_round(self, room: RoomRound) -> RoundRecord:
        if not room.done:
            raise IllegalMove("every table needs a result before the round can close")
        plays = tuple(self._credit(table) for table in room.tables)
        record = RoundRecord(self.set_number, self.round_number, plays, tuple(room.bunco_log))
        self.history.append(record)
        outcomes = [TableOutcome(t.winners, t.losers) for t in room.tables]
        self.tables = rotate(self.rules, self.tables, outcomes)
        if self.round_number == ROUNDS_PER_SET:
            self.set_number += 1
            self.round_number = 1
        else:
            self.round_number += 1
        return record

    def _credit(self, table: TableRound) -> TablePlay:
        spec = table.spec
        winners, losers = set(table.winners), set(table.losers)
        for i, seat in enumerate(spec.seats):
            if seat.ghost:
                continue
            s = self.stats[seat.name]
            s.wins += i in winners
            s.losses += i in losers
            s.buncos += table.seat_buncos[i]
            s.mini_buncos += table.seat_minis[i]
            s.wipeouts += table.seat_wipeouts[i]
            s.points += table.seat_points[i]
        names = tuple(s.name for s in spec.seats)
        return TablePlay(
            number=spec.number,
            seats=names,
            teams=tuple(tuple(names[i] for i in team) for team in spec.teams),
            scores=tuple(table.team_scores),
            winners=tuple(names[i] for i in table.winners),
            losers=tuple(names[i] for i in table.losers),
            rolls=table.rolls,
        )
