"""The fold of a night's score log: event in, state out.

Pure Python like ``scoring/``: no Django, no I/O, no clock. The score log is the truth; this
module turns it into the night as it stands (tallies, turns, the bell, results, rotation, the
roster, the prizes), advancing once per event as each is written.

A correction (a *void*) never replays the night: the night is checkpointed as each round
starts, and a void replays only that round's events from the checkpoint into a new state,
which replaces the old one whole, so nothing ever reads a state half-way through a replay.
Every roll carries the chair it was credited to, so taking back an older roll removes exactly
that roll's points and moves nobody else's.
"""

from __future__ import annotations

from collections.abc import Iterable

from bunco.night.events import (
    CORRECTABLE,
    PRACTICE_SET,
    Conflict,
    Event,
    Kind,
    RollEntry,
    TableIndex,
    handlers,
    handles,
    void_targets,
)
from bunco.night.fold_corrections import Corrections
from bunco.night.fold_people import PeopleFold
from bunco.night.payloads import (
    Bell,
    Break,
    Created,
    Finish,
    NightEnded,
    Paused,
    Resumed,
    Roll,
    RoundStarted,
    RulesChanged,
    Seated,
    tables_from_data,
    tables_to_data,
)
from scoring import HouseRules, IllegalMove, Night, RoomRound, TableSpec
from scoring.night import fuzzy_die_holder
from scoring.seating import ghost_names

# What the rest of the core reads from here (the log's rows are bunco/events.py's).
__all__ = ["CORRECTABLE", "PRACTICE_SET", "Conflict", "Event", "Kind", "LiveNight",
           "RollEntry", "tables_from_data", "tables_to_data", "void_targets"]


class LiveNight(PeopleFold, Corrections):
    """A night as of sequence number ``seq``."""

    def __init__(self, rules: HouseRules, *, name: str = "", rules_id: str = "",
                 entry_fee_cents: int = 0, pot_cents: int | None = None):
        # the night's setup
        self.name = name
        self.rules_id = rules_id
        self.rules = rules
        self.entry_fee_cents = entry_fee_cents
        self.pot_cents = pot_cents
        self.roster: list[str] = []  # everyone on the list, in order
        self.left: set[str] = set()
        # The desk: pre-registered guests not here yet, the table each guest drew at the door
        # (before the seating), guests who came after it and wait for a chair, and when the
        # desk closes (ISO time, for the services: the fold has no clock).
        self.expected: set[str] = set()
        self.drawn: dict[str, int] = {}
        self.waiting: list[str] = []
        self.check_in_closes: str | None = None
        self.checkpoint_desk: tuple = ()  # the roster and the desk as the latest round started
        self.roll_offs: dict[str, str] = {}
        self.splits: set[str] = set()  # tied prizes the tied players chose to split
        self.split_shares: dict[str, dict[str, int]] = {}  # ... in the percents they agreed
        self.revealed = 0
        # play
        self.seq = 0
        self.night: Night | None = None
        self.room: RoomRound | None = None
        self.last_room: RoomRound | None = None  # the round just closed (results, movement)
        self.paused = False
        self.ended = False
        self.checkpoint: Night | None = None  # the night as the latest round started
        self.checkpoint_bunco: RollEntry | None = None
        self.round_events: list[Event] = []  # the latest round's events, its start included
        self.rolls: list[RollEntry] = []  # the latest round's rolls that count
        self.all_rolls: dict[int, RollEntry] = {}  # every roll that counts, by seq
        self.voided: set[int] = set()
        self.last_bunco: RollEntry | None = None
        self.positions: dict[int, int] = {}  # table -> commands entered there this round
        self.closed_by: int | None = None  # the event that closed the latest round
        self.bell_by: int | None = None  # the event that rang the latest round's bell
        self.room_set: int | None = None  # the set of the round in play
        self.break_ends: int | None = None  # a break the host started: when it ends (epoch ms)
        self.break_minutes = 0
        self.practices = 0  # practice rounds played (before round 1; none of them counts)
        # The clock (epoch ms, from the round's start event): when the horn ends play, and
        # when the next round starts by itself; a pause moves both on by its length.
        self.play_ends: int | None = None
        self.next_at: int | None = None
        self.paused_at: int | None = None
        self.horn = False  # the latest bell was the clock's horn

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
    def practice(self) -> bool:
        """Whether the round in play is a practice round: played like round 1 of set "0",
        so no tap made in it can land in a round that counts."""
        return self.room is not None and self.room_set == PRACTICE_SET

    @property
    def set_number(self) -> int | None:
        """The set of the round in play (or of the next round between rounds)."""
        if self.room is not None:
            return self.room_set
        return self.night.set_number if self.night else None

    @property
    def round_number(self) -> int | None:
        if self.room is not None:
            return self.room.round_number
        return self.night.round_number if self.night else None

    @property
    def tables(self) -> list[TableSpec]:
        """The seating of the round in play, or of the next round between rounds."""
        if self.room is not None:
            return [t.spec for t in self.room.tables]
        return list(self.night.tables) if self.night else []

    def table_rolls(self, number: int) -> list[RollEntry]:
        return self._by_table().rolls.get(number, [])

    def table_events(self, number: int) -> list[Event]:
        """The latest round's events at one table, in order (taken back ones included)."""
        return self._by_table().events.get(number, [])

    def _by_table(self) -> TableIndex:
        index = self.__dict__.get("_table_index")
        if index is None or not index.fits(self.rolls, self.round_events):
            index = self.__dict__["_table_index"] = TableIndex(self.rolls, self.round_events)
        index.catch_up()
        return index

    def position(self, number: int) -> int:
        return self.positions.get(number, 0)

    def seat_of(self, name: str) -> tuple[int, int] | None:
        for spec in self.tables:
            for i, seat in enumerate(spec.seats):
                if seat.name == name:
                    return spec.number, i
        return None

    def shape(self) -> tuple:
        """What every screen shows in common: when it changes, every screen changes."""
        room = self.room
        return (self.phase, self.set_number, self.round_number, self.paused,
                bool(room and room.bell_rung), self.closed_by)

    @property
    def fuzzy_die_holder(self) -> str | None:
        """Who holds the fuzzy die now: the last credited bunco's roller, this round's
        included; None while the head table still holds it (or the rules have no fuzzy die)."""
        if not self.rules.fuzzy_die or self.last_bunco is None:
            return None
        return fuzzy_die_holder((self.last_bunco.roller,))

    def fuzzy_die_table(self) -> int | None:
        """The table where the fuzzy die is now: its holder's, or the head table's."""
        if not self.rules.fuzzy_die or not self.tables:
            return None
        holder = self.fuzzy_die_holder
        where = self.seat_of(holder) if holder else None
        return where[0] if where else (1 if holder is None else None)

    def here(self) -> list[str]:
        """Everyone on the list who has arrived, in order."""
        return [n for n in self.roster if n not in self.expected]

    def next_ghost(self) -> str | None:
        """The chair a late arrival takes: the first ghost in table order."""
        return next((s.name for t in self.tables for s in t.seats if s.ghost), None)

    def new_ghost_name(self) -> str:
        return ghost_names(1, list(self.night.stats) if self.night else [])[0]

    def latest(self, kinds: Iterable[str], table: int | None = None) -> Event | None:
        """The latest event of the latest round of one of ``kinds`` that still counts."""
        kinds = set(kinds)
        events = self.round_events if table is None else self.table_events(table)
        for event in reversed(events):
            if event.kind in kinds and event.seq not in self.voided:
                return event
        return None

    def event(self, seq: int) -> Event | None:
        return next((e for e in self.round_events if e.seq == seq), None)

    # -- applying events ---------------------------------------------------------------------

    def apply(self, event: Event) -> LiveNight:
        """Apply one event and return the state after it: ``self``, changed in place, or for a
        correction a new state replayed from the round's checkpoint. Raises IllegalMove (and
        changes nothing) if the event does not fit."""
        if event.seq <= self.seq:
            raise IllegalMove(f"event #{event.seq} is already in the fold")
        handler = HANDLERS.get(event.kind)
        if handler is None:
            raise IllegalMove(f"unknown event {event.kind!r}")
        replayed = handler(self, event)
        if replayed is not None:  # a correction: the new state
            return replayed
        if self.round_events and event.kind != Kind.ROUND_STARTED:
            self.round_events.append(event)
        self.seq = event.seq
        return self

    def pods_rung(self) -> tuple[bool, ...]:
        return tuple(self.room.pod_rung) if self.room else ()

    def _touch(self, tables: Iterable[int] = ()) -> None:
        """A command entered at each of these tables: its position moves on by one."""
        for number in tables:
            self.positions[number] = self.positions.get(number, 0) + 1

    # -- the handlers (``@handles``: one per kind; ``HANDLERS`` below) -------------------------

    @handles(Created)
    def _on_created(self, event: Event) -> None:
        self._setup(event.data)

    @handles(RulesChanged)
    def _on_rules(self, event: Event) -> None:
        if self.started or self.ended:
            raise IllegalMove("the house rules are fixed once the first round has started")
        self._setup(event.data)
        if self.night is not None:  # seated: the same chairs under the new rules
            self.night = Night.from_tables(self.rules, list(self.night.tables))

    def _setup(self, data: Created) -> None:
        """What a night's first entry or new rules give (None: not given)."""
        if data.rules is not None:
            self.rules = HouseRules.from_dict(data.rules)
        for key in ("name", "rules_id", "entry_fee_cents"):
            if (value := getattr(data, key)) is not None:
                setattr(self, key, value)

    @handles(Seated)
    def _on_seated(self, event: Event) -> None:
        if self.started or self.ended:
            raise IllegalMove("seats can only change before the first round starts")
        self.night = Night.from_tables(self.rules, list(event.data.tables))
        self.waiting = [n for n in self.waiting if n not in self.night.stats]

    @handles(RoundStarted)
    def _on_round_started(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players before starting a round")
        if self.room is not None:
            raise IllegalMove("a round is already being played")
        if self.night.finished:
            raise IllegalMove("every set has been played; end the night for the prizes")
        practice = event.data.practice
        if practice and self.night.history:
            raise IllegalMove("a practice round comes before the first round; this one counts")
        # A replay starts from a copy of the checkpoint, so this copy is the same night.
        self.checkpoint = self.night.copy()
        self.checkpoint_bunco = self.last_bunco
        self.checkpoint_desk = (list(self.roster), set(self.expected), dict(self.drawn),
                                list(self.waiting))
        self.round_events = [event]
        self.rolls = []
        self.room_set = PRACTICE_SET if practice else self.night.set_number
        self.room = self.night.start_round()
        self.paused = False
        self.last_room = None
        self.closed_by = None
        self.bell_by = None
        self.positions = {}
        self.break_ends = None  # the bell ends a break, whatever its clock says
        self.play_ends, self.next_at = event.data.play_ends, event.data.next_at
        self.paused_at, self.horn = None, False

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

    @handles(Roll)
    def _on_roll(self, event: Event) -> None:
        table = self._table(event)
        data = event.data
        dice = data.dice
        spec = table.spec
        if event.chair:
            chair = spec.index_of(event.chair)
        elif not table.done:  # an old row that did not record its roller: the turn's chair
            chair = table.current
        else:
            raise IllegalMove(f"table {event.table} has finished this round")
        seat = spec.seats[chair]
        rung_before = list(self.room.pod_rung)
        credited = len(self.room.bunco_log)
        score = self.room.roll(event.table - 1, dice, seat=chair,
                               called=data.quick != "uncalled")
        entry = RollEntry(
            seq=event.seq, table=event.table, roller=seat.name, ghost=seat.ghost, dice=dice,
            kind=score.kind if score else "die", points=score.points if score else 0,
            actor=event.actor, rolled_by=event.player or spec.seats[spec.roller_of(chair)].name,
            quick=data.quick,
        )
        self.rolls.append(entry)
        self.all_rolls[entry.seq] = entry
        if len(self.room.bunco_log) > credited:  # a bunco the rules credit passes the fuzzy die
            self.last_bunco = entry
        self._touch([event.table])
        if self.room.bell_rung and not all(rung_before):
            self.bell_by = event.seq  # the roll rang the room's bell
        self._close_if_done(event)

    @handles(Finish)
    def _on_finish(self, event: Event) -> None:
        self._table(event).finish()
        self._touch([event.table])
        self._close_if_done(event)

    @handles(Bell)
    def _on_bell(self, event: Event) -> None:
        room = self._playing()
        if room.bell_rung:
            raise IllegalMove("the bell has already rung this round")
        room.ring_bell()
        self.bell_by = event.seq
        self.horn = event.data.horn
        self._close_if_done(event)

    @handles(NightEnded)
    def _on_night_ended(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has already ended")
        self.ended, self.prizes_held = True, event.data.tv_reveals
        self.room = None  # a round cut short by the end of the night does not count
        self.break_ends = None

    def _between_rounds(self) -> Night:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players first")
        if self.room is not None:
            raise IllegalMove("wait for this round to end: changes take effect from the next "
                              "round")
        return self.night

    @handles(Break)
    def _on_break(self, event: Event) -> None:
        """The host's break between rounds (a set's end, say). The event carries when it ends,
        so the fold needs no clock; the next bell ends it, or a break of 0 minutes."""
        self._between_rounds()
        minutes = event.data.minutes
        if minutes:
            self.break_minutes, self.break_ends = minutes, event.data.ends_at
        elif self.break_ends is None:
            raise IllegalMove("there is no break to end")
        else:
            self.break_minutes, self.break_ends = 0, None

    @handles(Paused)
    def _on_paused(self, event: Event) -> None:
        self._playing()
        if self.paused:
            raise IllegalMove("the game is already paused")
        self.paused = True
        self.paused_at = event.data.at

    @handles(Resumed)
    def _on_resumed(self, event: Event) -> None:
        if not self.paused:
            raise IllegalMove("the game is not paused")
        self.paused = False
        at = event.data.at
        if at is not None and self.paused_at is not None:  # the clock stood still meanwhile
            stood = max(0, at - self.paused_at)
            self.play_ends = self.play_ends and self.play_ends + stood
            self.next_at = self.next_at and self.next_at + stood
        self.paused_at = None

    def _close_if_done(self, event: Event) -> None:
        if self.room is None or not self.room.done:
            return
        if self.practice:
            # A practice round counts for nothing: the night is as it was before it (the same
            # seats, no results, the fuzzy die back at the head table), and it cannot be
            # reopened; its rolls stay in the log, marked as practice.
            self.night = self.checkpoint.copy()
            self.last_bunco = self.checkpoint_bunco
            self.room, self.last_room, self.closed_by, self.bell_by = None, None, None, None
            self.checkpoint, self.round_events, self.rolls = None, [], []
            self.next_at = None  # after a practice the host starts round 1
            self.practices += 1
        else:
            self.night.finish_round(self.room)
            self.last_room, self.room = self.room, None
            self.closed_by = event.seq


#: Each kind's handler, by its stored name.
HANDLERS = handlers(LiveNight)
