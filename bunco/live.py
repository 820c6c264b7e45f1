"""The live state of a night: the score log folded through the rules engine.

The log is the truth. ``live_state`` keeps one fold per night in memory and catches it up from
the log's sequence number on every read, so several workers sharing one database agree; a
correction (a void) refolds the night from the start.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from scoring import HouseRules, IllegalMove, Night, RoomRound, Seat, TableSpec
from scoring.seating import ghost_names

SEATED, ROUND_STARTED, ROLL, FINISH, BELL, VOID, NIGHT_ENDED = (
    "seated", "round_started", "roll", "finish", "bell", "void", "night_ended",
)
ARRIVED, LEFT, RENAMED, PAUSED, RESUMED = "arrived", "left", "renamed", "paused", "resumed"


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    table: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    actor: str = ""


@dataclass(slots=True)
class RollEntry:
    seq: int
    table: int
    roller: str
    ghost: bool
    dice: tuple[int, ...]
    kind: str
    points: int
    actor: str


def tables_to_data(tables: list[TableSpec]) -> list[dict]:
    return [
        {"number": t.number, "individuals": t.individuals,
         "seats": [{"name": s.name, "ghost": s.ghost} for s in t.seats]}
        for t in tables
    ]


def tables_from_data(data: list[dict]) -> list[TableSpec]:
    return [
        TableSpec(number=t["number"], individuals=t["individuals"],
                  seats=tuple(Seat(s["name"], ghost=s["ghost"]) for s in t["seats"]))
        for t in data
    ]


class LiveNight:
    """A night as of sequence number ``seq``."""

    def __init__(self, rules: HouseRules):
        self.rules = rules
        self.seq = 0
        self.night: Night | None = None
        self.room: RoomRound | None = None
        self.last_room: RoomRound | None = None  # the round just closed (results, movement)
        self.round_start_seq = 0
        self.rolls: list[RollEntry] = []  # the current (or just closed) round's rolls
        self.all_rolls: dict[int, RollEntry] = {}  # every roll that counts, by seq
        self.voided: set[int] = set()
        self.ended = False
        self.last_bunco: RollEntry | None = None
        self.created_at = None  # which night this fold belongs to (ids can be reused)
        self.rules_json: dict | None = None  # the stored rules it was folded under
        self.paused = False

    # -- what screens ask --------------------------------------------------------------------

    @property
    def seated(self) -> bool:
        return self.night is not None

    @property
    def started(self) -> bool:
        return self.night is not None and (self.room is not None or bool(self.night.history))

    @property
    def phase(self) -> str:
        if self.ended:
            return "ended"
        if self.night is None:
            return "setup"
        if self.room is not None:
            return "playing"
        if self.night.finished:
            return "over"
        return "between_rounds" if self.night.history else "ready"

    @property
    def tables(self) -> list[TableSpec]:
        """The seating of the round in play, or of the next round between rounds."""
        if self.room is not None:
            return [t.spec for t in self.room.tables]
        return list(self.night.tables) if self.night else []

    def table_rolls(self, number: int) -> list[RollEntry]:
        return [r for r in self.rolls if r.table == number]

    def seat_of(self, name: str) -> tuple[int, int] | None:
        for spec in self.tables:
            for i, seat in enumerate(spec.seats):
                if seat.name == name:
                    return spec.number, i
        return None

    # -- applying events ---------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event; raises IllegalMove (and changes nothing) if it does not fit."""
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None:
            raise IllegalMove(f"unknown event {event.kind!r}")
        handler(event)
        self.seq = event.seq

    def _playing(self) -> RoomRound:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.room is None:
            raise IllegalMove("no round is being played; the host rings the bell to start one")
        return self.room

    def _table(self, event: Event):
        room = self._playing()
        if self.paused:
            raise IllegalMove("the host has paused the game")
        if event.table is None or not 1 <= event.table <= len(room.tables):
            raise IllegalMove(f"there is no table {event.table} tonight")
        return room.tables[event.table - 1]

    def _on_seated(self, event: Event) -> None:
        if self.started or self.ended:
            raise IllegalMove("seats can only change before the first round starts")
        self.night = Night.from_tables(self.rules, tables_from_data(event.data["tables"]))

    def _on_round_started(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players before starting a round")
        if self.room is not None:
            raise IllegalMove("a round is already being played")
        if self.night.finished:
            raise IllegalMove("every set has been played; end the night for the prizes")
        self.room = self.night.start_round()
        self.paused = False
        self.round_start_seq = event.seq
        self.rolls = []
        self.last_room = None

    def _on_roll(self, event: Event) -> None:
        table = self._table(event)
        dice = tuple(event.data.get("dice", ()))
        seat = table.spec.seats[table.current] if not table.done else None
        score = self.room.roll(event.table - 1, dice)
        entry = RollEntry(
            seq=event.seq, table=event.table, roller=seat.name, ghost=seat.ghost, dice=dice,
            kind=score.kind if score else "die", points=score.points if score else 0,
            actor=event.actor,
        )
        self.rolls.append(entry)
        self.all_rolls[entry.seq] = entry
        if entry.kind == "bunco" and not entry.ghost:
            self.last_bunco = entry
        self._close_if_done()

    def _on_finish(self, event: Event) -> None:
        self._table(event).finish()
        self._close_if_done()

    def _on_bell(self, event: Event) -> None:
        self._playing().ring_bell()
        self._close_if_done()

    def _on_night_ended(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has already ended")
        self.ended = True
        self.room = None  # a round cut short by the end of the night does not count

    def _between_rounds(self) -> Night:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players first")
        if self.room is not None:
            raise IllegalMove("wait for this round to end: changes take effect from the next "
                              "round")
        return self.night

    def next_ghost(self) -> str | None:
        """The chair a late arrival takes: the first ghost in table order."""
        return next((s.name for t in self.tables for s in t.seats if s.ghost), None)

    def new_ghost_name(self) -> str:
        return ghost_names(1, list(self.night.stats) if self.night else [])[0]

    def _on_arrived(self, event: Event) -> None:
        self._between_rounds().substitute(event.data["ghost"], Seat(event.data["name"]))

    def _on_left(self, event: Event) -> None:
        night = self._between_rounds()
        night.substitute(event.data["name"], Seat(event.data["ghost"], ghost=True))

    def _on_renamed(self, event: Event) -> None:
        old, new = event.data["old"], event.data["new"]
        if self.night is None:
            raise IllegalMove("seat the players first")
        self.night.rename(old, new)
        if self.room is not None:
            self.room.rename(old, new)
        for entry in self.rolls:
            if entry.roller == old:
                entry.roller = new

    def _on_paused(self, event: Event) -> None:
        self._playing()
        if self.paused:
            raise IllegalMove("the game is already paused")
        self.paused = True

    def _on_resumed(self, event: Event) -> None:
        if not self.paused:
            raise IllegalMove("the game is not paused")
        self.paused = False

    def _on_void(self, event: Event) -> None:
        raise IllegalMove("a correction refolds the night; use fold()")

    def _close_if_done(self) -> None:
        if self.room is not None and self.room.done:
            self.night.finish_round(self.room)
            self.last_room, self.room = self.room, None


def fold(rules: HouseRules, events: list[Event]) -> LiveNight:
    """Replay a whole log. Voided events are skipped; any event that no longer fits raises."""
    voided = {e.data["seq"] for e in events if e.kind == VOID}
    state = LiveNight(rules)
    state.voided = voided
    for event in events:
        if event.kind == VOID or event.seq in voided:
            state.seq = event.seq
            continue
        state.apply(event)
    return state


class _Cache:
    def __init__(self):
        self._lock = threading.RLock()
        self._states: dict[int, LiveNight] = {}

    def get(self, night_id: int) -> LiveNight | None:
        return self._states.get(night_id)

    def put(self, night_id: int, state: LiveNight) -> None:
        self._states[night_id] = state

    def drop(self, night_id: int) -> None:
        self._states.pop(night_id, None)

    @property
    def lock(self):
        return self._lock


cache = _Cache()
