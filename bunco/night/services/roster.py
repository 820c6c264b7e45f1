"""Who plays tonight, and the people behind the names.

The night's list (pasted, renamed, removed, gone home) and the phone each player is on are
rows written in the same transaction as the log entry that names them, so they live beside
the commands that write them. A ``Person`` carries a player across nights (the season's
totals follow a person, not a spelling), which is why merging and splitting people is here
and not in the season's reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from bunco.models import Night, Person, Player, ScoreEvent
from bunco.night.cache import live_state
from bunco.night.fold import Kind, LiveNight
from bunco.night.names import new_names
from bunco.night.payloads import Added, Claimed, Left, Released, Removed, Renamed
from bunco.night.services.runner import (
    Ack,
    Command,
    CommandRefused,
    _refuse_on_domain_errors,
    run,
)
from scoring import IllegalMove
from scoring.seating import clean_names


def _new_names(existing: Sequence[str], names: Sequence[str]) -> list[str]:
    names = new_names(existing, (n for n in names if n.strip()))
    if not any(names):
        raise CommandRefused("type at least one name")
    return clean_names([*existing, *names])[len(existing):]


#: The most names one paste checks in (a charity night's whole roster).
MAX_PASTE = 2000
#: Names written per transaction, so a long paste never holds the write lock for long.
PASTE_CHUNK = 250


@dataclass(frozen=True)
class AddPlayers(Command):
    """Names checked in (or, ``expected``, listed to check in at the desk), before the
    seating: their rows, with the person each one is, written with the entry."""

    names: list[str]
    expected: bool
    offset: int  # how many players the list had before these
    known: dict[str, Person]  # names played under before, and whose they are
    arrived_at: datetime | None  # when they came (None: not yet)
    made: list[Player] = field(default_factory=list, compare=False, repr=False)

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.ADDED, "data": Added(tuple(self.names), self.expected)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        people = {} if night.demo else {
            **self.known, **new_people([n for n in self.names if n not in self.known])}
        self.made.extend(Player.objects.bulk_create([
            Player(night=night, name=n, position=self.offset + i, person=people.get(n),
                   expected=self.expected, arrived_at=self.arrived_at)
            for i, n in enumerate(self.names)]))


@_refuse_on_domain_errors
def players_add(*, night: Night, names: Sequence[str], expected: bool = False) -> list[Player]:
    """Check players in (a pasted list, one name a line), or with ``expected`` list
    pre-registered guests who check in at the desk when they come. Before the seating only.
    The whole list is checked first; then the rows are written in bulk, a few hundred a
    transaction, so even a charity night's roster holds the write lock only briefly at a
    time."""
    typed = [n for n in names if n.strip()]
    if len(typed) > MAX_PASTE:
        raise CommandRefused(f"that is {len(typed):,} names; paste at most {MAX_PASTE:,} at a "
                             "time")
    existing = list(night.players.values_list("name", flat=True))
    cleaned = _new_names(existing, typed)
    most = night.rules.player_limits[1]
    if len(existing) + len(cleaned) > most:
        raise CommandRefused(
            f"these house rules seat at most {most:,} players: {len(existing):,} are checked "
            f"in, so {len(cleaned):,} more is too many; nothing was added")
    # Read before the write lock is taken. A demo night's sample players are nobody's.
    known = {} if night.demo else known_people(cleaned)
    arrived_at = None if expected else timezone.now()
    created: list[Player] = []
    for start in range(0, len(cleaned), PASTE_CHUNK):
        command = AddPlayers(cleaned[start:start + PASTE_CHUNK], expected,
                             len(existing) + start, known, arrived_at)
        run(night, command)
        created.extend(command.made)
    return created


def known_people(names: Sequence[str]) -> dict[str, Person]:
    """The person each name belongs to, for names played under before: the one who last
    played under that name (case aside). A few queries for any number of names."""
    latest: dict[str, Person] = {}
    lowered = sorted({n.lower() for n in names})
    for start in range(0, len(lowered), 500):
        earlier = (Player.objects.filter(person__isnull=False, night__demo=False)
                   .annotate(low=Lower("name")).filter(low__in=lowered[start:start + 500])
                   .select_related("person").order_by("night__created_at", "pk"))
        latest.update({p.low: p.person for p in earlier})
    return {n: latest[n.lower()] for n in names if n.lower() in latest}


def new_people(names: Sequence[str]) -> dict[str, Person]:
    return {p.name: p for p in Person.objects.bulk_create([Person(name=n) for n in names])}


def person_for(name: str) -> Person:
    return known_people([name]).get(name) or new_people([name])[name]


def person_at(night: Night, name: str) -> Person | None:
    """The person a player added to ``night`` is: nobody on a demo night."""
    return None if night.demo else person_for(name)


@_refuse_on_domain_errors
def people_merge(*, keep: Person, other: Person) -> Person:
    """Two records of one person ("Kathy" and "Katherine"): everything moves to ``keep``."""
    if keep.pk == other.pk:
        raise CommandRefused("pick two different people to merge")
    with transaction.atomic():
        other.players.update(person=keep)
        other.delete()
    return keep


@_refuse_on_domain_errors
def player_split(*, player: Player) -> Person:
    """This player was someone else who shares the name: give them a person of their own."""
    if player.night.demo:
        raise CommandRefused("a demo night's sample players are not in the season")
    with transaction.atomic():
        person = Person.objects.create(name=player.name)
        player.person = person
        player.save(update_fields=["person"])
    return person


@dataclass(frozen=True)
class RemovePlayer(Command):
    """A name taken off the list before the seating."""

    player: Player

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.REMOVED, "data": Removed(self.player.name)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        self.player.delete()


@_refuse_on_domain_errors
def player_remove(*, night: Night, player: Player) -> None:
    run(night, RemovePlayer(player))


@dataclass(frozen=True)
class RenamePlayer(Command):
    """A typo in a name fixed: before seating, or at any time after (fixed in the rounds
    already played too)."""

    player: Player
    new: str

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.RENAMED, "data": Renamed(self.player.name, self.new)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        self.player.name = self.new
        self.player.save(update_fields=["name"])


@_refuse_on_domain_errors
def player_rename(*, night: Night, player: Player, name: str, key=None) -> Player:
    """Fix a typo in a name: before seating, or at any time after (fixed in the rounds
    already played too)."""
    others = list(night.players.exclude(pk=player.pk).values_list("name", flat=True))
    (clean,) = _new_names(others, [name])
    if clean == player.name:
        return player
    run(night, RenamePlayer(player, clean), key=key)
    return player


@dataclass(frozen=True)
class ClaimName(Command):
    """A guest's phone (``device``, the hash of its secret) picks their name."""

    player: Player
    device: str

    def event(self, state: LiveNight) -> dict | Ack:
        player = self.player
        holder = Player.objects.filter(pk=player.pk, night_id=player.night_id).values_list(
            "device", flat=True).first()
        if holder is None:
            raise IllegalMove("that name is not on tonight's list")
        if holder == self.device:
            return Ack(None, applied=False, state=state, duplicate=True)
        if holder:
            raise IllegalMove(f"{player.name} is already on another phone. If that is yours "
                              "and it died, ask the host to release it.")
        return {"kind": Kind.CLAIMED, "data": Claimed(player.name, self.device)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        if not Player.objects.filter(pk=self.player.pk, device="").update(device=self.device):
            raise IllegalMove(f"{self.player.name} was just picked on another phone")
        self.player.device = self.device


@dataclass(frozen=True)
class ReleaseName(Command):
    """A player's name freed for another phone: by the host, or (``device``) by the phone
    that holds it."""

    player: Player
    device: str | None = None

    def event(self, state: LiveNight) -> dict:
        player = self.player
        holder = Player.objects.filter(pk=player.pk).values_list("device", flat=True).first()
        if not holder:
            raise IllegalMove(f"{player.name} is not on any phone")
        if self.device is not None and holder != self.device:
            raise IllegalMove(f"{player.name} is on another phone")
        return {"kind": Kind.RELEASED, "data": Released(player.name)}

    def write(self, night: Night, row: ScoreEvent) -> None:
        Player.objects.filter(pk=self.player.pk).update(device="")
        self.player.device = ""


@dataclass(frozen=True)
class PlayerLeaves(Command):
    """A player goes home: a ghost takes their chair from the next round."""

    player: Player

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.LEFT, "data": Left(self.player.name, state.new_ghost_name())}

    def write(self, night: Night, row: ScoreEvent) -> None:
        self.player.left_early = True
        self.player.save(update_fields=["left_early"])


@_refuse_on_domain_errors
def player_claim(*, night: Night, player: Player, device: str, key=None) -> Player:
    """A guest's phone picks their name: the player is bound to that phone (``device``, the
    hash of its secret) until the host releases it. Picking it again from the same phone is
    fine; from another phone it is refused."""
    if not device:
        raise CommandRefused("this phone did not keep its cookie: allow cookies and try again")
    if player.night_id != night.pk:
        raise CommandRefused("that name is not on tonight's list")
    run(night, ClaimName(player, device), key=key, actor=f"{player.name}'s phone"[:60])
    player.device = device
    return player


@_refuse_on_domain_errors
def player_release(*, night: Night, player: Player, device: str | None = None,
                   key=None, actor: str | None = None) -> Player:
    """Free a player's name for another phone: the host's (a guest's phone died), or the
    phone's own (``device``: it picked the wrong name); ``actor`` names another who may
    (a guest's new phone with the night's code, after the end)."""
    run(night, ReleaseName(player, device), key=key,
        actor=(actor or "host")[:60] if device is None else f"{player.name}'s phone")
    return player


@_refuse_on_domain_errors
def player_leave(*, night: Night, player: Player, key=None) -> None:
    """A player goes home: a ghost takes their chair from the next round; what they earned
    stays theirs."""
    if not live_state(night).seated:
        player_remove(night=night, player=player)
        return
    if player.left_early:
        raise CommandRefused(f"{player.name} has already left")
    run(night, PlayerLeaves(player), key=key)
