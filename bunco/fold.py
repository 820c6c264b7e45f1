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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from scoring import HouseRules, IllegalMove, Night, RoomRound, Seat, TableSpec
from scoring.awards import set_key
from scoring.night import fuzzy_die_holder
from scoring.seating import ghost_names


class Kind(StrEnum):
    """Every kind of event the log holds: everything that changes a night."""

    CREATED = "created"  # name, rules id, rules, entry fee
    RULES = "rules"  # the house rules (and name, entry fee) changed before play
    PRIZES = "prizes"  # the prize list, tie policy and typed pot
    ADDED = "added"  # players checked in before seating
    REMOVED = "removed"  # a player removed before seating
    SEATED = "seated"
    ROUND_STARTED = "round_started"
    ROLL = "roll"
    FINISH = "finish"
    BELL = "bell"
    VOID = "void"
    ARRIVED = "arrived"
    LEFT = "left"
    RENAMED = "renamed"
    PAUSED = "paused"
    RESUMED = "resumed"
    NIGHT_ENDED = "night_ended"
    ROLL_OFF = "roll_off"  # a tied prize's winner, or {"split": true}: its tied players share it
    REVEALED = "revealed"  # how many prizes the TV shows
    CLAIMED = "claimed"  # a phone picked a player's name (the phone's hash)
    RELEASED = "released"  # the host freed a player's name for another phone
    BREAK = "break"  # between rounds: minutes and when it ends (epoch ms); 0 minutes ends it
    CHECKED_IN = "checked_in"  # a guest at the desk: the table drawn, or the ghost's chair taken
    DESK = "desk"  # when the desk stops checking guests in (ISO time; none: open)


#: The set number a practice round is played under (real sets count from 1).
PRACTICE_SET = 0
#: What a table's scorekeeper or the host can take back.
CORRECTABLE = frozenset({Kind.ROLL, Kind.FINISH, Kind.BELL})
#: Between-round events that a reopened round takes back with it: a break.
REOPEN_TAKES = frozenset({Kind.BREAK})
#: Recorded in the log, but no screen shows them: who holds which phone, the desk's closing
#: time, a guest checked in (one who takes a ghost's chair changes the room, and says so).
QUIET_KINDS = frozenset({Kind.CLAIMED, Kind.RELEASED, Kind.CHECKED_IN, Kind.DESK})
#: Commands made at a table: each moves the table's position on by one.
TABLE_KINDS = frozenset({Kind.ROLL, Kind.FINISH})
#: Room-wide events that leave every player's own seat, result and scorecard (the phone's
#: ``me`` fragment) and the TV's standings, races and movement board as they were: the
#: banner and the tables say all of it.
SEATS_KEPT = frozenset({Kind.BELL, Kind.PAUSED, Kind.RESUMED})


@dataclass(frozen=True, slots=True)
class Event:
    """One row of the log. ``set_number``/``round_number``/``table`` say where it belongs; for
    a roll ``player`` is who rolled and ``ghost`` the ghost's chair it was rolled for, if any;
    ``position`` is the table's position the screen showed when it was tapped."""

    seq: int
    kind: str
    table: int | None = None
    set_number: int | None = None
    round_number: int | None = None
    player: str = ""
    ghost: str = ""
    position: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: str = ""

    @property
    def chair(self) -> str:
        """The chair a roll is credited to: the ghost's when rolled for one."""
        return self.ghost or self.player


@dataclass(slots=True)
class RollEntry:
    seq: int
    table: int
    roller: str  # the chair credited
    ghost: bool
    dice: tuple[int, ...]
    kind: str
    points: int
    actor: str
    rolled_by: str = ""  # who rolled it: a ghost's partner for a ghost
    quick: str = ""  # the button it was entered with (its dice only stand for it), or ""


class Conflict(IllegalMove):
    """A later event no longer fits once an earlier one is taken back."""

    def __init__(self, event: Event, reason: str):
        super().__init__(reason)
        self.event = event


def tables_to_data(tables: Iterable[TableSpec]) -> list[dict]:
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


class TableIndex:
    """The latest round's rolls and events by table, caught up as the lists grow: a bell draws
    every table, and each table's last rolls, finishes and undo are then one lookup instead of
    a pass over the whole round (thousands of rolls at a hundred tables). Built again if the
    lists were replaced or shortened."""

    def __init__(self, rolls: list[RollEntry], events: list[Event]):
        self.source = (rolls, events)
        self.seen = [0, 0]
        self.last: list[object] = [None, None]
        self.rolls: dict[int, list[RollEntry]] = {}
        self.events: dict[int, list[Event]] = {}

    def fits(self, rolls: list[RollEntry], events: list[Event]) -> bool:
        """Whether these are the lists indexed, only grown since."""
        for n, (indexed, now) in enumerate(zip(self.source, (rolls, events), strict=True)):
            seen = self.seen[n]
            if indexed is not now or len(now) < seen or (seen and now[seen - 1]
                                                         is not self.last[n]):
                return False
        return True

    def catch_up(self) -> None:
        for n, (lst, by_table) in enumerate(zip(self.source, (self.rolls, self.events),
                                                strict=True)):
            seen = self.seen[n]
            if len(lst) == seen:
                continue
            for item in lst[seen:]:
                if item.table is not None:
                    by_table.setdefault(item.table, []).append(item)
            self.seen[n], self.last[n] = len(lst), lst[-1]


class LiveNight:
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
        self.table_seq: dict[int, int] = {}  # table -> seq of the last event that changed it
        self.room_seq = 0  # seq of the last event that changed every screen
        # seq of the last event that changed the seats, results, scorecards or standings (each
        # phone's own fragment, the TV's room parts): not a bell or a pause
        self.seats_seq = 0
        self.closed_by: int | None = None  # the event that closed the latest round
        self.bell_by: int | None = None  # the event that rang the latest round's bell
        self.room_set: int | None = None  # the set of the round in play
        self.fuzzy_moved: tuple[int, ...] = ()  # tables the latest event moved the fuzzy die
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
        holder_before = self.last_bunco
        if event.kind == Kind.VOID:
            if self.ended:
                raise IllegalMove("the night has ended; its rounds can no longer be changed")
            seqs = set(void_targets(event))
            state = self._planned_replay(self.voided | seqs) or self.replayed(self.voided | seqs)
            state.round_events.append(event)
            state._touch(event, tables={e.table for e in self.round_events
                                        if e.seq in seqs and e.table is not None})
            # Every screen changes if the round's shape did, or if the replay moved something
            # room-wide (a bell now rung by a later roll than the entry taken back).
            if (state.shape() != self.shape() or state.room_seq != self.room_seq
                    or state.pods_rung() != self.pods_rung()):
                state.room_seq = event.seq
            # Players' own seats and results change only when a round closes or reopens (a
            # bell taken back changes the banner and the tables, not the seats).
            if (state.phase, state.closed_by) != (self.phase, self.closed_by):
                state.seats_seq = event.seq
            state.seq = event.seq
            state._fuzzy_moved(event, self.fuzzy_die_table(), holder_before)
            return state
        table_before = (self.fuzzy_die_table()
                        if self.rules.fuzzy_die and event.kind == Kind.ROLL else None)
        self._apply(event)
        if self.round_events and event.kind != Kind.ROUND_STARTED:
            self.round_events.append(event)
        if event.kind not in TABLE_KINDS | QUIET_KINDS:
            self.room_seq = event.seq  # anything but a table's own tap changes every screen
            if event.kind not in SEATS_KEPT:
                self.seats_seq = event.seq
        self.seq = event.seq
        self._fuzzy_moved(event, table_before, holder_before)
        return self

    def _fuzzy_moved(self, event: Event, table_before: int | None,
                     holder_before: RollEntry | None) -> None:
        """When a roll or a take-back passes the fuzzy die, the table it left changes too."""
        self.fuzzy_moved = ()
        after = self.last_bunco
        if not self.rules.fuzzy_die or (after and after.seq) == (holder_before and
                                                                 holder_before.seq):
            return
        moved = {t for t in (table_before, self.fuzzy_die_table()) if t is not None}
        for number in moved:
            self.table_seq[number] = event.seq
        self.fuzzy_moved = tuple(sorted(moved))

    def pods_rung(self) -> tuple[bool, ...]:
        return tuple(self.room.pod_rung) if self.room else ()

    @property
    def changed_everything(self) -> bool:
        """Whether the latest event changed what every screen shows (not just one table)."""
        return self.room_seq == self.seq

    def _apply(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None:
            raise IllegalMove(f"unknown event {event.kind!r}")
        handler(event)

    def _touch(self, event: Event, tables: Iterable[int] = ()) -> None:
        for number in tables:
            self.positions[number] = self.positions.get(number, 0) + 1
            self.table_seq[number] = event.seq

    def _room_changed(self, event: Event) -> None:
        self.room_seq = event.seq

    # -- corrections -------------------------------------------------------------------------

    def replayed(self, skip: set[int]) -> LiveNight:
        """The latest round replayed from its checkpoint without the events in ``skip``.
        Raises Conflict naming the first later event that no longer fits."""
        if not self.round_events or self.checkpoint is None:
            raise IllegalMove("only the round in play (or the one just closed) can be corrected")
        known = {e.seq: e for e in self.round_events}
        for seq in skip - self.voided:
            target = known.get(seq)
            if target is None:
                raise IllegalMove("only the round in play (or the one just closed, until the "
                                  "next round starts) can be corrected")
            if target.kind not in CORRECTABLE | REOPEN_TAKES:
                raise IllegalMove(f"#{seq} is not a roll, a bell or a table's finish")
        new = LiveNight(self.rules, name=self.name, rules_id=self.rules_id,
                        entry_fee_cents=self.entry_fee_cents, pot_cents=self.pot_cents)
        new.roster, new.left = list(self.roster), set(self.left)
        new.check_in_closes = self.check_in_closes
        if self.checkpoint_desk:  # a check-in during the round is replayed with it
            roster, expected, drawn, waiting = self.checkpoint_desk
            new.roster, new.expected = list(roster), set(expected)
            new.drawn, new.waiting = dict(drawn), list(waiting)
            new.checkpoint_desk = self.checkpoint_desk
        new.roll_offs, new.revealed = dict(self.roll_offs), self.revealed
        new.splits = set(self.splits)
        new.practices = self.practices
        new.night = self.checkpoint.copy()
        new.last_bunco = self.checkpoint_bunco
        new.voided = set(self.voided) | skip
        start = self.round_events[0].seq
        new.all_rolls = {s: r for s, r in self.all_rolls.items() if s < start}
        new.table_seq = dict(self.table_seq)
        new.room_seq, new.seats_seq = self.room_seq, self.seats_seq
        for event in self.round_events:
            if event.seq in new.voided or event.kind == Kind.VOID:
                new.round_events.append(event)
                if event.kind == Kind.VOID:
                    targets = set(void_targets(event))
                    new._touch(event, {e.table for e in self.round_events
                                       if e.seq in targets and e.table is not None})
                else:
                    new._touch(event, [event.table] if event.kind in TABLE_KINDS else [])
                new.seq = event.seq
                continue
            try:
                new.apply(event)
            except IllegalMove as exc:
                raise Conflict(event, str(exc)) from None
        # What screens were last sent never goes back: a replay recomputes these from the
        # round's events, but an earlier correction may have moved them further on.
        new.room_seq = max(new.room_seq, self.room_seq)
        new.seats_seq = max(new.seats_seq, self.seats_seq)
        for number, seq in self.table_seq.items():
            new.table_seq[number] = max(new.table_seq.get(number, 0), seq)
        new.seq = self.seq
        return new

    def rewound(self) -> LiveNight | None:
        """The state before its latest event, replayed from the round's checkpoint (for a
        write that failed after the fold moved on); None when that event was not a round's."""
        if len(self.round_events) < 2 or self.round_events[-1].seq != self.seq:
            return None
        last = self.round_events.pop()
        try:
            state = self.replayed(self.voided - {last.seq})
        except IllegalMove:
            return None
        state.seq = self.round_events[-1].seq
        return state

    def plan_void(self, seq: int) -> tuple[list[int], LiveNight]:
        """Taking back ``seq``: every event it takes back (``seq`` and any later bell, finish
        or roll that no longer fits without it) and the night after. Refuses when a later
        event that is not play (a late arrival, say) depends on it."""
        if seq in self.voided:
            raise IllegalMove(f"#{seq} was already taken back")
        skip = {seq}
        while True:
            try:
                state = self.replayed(self.voided | skip)
            except Conflict as conflict:
                if conflict.event.kind not in CORRECTABLE | REOPEN_TAKES:
                    raise IllegalMove(
                        "players changed after that round closed, so it can no longer be "
                        "reopened") from None
                skip.add(conflict.event.seq)
                continue
            # The take-back that follows the plan replays the same round again: it takes
            # this one instead, once, if nothing has moved the night on in between.
            self._planned = (self.seq, frozenset(self.voided | skip), state)
            return sorted(skip), state

    def _planned_replay(self, skip: set[int]) -> LiveNight | None:
        planned, self._planned = getattr(self, "_planned", None), None
        if planned is not None and planned[:2] == (self.seq, frozenset(skip)):
            return planned[2]
        return None

    # -- the handlers ------------------------------------------------------------------------

    def _on_created(self, event: Event) -> None:
        self._setup(event.data)

    def _on_rules(self, event: Event) -> None:
        if self.started or self.ended:
            raise IllegalMove("the house rules are fixed once the first round has started")
        self._setup(event.data)
        if self.night is not None:  # seated: the same chairs under the new rules
            self.night = Night.from_tables(self.rules, list(self.night.tables))
        self._room_changed(event)

    def _setup(self, data: Mapping) -> None:
        if "rules" in data:
            self.rules = HouseRules.from_dict(data["rules"])
        self.name = data.get("name", self.name)
        self.rules_id = data.get("rules_id", self.rules_id)
        self.entry_fee_cents = data.get("entry_fee_cents", self.entry_fee_cents)

    def _on_prizes(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has ended: its prizes are settled")
        data = event.data
        self.rules = self.rules.replace(awards=data["awards"], award_ties=data["award_ties"],
                                        one_prize_per_person=data["one_prize_per_person"])
        self.pot_cents = data.get("pot_cents")
        if self.night is not None:
            self.night.rules = self.rules
        self._room_changed(event)

    def _on_added(self, event: Event) -> None:
        if self.seated:
            raise IllegalMove("players are already seated; clear the seating to add players")
        taken = set(self.roster)
        for name in event.data["names"]:
            if name in taken:
                raise IllegalMove(f"{name} is already checked in")
            taken.add(name)
        self.roster.extend(event.data["names"])
        if event.data.get("expected"):  # pre-registered: they check in at the desk
            self.expected.update(event.data["names"])

    def _on_removed(self, event: Event) -> None:
        if self.seated:
            raise IllegalMove("players are already seated")
        name = event.data["name"]
        if name not in self.roster:
            raise IllegalMove(f"{name} is not checked in")
        self.roster.remove(name)
        self.expected.discard(name)
        self.drawn.pop(name, None)

    def _on_seated(self, event: Event) -> None:
        if self.started or self.ended:
            raise IllegalMove("seats can only change before the first round starts")
        self.night = Night.from_tables(self.rules, tables_from_data(event.data["tables"]))
        self.waiting = [n for n in self.waiting if n not in self.night.stats]
        self._room_changed(event)

    def _on_round_started(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players before starting a round")
        if self.room is not None:
            raise IllegalMove("a round is already being played")
        if self.night.finished:
            raise IllegalMove("every set has been played; end the night for the prizes")
        practice = bool(event.data.get("practice"))
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
        self.play_ends = event.data.get("play_ends")
        self.next_at = event.data.get("next_at")
        self.paused_at, self.horn = None, False
        self._room_changed(event)

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

    def _on_roll(self, event: Event) -> None:
        table = self._table(event)
        dice = tuple(event.data.get("dice", ()))
        spec = table.spec
        if event.chair:
            chair = spec.index_of(event.chair)
        elif not table.done:  # an old row that did not record its roller: the turn's chair
            chair = table.current
        else:
            raise IllegalMove(f"table {event.table} has finished this round")
        seat = spec.seats[chair]
        rung_before = list(self.room.pod_rung)
        score = self.room.roll(event.table - 1, dice, seat=chair)
        entry = RollEntry(
            seq=event.seq, table=event.table, roller=seat.name, ghost=seat.ghost, dice=dice,
            kind=score.kind if score else "die", points=score.points if score else 0,
            actor=event.actor, rolled_by=event.player or spec.seats[spec.roller_of(chair)].name,
            quick=str(event.data.get("quick") or ""),
        )
        self.rolls.append(entry)
        self.all_rolls[entry.seq] = entry
        if entry.kind == "bunco" and not entry.ghost:
            self.last_bunco = entry
        self._touch(event, [event.table])
        if self.room.bell_rung:
            if not all(rung_before):
                self.bell_by = event.seq
                self._room_changed(event)
        elif self.room.pod_rung != rung_before:  # one pod's bell: its tables, not the room
            for index in self.room.pods[self.room.pod_of[event.table - 1]]:
                self.table_seq[index + 1] = event.seq  # as the room's bell: no new position
        self._close_if_done(event)

    def _on_finish(self, event: Event) -> None:
        self._table(event).finish()
        self._touch(event, [event.table])
        self._close_if_done(event)

    def _on_bell(self, event: Event) -> None:
        room = self._playing()
        if room.bell_rung:
            raise IllegalMove("the bell has already rung this round")
        room.ring_bell()
        self.bell_by = event.seq
        self.horn = bool(event.data.get("horn"))
        self._room_changed(event)
        self._close_if_done(event)

    def _on_night_ended(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has already ended")
        self.ended = True
        self.room = None  # a round cut short by the end of the night does not count
        self.break_ends = None
        self._room_changed(event)

    def _between_rounds(self) -> Night:
        if self.ended:
            raise IllegalMove("the night has ended")
        if self.night is None:
            raise IllegalMove("seat the players first")
        if self.room is not None:
            raise IllegalMove("wait for this round to end: changes take effect from the next "
                              "round")
        return self.night

    def _on_arrived(self, event: Event) -> None:
        name = event.data["name"]
        if name in self.expected:
            raise IllegalMove(f"{name} is expected: they check in at the desk")
        self._between_rounds().substitute(event.data["ghost"], Seat(name))
        if name in self.waiting:  # checked in earlier, waiting for a chair
            self.waiting.remove(name)
        else:
            self.roster.append(name)
        self._room_changed(event)

    def _on_checked_in(self, event: Event) -> None:
        """A guest at the desk: a pre-registered one (``new``: a walk-in, added to the list).
        Before the seating they draw a table (``table``); after it they take a ghost's chair
        (``ghost``) or, with none free or a round in play, wait for one."""
        data = event.data
        name = data["name"]
        if data.get("new"):
            if name in self.roster:
                raise IllegalMove(f"{name} is already on tonight's list")
        elif name not in self.expected:
            raise IllegalMove(f"{name} is not expected at the desk" if name not in self.roster
                              else f"{name} has already checked in")
        if self.ended:
            raise IllegalMove("the night has ended")
        ghost, table = data.get("ghost"), data.get("table")
        if table is not None and self.seated:
            raise IllegalMove("the room is seated: no more tables are drawn")
        if ghost:
            self._between_rounds().substitute(ghost, Seat(name))
        if table is not None:
            self.drawn[name] = int(table)
        if data.get("new"):
            self.roster.append(name)
        self.expected.discard(name)
        if self.seated and not ghost:
            self.waiting.append(name)
        if ghost:
            self._room_changed(event)
            self.seats_seq = event.seq  # a guest takes a ghost's chair: a seat changed

    def _on_desk(self, event: Event) -> None:
        self.check_in_closes = event.data.get("closes_at") or None

    def _on_left(self, event: Event) -> None:
        if event.data["name"] in self.waiting:  # never had a chair: nobody takes it
            self.waiting.remove(event.data["name"])
            self.left.add(event.data["name"])
            return
        night = self._between_rounds()
        night.substitute(event.data["name"], Seat(event.data["ghost"], ghost=True))
        self.left.add(event.data["name"])
        self._room_changed(event)

    def _on_break(self, event: Event) -> None:
        """The host's break between rounds (a set's end, say). The event carries when it ends,
        so the fold needs no clock; the next bell ends it, or a break of 0 minutes."""
        self._between_rounds()
        minutes = event.data.get("minutes", 0)
        if minutes:
            self.break_minutes, self.break_ends = minutes, int(event.data["ends_at"])
        elif self.break_ends is None:
            raise IllegalMove("there is no break to end")
        else:
            self.break_minutes, self.break_ends = 0, None
        self._room_changed(event)

    def _on_claimed(self, event: Event) -> None:
        pass  # which phone a player is on changes no score, seat or screen

    def _on_released(self, event: Event) -> None:
        pass

    def _on_renamed(self, event: Event) -> None:
        old, new = event.data["old"], event.data["new"]
        if self.night is None or (old not in self.night.stats and old in self.roster):
            # not seated yet, or not here yet
            if old not in self.roster:
                raise IllegalMove(f"nobody called {old} is checked in")
            self.roster[self.roster.index(old)] = new
            self._rename_at_desk(old, new)
            return
        self.night.rename(old, new)
        self._rename_at_desk(old, new)
        if self.room is not None:
            self.room.rename(old, new)
        for entry in self.rolls:
            if entry.roller == old:
                entry.roller = new
            if entry.rolled_by == old:
                entry.rolled_by = new
        self.roster = [new if n == old else n for n in self.roster]
        self.left = {new if n == old else n for n in self.left}
        self._room_changed(event)

    def _rename_at_desk(self, old: str, new: str) -> None:
        if old in self.expected:
            self.expected = (self.expected - {old}) | {new}
        if old in self.drawn:
            self.drawn[new] = self.drawn.pop(old)
        self.waiting = [new if n == old else n for n in self.waiting]

    def _on_paused(self, event: Event) -> None:
        self._playing()
        if self.paused:
            raise IllegalMove("the game is already paused")
        self.paused = True
        self.paused_at = event.data.get("at")
        self._room_changed(event)

    def _on_resumed(self, event: Event) -> None:
        if not self.paused:
            raise IllegalMove("the game is not paused")
        self.paused = False
        at = event.data.get("at")
        if at is not None and self.paused_at is not None:  # the clock stood still meanwhile
            stood = max(0, at - self.paused_at)
            self.play_ends = self.play_ends and self.play_ends + stood
            self.next_at = self.next_at and self.next_at + stood
        self.paused_at = None
        self._room_changed(event)

    def _tie_decidable(self, category: str) -> None:
        """A night's prize ties are settled after the night ends; a set's once the set is
        over (its key names the set)."""
        night = self.night
        for number in range(1, self.rules.sets + 1):
            if category.startswith(set_key(number, "")):
                if night is None or not night.set_finished(number):
                    raise IllegalMove(f"set {number} is not over yet")
                return
        if not self.ended:
            raise IllegalMove("roll-offs for prizes come after the night has ended")

    def _on_roll_off(self, event: Event) -> None:
        category = event.data["category"]
        self._tie_decidable(category)
        if event.data.get("split"):
            self.splits = self.splits | {category}
            self.roll_offs = {k: v for k, v in self.roll_offs.items() if k != category}
        else:
            self.roll_offs = {**self.roll_offs, category: event.data["winner"]}
            self.splits = self.splits - {category}
        self._room_changed(event)

    def _on_revealed(self, event: Event) -> None:
        if not self.ended:
            raise IllegalMove("prizes are revealed after the night has ended")
        count = event.data["count"]
        if not 0 <= count <= len(self.rules.awards):
            raise IllegalMove("there is no such prize to reveal")
        self.revealed = count
        self._room_changed(event)

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
        self._room_changed(event)
        self.seats_seq = event.seq  # results, next seats, scorecards


def void_targets(event: Event) -> list[int]:
    """The events a void takes back (older rows name a single ``seq``)."""
    data = event.data
    return list(data["seqs"]) if "seqs" in data else [data["seq"]]


def fold(rules: HouseRules, events: Iterable[Event], **setup) -> LiveNight:
    """Replay a whole log from the start. Any event that no longer fits raises."""
    state = LiveNight(rules, **setup)
    for event in events:
        state = state.apply(event)
    return state
