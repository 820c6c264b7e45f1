"""The kinds about who plays: the list before the seating, late arrivals and early
leavers, a new name, which phone holds which name, the desk's check-in."""

from __future__ import annotations

from dataclasses import dataclass

from bunco.night.payloads.base import Payload
from bunco.night.payloads.codec import int_or_none, or_none, stored


@dataclass(frozen=True, slots=True)
class Added(Payload):
    """Players checked in before the seating (``expected``: listed, to check in at the desk)."""

    kind, mirrors = "added", ()

    names: tuple[str, ...] = stored(write=list, read=tuple)
    expected: bool = stored(False, read=bool)


@dataclass(frozen=True, slots=True)
class Removed(Payload):
    """A player taken off the list before the seating."""

    kind, mirrors = "removed", ()

    name: str


@dataclass(frozen=True, slots=True)
class _Chair(Payload):
    name: str
    ghost: str


@dataclass(frozen=True, slots=True)
class Arrived(_Chair):
    """A late arrival takes the ghost's chair ``ghost`` from the next round."""

    kind, mirrors = "arrived", ()


@dataclass(frozen=True, slots=True)
class Left(_Chair):
    """A player goes home; the new ghost ``ghost`` takes their chair from the next round."""

    kind, mirrors = "left", ()


@dataclass(frozen=True, slots=True)
class Renamed(Payload):
    kind, mirrors = "renamed", ()

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Claimed(Payload):
    """A phone picked a player's name: ``device`` is the hash of the phone's secret."""

    kind, mirrors = "claimed", ()
    quiet = True

    name: str = stored("", kept=True)
    device: str = stored("", kept=True)


@dataclass(frozen=True, slots=True)
class Released(Payload):
    """A player's name freed for another phone (``moved``: by a night opened at another
    address, "old to new")."""

    kind, mirrors = "released", ()
    quiet = True

    name: str = stored("", kept=True)
    moved: str | None = None


@dataclass(frozen=True, slots=True)
class CheckedIn(Payload):
    """A guest at the desk (``at``: when, ISO time; ``new``: a walk-in, added to the list):
    the table drawn before the seating, or the ghost's chair taken after it (neither: they
    wait for a chair). Quiet: one who takes a ghost's chair changes the room, and says so."""

    kind, mirrors = "checked_in", ()
    quiet = True

    name: str
    at: str | None = None
    new: bool = stored(False, read=bool)
    table: int | None = stored(None, read=int_or_none)
    ghost: str | None = stored(None, read=or_none)


@dataclass(frozen=True, slots=True)
class Desk(Payload):
    """When the desk stops checking guests in (ISO time; None: open)."""

    kind, mirrors = "desk", ("check_in_closes_at",)
    quiet = True

    closes_at: str | None = stored(None, kept=True, read=or_none)
