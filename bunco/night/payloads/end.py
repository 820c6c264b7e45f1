"""The kinds of a night's end: the host ends it, ties for prizes are settled, the TV
reveals the prizes."""

from __future__ import annotations

from dataclasses import dataclass

from bunco.night.payloads.base import Data, Payload
from bunco.night.payloads.codec import or_none, stored


@dataclass(frozen=True, slots=True)
class NightEnded(Payload):
    """The host ended the night: the standings are final. ``tv_reveals``: a TV showed the
    night, so the phones show each prize only once the TV has revealed it."""

    kind, mirrors = "night_ended", ("status",)

    tv_reveals: bool = stored(False, read=bool)


@dataclass(frozen=True, slots=True)
class RollOff(Payload):
    """A tied prize settled: the roll-off's ``winner``, or ``split`` among the tied players
    (evenly, or in the percents they agreed: ``shares``)."""

    kind, mirrors = "roll_off", ("roll_offs",)

    category: str
    winner: str | None = stored(None, when=lambda p: not p.split)
    split: bool = stored(False, read=bool)
    shares: dict[str, int] | None = stored(None, when=lambda p: bool(p.split and p.shares),
                                           read=or_none)

    @staticmethod
    def _older(data: Data) -> Data:  # one that is not a split names its winner (or is damaged)
        return data if data.get("split") else {"category": data["category"],
                                               "winner": data["winner"]}


@dataclass(frozen=True, slots=True)
class Revealed(Payload):
    """How many prizes the TV shows."""

    kind, mirrors = "revealed", ("revealed",)

    count: int
