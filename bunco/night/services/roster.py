"""Who plays tonight, and the people behind the names.

The night's list (pasted, renamed, removed, gone home) and the phone each player is on are
rows written in the same transaction as the log entry that names them, so they live beside
the commands that write them. A ``Person`` carries a player across nights (the season's
totals follow a person, not a spelling), which is why merging and splitting people is here
and not in the season's reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from bunco.models import Night, Person, Player
from bunco.night.fold import Kind, LiveNight
from bunco.night.names import new_names
from bunco.night.selectors import live_state
from bunco.night.services.runner import (
    Ack,
    CommandRefused,
    _command,
    _refuse_on_domain_errors,
    _simple,
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
        chunk = cleaned[start:start + PASTE_CHUNK]
        offset = len(existing) + start

        def rows(_event, chunk=chunk, offset=offset):
            people = {} if night.demo else {
                **known, **new_people([n for n in chunk if n not in known])}
            created.extend(Player.objects.bulk_create([
                Player(night=night, name=n, position=offset + i, person=people.get(n),
                       expected=expected, arrived_at=arrived_at)
                for i, n in enumerate(chunk)]))

        data = {"names": chunk, "expected": True} if expected else {"names": chunk}
        _command(night=night, key=None, actor="host", build=_simple(Kind.ADDED, data=data),
                 also=rows)
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


@_refuse_on_domain_errors
def player_remove(*, night: Night, player: Player) -> None:
    _command(night=night, key=None, actor="host",
             build=_simple(Kind.REMOVED, data={"name": player.name}),
             also=lambda _row: player.delete())


@_refuse_on_domain_errors
def player_rename(*, night: Night, player: Player, name: str, key=None) -> Player:
    """Fix a typo in a name: before seating, or at any time after (fixed in the rounds
    already played too)."""
    others = list(night.players.exclude(pk=player.pk).values_list("name", flat=True))
    (clean,) = _new_names(others, [name])
    if clean == player.name:
        return player
    old = player.name

    def rename(_row):
        player.name = clean
        player.save(update_fields=["name"])

    _command(night=night, key=key, actor="host",
             build=_simple(Kind.RENAMED, data={"old": old, "new": clean}), also=rename)
    return player


@_refuse_on_domain_errors
def player_claim(*, night: Night, player: Player, device: str, key=None) -> Player:
    """A guest's phone picks their name: the player is bound to that phone (``device``, the
    hash of its secret) until the host releases it. Picking it again from the same phone is
    fine; from another phone it is refused."""
    if not device:
        raise CommandRefused("this phone did not keep its cookie: allow cookies and try again")

    def build(state: LiveNight) -> dict | Ack:
        holder = Player.objects.filter(pk=player.pk, night=night).values_list(
            "device", flat=True).first()
        if holder is None:
            raise IllegalMove("that name is not on tonight's list")
        if holder == device:
            return Ack(None, applied=False, state=state, duplicate=True)
        if holder:
            raise IllegalMove(f"{player.name} is already on another phone. If that is yours "
                              "and it died, ask the host to release it.")
        return {"kind": Kind.CLAIMED, "data": {"name": player.name, "device": device}}

    def bind(_row):
        if not Player.objects.filter(pk=player.pk, device="").update(device=device):
            raise IllegalMove(f"{player.name} was just picked on another phone")
        player.device = device

    _command(night=night, key=key, actor=f"{player.name}'s phone"[:60], build=build,
             also=bind)
    player.device = device
    return player


@_refuse_on_domain_errors
def player_release(*, night: Night, player: Player, device: str | None = None,
                   key=None) -> Player:
    """Free a player's name for another phone: the host's (a guest's phone died), or the
    phone's own (``device``: it picked the wrong name)."""

    def build(state: LiveNight) -> dict:
        holder = Player.objects.filter(pk=player.pk).values_list("device", flat=True).first()
        if not holder:
            raise IllegalMove(f"{player.name} is not on any phone")
        if device is not None and holder != device:
            raise IllegalMove(f"{player.name} is on another phone")
        return {"kind": Kind.RELEASED, "data": {"name": player.name}}

    def free(_row):
        Player.objects.filter(pk=player.pk).update(device="")
        player.device = ""

    _command(night=night, key=key, actor="host" if device is None else f"{player.name}'s phone",
             build=build, also=free)
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

    def left(_row):
        player.left_early = True
        player.save(update_fields=["left_early"])

    _command(night=night, key=key, actor="host", also=left, build=lambda state: {
        "kind": Kind.LEFT, "data": {"name": player.name, "ghost": state.new_ghost_name()}})
