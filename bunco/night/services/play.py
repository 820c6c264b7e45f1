"""Running the night: seating, the rounds and their bell, the clock, pauses and breaks, the
host's take-backs and the end (a table's own taps: ``table.py``).

These are commands that race: many screens ring or time out at once, and one may arrive late
or twice. Each names the round it was meant for and is checked against the night as it is
now (``table.check_round``), so a late or repeated one is answered, never applied twice or in
the wrong round. The clock's deeds carry a key per round, so the first screen whose countdown
ends does it and the rest are told it is done.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night.cache import folds, live_state
from bunco.night.fold import (
    CORRECTABLE,
    PRACTICE_SET,
    Event,
    Kind,
    LiveNight,
    tables_from_data,
    tables_to_data,
)
from bunco.night.names import find
from bunco.night.payloads import Bell, Break, Paused, Resumed, RoundStarted, Seated, Void
from bunco.night.services.runner import (
    Ack,
    Command,
    CommandRefused,
    _refuse_on_domain_errors,
    run,
    where,
)
from bunco.night.services.table import check_round, claimed_set, round_name
from scoring import IllegalMove, seat_night
from scoring.seating import ghosts_partnered, seat_drawn


@dataclass(frozen=True)
class SeatNight(Command):
    """Seat everyone who is here at random (or by the starred-sheets draw); ghosts fill the
    gaps. Guests who drew a table at the desk keep it where they can (``seat_drawn``);
    pre-registered guests who have not come are left out (they can still check in later and
    take a ghost's chair)."""

    rng: random.Random

    def event(self, state: LiveNight) -> dict:
        names = state.here()
        state.rules.check_player_count(len(names))
        here = set(names)
        drawn = {n: t for n, t in state.drawn.items() if n in here}
        tables = (seat_drawn(state.rules, names, drawn, self.rng) if drawn
                  else seat_night(state.rules, names, self.rng))
        return {"kind": Kind.SEATED, "data": Seated(tuple(tables))}

    def write(self, night: Night, row: ScoreEvent) -> None:
        # The links exist before anyone is told about the seating.
        for number in range(1, len(row.data["tables"]) + 1):
            TableLink.objects.get_or_create(night=night, number=number)


@_refuse_on_domain_errors
def night_seat(*, night: Night, key=None, actor: str = "host",
               rng: random.Random | None = None) -> ScoreEvent:
    return run(night, SeatNight(rng or random.Random()), key=key, actor=actor).row


@dataclass(frozen=True)
class SwapSeats(Command):
    """Swap two people's chairs before the first round."""

    first: str
    second: str

    def event(self, state: LiveNight) -> dict:
        if not state.seated:
            raise IllegalMove("seat the players first")
        data = tables_to_data(state.tables)
        chairs = {s["name"]: s for t in data for s in t["seats"]}
        # In a big room the host types the names: as they look on a screen will do.
        names = [find(chairs, n or "") or n for n in (self.first, self.second)]
        for name in names:
            if name not in chairs:
                raise IllegalMove(f"nobody called “{name}” is seated tonight")
        if names[0] == names[1]:
            raise IllegalMove("pick two different seated people to swap")
        a, b = chairs[names[0]], chairs[names[1]]
        a["name"], b["name"] = b["name"], a["name"]
        a["ghost"], b["ghost"] = b["ghost"], a["ghost"]
        tables = tuple(tables_from_data(data))
        if any(ghosts_partnered(spec) for spec in tables):
            raise IllegalMove("that swap would make two ghosts partners")
        return {"kind": Kind.SEATED, "data": Seated(tables)}


@_refuse_on_domain_errors
def seats_swap(*, night: Night, first: str, second: str, key=None,
               actor: str = "host") -> ScoreEvent:
    return run(night, SwapSeats(first, second), key=key, actor=actor).row


@dataclass(frozen=True)
class StartRound(Command):
    """The head table's bell that starts a round. ``round_number``/``set_number`` name the
    round the host's page offered: a second press for a round that has started is answered,
    not applied. A ``practice`` round, before round 1, is played like round 1 and counts for
    nothing (the night is as it was before it). The break is the host's: a ``phone``'s bell
    starts nothing until the host ends it or its time is up (the host's own bell ends it)."""

    round_number: int | None = None
    set_number: int | None = None
    practice: bool = False
    now: float | None = None
    phone: bool = False

    def event(self, state: LiveNight) -> dict | Ack:
        if self.practice:
            return self._practice(state)
        if (self.phone and state.break_ends is not None
                and _epoch_ms(self.now) + CLOCK_SLACK_MS < state.break_ends):
            raise IllegalMove("The host has called a break: ring the bell when the break is "
                              "over.")
        if state.practice:
            raise IllegalMove("the practice round is still being played: ring the bell to "
                              "end it, then start round 1")
        claimed = (claimed_set(state, self.set_number), self.round_number)
        if (self.round_number is not None and state.room is not None
                and claimed == (state.room_set, state.room.round_number)):
            return Ack(None, applied=False, state=state, duplicate=True,
                       message=f"{round_name(*claimed, state.rules.sets).capitalize()} has "
                               "already started")
        if self.round_number is not None and state.night is not None and claimed != (
                state.set_number, state.round_number):
            raise IllegalMove(f"that bell was for {round_name(*claimed, state.rules.sets)}, "
                              "which has been played")
        return {"kind": Kind.ROUND_STARTED, **where(state),
                "data": _clock(state.rules, self.now)}

    def _practice(self, state: LiveNight) -> dict | Ack:
        if state.practice:
            return Ack(None, applied=False, state=state, duplicate=True,
                       message="The practice round has already started")
        if state.phase != "ready":
            raise IllegalMove("a practice round comes before round 1 starts")
        return {"kind": Kind.ROUND_STARTED, "set_number": PRACTICE_SET,
                "round_number": state.round_number,
                "data": _clock(state.rules, self.now, practice=True)}


@_refuse_on_domain_errors
def round_start(*, night: Night, key=None, actor: str = "host",
                round_number: int | None = None, set_number: int | None = None,
                practice: bool = False, now: float | None = None, phone: bool = False) -> Ack:
    return run(night, StartRound(round_number, set_number, practice, now, phone), key=key,
               actor=actor)


@dataclass(frozen=True)
class RingBell(Command):
    """The host's bell (or horn) that ends the round in play at every table."""

    round_number: int | None = None
    set_number: int | None = None

    def event(self, state: LiveNight) -> dict:
        check_round(state, self.set_number, self.round_number, what="that bell")
        return {"kind": Kind.BELL, **where(state), "data": Bell()}


@_refuse_on_domain_errors
def bell_ring(*, night: Night, key=None, actor: str = "host",
              round_number: int | None = None, set_number: int | None = None) -> Ack:
    return run(night, RingBell(round_number, set_number), key=key, actor=actor)


@dataclass(frozen=True)
class Pause(Command):
    """Pause play; the clock (if the rules run one) stands still until play resumes."""

    now: float | None = None

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.PAUSED, **where(state), "data": Paused(_epoch_ms(self.now))}


@dataclass(frozen=True)
class Resume(Pause):
    """Play on after a pause; the clock moves on by the pause's length."""

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.RESUMED, **where(state), "data": Resumed(_epoch_ms(self.now))}


@_refuse_on_domain_errors
def game_pause(*, night: Night, key=None, now: float | None = None) -> ScoreEvent:
    return run(night, Pause(now), key=key).row


@_refuse_on_domain_errors
def game_resume(*, night: Night, key=None, now: float | None = None) -> ScoreEvent:
    return run(night, Resume(now), key=key).row


def _epoch_ms(now: float | None = None) -> int:
    return round((time.time() if now is None else now) * 1000)


def _clock(rules, now: float | None, practice: bool = False) -> RoundStarted:
    """A round's start with its clock: when the horn ends play and when the next round starts
    by itself (epoch ms); no clock when the rules run none."""
    if not rules.play_seconds:
        return RoundStarted(practice)
    play_ends = _epoch_ms(now) + rules.play_seconds * 1000
    next_at = play_ends + rules.move_seconds * 1000 if rules.move_seconds else None
    return RoundStarted(practice, play_ends, next_at)


#: How early a screen's "time's up" is taken (its clock may run a little ahead of ours).
CLOCK_SLACK_MS = 1000


@dataclass(frozen=True)
class ClockDue(Command):
    """A screen's countdown reached zero: ``what`` is "horn" (play is over: a bell at every
    table) or "next" (the move time is over: the next round starts). Many screens say so at
    once; the first one does it, the rest are answered "already done". Early, or for another
    round, it changes nothing."""

    what: str
    set_number: int | None
    round_number: int | None
    now: float | None = None

    def event(self, state: LiveNight) -> dict | Ack:
        claimed = (claimed_set(state, self.set_number), self.round_number)
        done = Ack(None, applied=False, state=state, duplicate=True, message="Already done")
        now_ms = _epoch_ms(self.now)
        if state.ended or state.paused:
            return done
        room = state.room
        if self.what == "horn":
            if room is None or claimed != (state.room_set, room.round_number) \
                    or room.bell_rung or state.play_ends is None:
                return done
            if now_ms + CLOCK_SLACK_MS < state.play_ends:
                raise IllegalMove("the clock has not run out yet")
            return {"kind": Kind.BELL, **where(state), "data": Bell(horn=True)}
        if (state.next_at is None or state.phase != "between_rounds"
                or state.break_ends is not None  # the host called a break: the bell ends it
                or claimed != (state.set_number, state.round_number)):
            return done
        if now_ms + CLOCK_SLACK_MS < state.next_at:
            raise IllegalMove("the move time is not over yet")
        return {"kind": Kind.ROUND_STARTED, **where(state),
                "data": _clock(state.rules, self.now)}


@_refuse_on_domain_errors
def clock_due(*, night: Night, what: str, set_number: int | None, round_number: int | None,
              now: float | None = None) -> Ack:
    if what not in ("horn", "next"):
        raise CommandRefused("the clock only sounds the horn or starts the next round")
    # One key per round and deed: screens racing each other (or two workers) write it once.
    # The round is named by its start in the log (two practice rounds share a number).
    seen = live_state(night)
    start = seen.round_events[0].seq if seen.round_events else 0
    key = uuid.uuid5(uuid.NAMESPACE_URL, f"bunco:{night.pk}:clock:{what}:{start}")
    return run(night, ClockDue(what, set_number, round_number, now), key=key,
               actor="the clock")


#: How long a break may be, in minutes.
BREAK_MINUTES = (1, 60)


@dataclass(frozen=True)
class StartBreak(Command):
    """A break between rounds (between sets, say): every screen counts down its minutes and
    says what comes next. The next bell ends it; ``minutes`` 0 ends it early (``break_end``)."""

    minutes: int
    ends_at: int | None = None  # epoch ms

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.BREAK, **where(state), "data": Break(self.minutes, self.ends_at)}


@_refuse_on_domain_errors
def break_start(*, night: Night, minutes: int, key=None, now: float | None = None) -> Ack:
    low, high = BREAK_MINUTES
    if not low <= minutes <= high:
        raise CommandRefused(f"a break lasts {low} to {high} minutes")
    ends_at = round(((time.time() if now is None else now) + minutes * 60) * 1000)
    return run(night, StartBreak(minutes, ends_at), key=key)


@_refuse_on_domain_errors
def break_end(*, night: Night, key=None) -> Ack:
    """End the break early: the screens go back to the next round's seats."""
    return run(night, StartBreak(0), key=key)


# -- the host's take-backs ----------------------------------------------------------------------

def take_back_target(state: LiveNight, what: str | int) -> Event:
    """The event a take-back names: a sequence number, ``bell`` (the host's bell, or the roll
    that rang it) or ``close`` (the entry that closed the round)."""
    if what == "bell":
        if state.bell_by is None:
            raise IllegalMove("no bell has rung this round")
        return state.event(state.bell_by)
    if what == "close":
        if state.closed_by is None or state.room is not None:
            raise IllegalMove("no round has closed since the last bell")
        return state.event(state.closed_by)
    try:
        seq = int(what)
    except (TypeError, ValueError):
        raise IllegalMove("pick an entry to take back") from None
    event = state.event(seq)
    if event is None:
        raise IllegalMove(f"#{seq} is not in the round in play (or the one just closed); "
                          "earlier rounds can no longer be changed")
    if event.kind not in CORRECTABLE:
        raise IllegalMove(f"#{seq} is not a roll, a bell or a table's finish")
    if seq in state.voided:
        raise IllegalMove(f"#{seq} was already taken back")
    return event


@dataclass
class TakeBack:
    """What taking back an entry would change, for the host to confirm."""

    target: Event
    seqs: list[int]
    before: LiveNight
    after: LiveNight


def take_back_preview(*, night: Night, what: str | int) -> TakeBack:
    with folds.lock(night.pk):
        state = live_state(night)
        try:
            target = take_back_target(state, what)
            seqs, after = state.plan_void(target.seq)
        except IllegalMove as exc:
            raise CommandRefused(str(exc)) from None
    return TakeBack(target, seqs, state, after)


@dataclass(frozen=True)
class TakeBackEntry(Command):
    """The host takes back an entry of the round in play (or of the round just closed, until
    the next round starts): a roll, the bell, a table's "done", or the entry that closed the
    round. Later bells, rolls and "done"s that no longer fit without it go with it, as the
    preview showed. ``what``: a seq, "bell" or "close" (``take_back_target``)."""

    what: int | str

    def event(self, state: LiveNight) -> dict:
        target = take_back_target(state, self.what)
        seqs, _ = state.plan_void(target.seq)
        return {"kind": Kind.VOID, "table": target.table, **where(state),
                "data": Void(tuple(seqs))}


@_refuse_on_domain_errors
def event_void(*, night: Night, seq: int | str, key=None, actor: str = "host") -> Ack:
    return run(night, TakeBackEntry(seq), key=key, actor=actor)
