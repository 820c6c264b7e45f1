"""Guests arriving: the check-in desk and the host's late arrival.

What an arrival does depends on the moment of the night (before the seating a drawn table,
after it a ghost's chair or a wait for one, after the closing time nothing), and the desk and
the host's page must never disagree on it, so one event builder (``_desk_event``) decides for
both. See docs/check-in.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from bunco.models import Night, Person, Player, ScoreEvent
from bunco.night.cache import live_state
from bunco.night.fold import Kind, LiveNight
from bunco.night.names import find
from bunco.night.payloads import Arrived, CheckedIn, Desk
from bunco.night.selectors import CheckIn, check_in_status
from bunco.night.services.roster import _new_names, person_at, players_add
from bunco.night.services.runner import (
    Ack,
    Command,
    CommandRefused,
    _refuse_on_domain_errors,
    _when,
    run,
)
from scoring import IllegalMove, RulesError
from scoring.seating import draw_table, draws_tables


def _closes(state: LiveNight):
    return _when(state.check_in_closes)


def check_in_closed_message(closes_at) -> str:
    at = timezone.localtime(closes_at).strftime("%H:%M")
    return (f"Check-in closed at {at}: nobody more is checked in. To let guests in again, "
            "press “Reopen check-in” on the desk page (or set a later closing time).")


def _desk_event(state: LiveNight, name: str, now, rng: random.Random, *,
                new: bool = False) -> dict:
    """A guest's check-in: before the seating they draw a table (when the rules seat tables
    of four at random); after it they take the first ghost's chair, or wait for one."""
    closes = _closes(state)
    if closes is not None and now >= closes:
        raise IllegalMove(check_in_closed_message(closes))
    if state.ended:
        raise IllegalMove("the night has ended: nobody more is checked in")
    table = ghost = None
    if not state.seated:
        listed = len(state.roster) + (1 if new else 0)
        if draws_tables(state.rules, listed):
            table = draw_table(list(state.drawn.values()), listed, rng)
    elif state.room is None:
        ghost = state.next_ghost()
    return {"kind": Kind.CHECKED_IN,
            "data": CheckedIn(name, now.isoformat(), new, table, ghost)}


@dataclass(frozen=True)
class CheckGuestIn(Command):
    """A pre-registered guest at the desk (a second time: answered, nothing changes)."""

    player: Player
    now: datetime
    rng: random.Random

    def event(self, state: LiveNight) -> dict | Ack:
        name = Player.objects.filter(pk=self.player.pk).values_list("name", flat=True).first()
        if name is None:
            raise IllegalMove("that guest is not on tonight's list")
        if name not in state.expected:
            return Ack(None, applied=False, state=state, duplicate=True)
        return _desk_event(state, name, self.now, self.rng)

    def write(self, night: Night, row: ScoreEvent) -> None:
        player = self.player
        player.arrived_at, player.drawn_table = self.now, row.data.get("table")
        Player.objects.filter(pk=player.pk).update(arrived_at=self.now,
                                                   drawn_table=player.drawn_table)


@dataclass(frozen=True)
class NewGuest(Command):
    """A guest who is not on the list: added, and here from ``now`` (a walk-in at the desk
    checks in as the desk decides; a late arrival the host adds takes a ghost's chair)."""

    name: str
    position: int
    now: datetime
    rng: random.Random | None  # None: the host's late arrival, not the desk's walk-in
    person: Person | None = None
    made: list[Player] = field(default_factory=list, compare=False, repr=False)

    def event(self, state: LiveNight) -> dict:
        if self.rng is not None:
            return _desk_event(state, self.name, self.now, self.rng, new=True)
        ghost = state.next_ghost()
        if ghost is None:
            raise IllegalMove("there is no ghost's chair to take: every seat has a player")
        return {"kind": Kind.ARRIVED, "data": Arrived(self.name, ghost)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        self.made.append(Player.objects.create(
            night=night, name=self.name, position=self.position, arrived_at=self.now,
            person=self.person if self.rng is not None else person_at(night, self.name),
            drawn_table=row.data.get("table")))


@dataclass(frozen=True)
class SeatWaiting(Command):
    """The first guest waiting for a chair takes the next free ghost's (between rounds)."""

    def event(self, state: LiveNight) -> dict | Ack:
        if not state.waiting:
            return Ack(None, applied=False, state=state, duplicate=True)
        if state.room is not None:
            raise IllegalMove("wait for this round to end: guests take a ghost's chair "
                              "between rounds")
        ghost = state.next_ghost()
        if ghost is None:
            return Ack(None, applied=False, state=state, duplicate=True)
        return {"kind": Kind.ARRIVED, "data": Arrived(state.waiting[0], ghost)}


@dataclass(frozen=True)
class CloseCheckIn(Command):
    """When the desk stops checking guests in (an aware datetime), or None to reopen it."""

    closes_at: datetime | None

    def event(self, state: LiveNight) -> dict:
        closes = self.closes_at.isoformat() if self.closes_at is not None else None
        return {"kind": Kind.DESK, "data": Desk(closes)}


@_refuse_on_domain_errors
def player_check_in(*, night: Night, player: Player, now=None, key=None,
                    rng: random.Random | None = None) -> CheckIn:
    """A pre-registered guest at the desk. Checking in twice is harmless: the second time is
    answered with the first (``already``) and changes nothing."""
    if player.night_id != night.pk:
        raise CommandRefused("that guest is not on tonight's list")
    command = CheckGuestIn(player, now or timezone.now(), rng or random.SystemRandom())
    ack = run(night, command, key=key, actor="the desk")
    player.refresh_from_db()
    return check_in_status(player, ack.state, already=not ack.applied)


@_refuse_on_domain_errors
def walk_in_check_in(*, night: Night, name: str, now=None, key=None,
                     rng: random.Random | None = None) -> CheckIn:
    """A guest who is not on the list, added and checked in at the desk at once."""
    now = now or timezone.now()
    rng = rng or random.SystemRandom()
    existing = list(night.players.values_list("name", flat=True))
    try:
        (clean,) = _new_names(existing, [name])
    except RulesError as exc:
        raise CommandRefused(str(exc).removeprefix("players: ")) from None
    most = night.rules.player_limits[1]
    if len(existing) + 1 > most:
        raise CommandRefused(f"these house rules seat at most {most:,} players, and "
                             f"{len(existing):,} are on the list")
    command = NewGuest(clean, len(existing), now, rng, person_at(night, clean))
    ack = run(night, command, key=key, actor="the desk")
    return check_in_status(command.made[0], ack.state, already=False)


@_refuse_on_domain_errors
def waiting_seat(*, night: Night) -> list[str]:
    """Guests who checked in after the seating and wait for a chair take the free ghosts'
    chairs, in the order they came (between rounds). Returns who was seated."""
    seated: list[str] = []
    while True:
        ack = run(night, SeatWaiting())
        if not ack.applied:
            break
        seated.append(ack.row.data["name"])
    if not seated:
        state = live_state(night)
        if state.waiting:
            raise CommandRefused("no ghost's chair is free: every chair has a player. A chair "
                                 "frees up when a player goes home.")
        raise CommandRefused("nobody is waiting for a chair")
    return seated


@_refuse_on_domain_errors
def check_in_close(*, night: Night, closes_at, key=None) -> Night:
    """When the desk stops checking guests in (an aware datetime), or None to reopen it."""
    run(night, CloseCheckIn(closes_at), key=key)
    return night


@_refuse_on_domain_errors
def player_arrive(*, night: Night, name: str, key=None) -> Player:
    """A late arrival takes a ghost's chair from the next round on. A pre-registered guest's
    name checks them in, as the desk does."""
    state = live_state(night)
    expected = find(state.expected, name or "")
    if expected is not None:
        guest = night.players.get(name=expected)
        player_check_in(night=night, player=guest)
        return guest
    if not state.seated:
        (player,) = players_add(night=night, names=[name])
        return player
    existing = list(night.players.values_list("name", flat=True))
    (clean,) = _new_names(existing, [name])
    # Here from now on: their entry fee counts in the pot.
    command = NewGuest(clean, len(existing), timezone.now(), rng=None)
    run(night, command, key=key)
    return command.made[0]
