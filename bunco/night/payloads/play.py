"""The kinds of play: a round's start, a table's rolls and finish, the bell, a take-back,
a pause, a break between rounds."""

from __future__ import annotations

from dataclasses import dataclass

from bunco.night.payloads.base import Data, Payload
from bunco.night.payloads.codec import int_or_none, number_or_none, stored


@dataclass(frozen=True, slots=True)
class RoundStarted(Payload):
    """A round's start: a ``practice`` round (before round 1, counting for nothing), and its
    clock (epoch ms): when the horn ends play, when the next round starts by itself."""

    kind, mirrors = "round_started", ("status",)

    practice: bool = stored(False, read=bool)
    play_ends: int | None = None
    next_at: int | None = None


@dataclass(frozen=True, slots=True)
class Roll(Payload):
    """A roll's dice; ``quick``: the button it was entered with (its dice only stand for it),
    or ""; ``tapped_at``: when the phone took it (epoch seconds), when that was believed."""

    kind, mirrors = "roll", ()
    at_table = correctable = True

    dice: tuple[int, ...] = stored((), kept=True, write=list, read=tuple)
    quick: str = stored("", read=lambda value: value or "")
    tapped_at: float | None = stored(None, read=number_or_none)


@dataclass(frozen=True, slots=True)
class Finish(Payload):
    """A table done rolling after the bell."""

    kind, mirrors = "finish", ()
    at_table = correctable = True


@dataclass(frozen=True, slots=True)
class Bell(Payload):
    """The bell that ends a round; ``horn``: the clock's, when play time ran out."""

    kind, mirrors = "bell", ()
    correctable = seats_kept = True

    horn: bool = stored(False, read=bool)


@dataclass(frozen=True, slots=True)
class Void(Payload):
    """The entries a take-back takes back, by sequence number."""

    kind, mirrors = "void", ()

    seqs: tuple[int, ...] = stored(write=list, read=tuple)

    @staticmethod
    def _older(data: Data) -> Data:
        return data if "seqs" in data else {"seqs": (data["seq"],)}  # a void of one entry


@dataclass(frozen=True, slots=True)
class _At(Payload):
    at: int | None = None  # epoch ms


@dataclass(frozen=True, slots=True)
class Paused(_At):
    """Play paused at ``at``: the clock stands still until play resumes."""

    kind, mirrors = "paused", ()
    seats_kept = True


@dataclass(frozen=True, slots=True)
class Resumed(_At):
    """Play resumed at ``at``: the clock moves on by the pause's length."""

    kind, mirrors = "resumed", ()
    seats_kept = True


@dataclass(frozen=True, slots=True)
class Break(Payload):
    """The host's break between rounds: its minutes and when it ends (epoch ms); 0 minutes
    ends it."""

    kind, mirrors = "break", ()
    reopen_takes = True

    minutes: int = stored(0, kept=True)
    ends_at: int | None = stored(None, when=lambda p: bool(p.minutes), read=int_or_none)

    @staticmethod
    def _older(data: Data) -> Data:  # an end of a break has no end time
        return data if data.get("minutes") else {"minutes": data.get("minutes", 0)}
