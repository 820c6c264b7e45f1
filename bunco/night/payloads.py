"""What each kind of event carries, as a typed value: the log row's ``data`` read into
attributes (``event.data.dice``). ``to_data`` gives exactly the JSON the log stores (and night
files carry); ``from_data`` reads it back, the shapes older rows have included (a void naming
one ``seq``, a roll with no dice). ``events.payload`` picks the class for a kind. Pure Python,
like the fold."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

from scoring import Seat, TableSpec

Data = Mapping[str, Any]


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


def _given(payload: Payload, keys: Iterable[str]) -> dict:
    """The attributes ``keys`` of ``payload`` that are not None, in that order."""
    return {k: v for k in keys if (v := getattr(payload, k)) is not None}


@dataclass(frozen=True, slots=True)
class Payload:
    """An event's data: nothing (a table's "done", the night's end), unless its kind says more
    (each subclass below)."""

    def to_data(self) -> dict:
        return {}

    @classmethod
    def from_data(cls, data: Data) -> Payload:
        return cls()


#: The data of a kind that carries none.
NO_DATA = Payload()


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


@dataclass(frozen=True, slots=True)
class _Plain(Payload):
    """Data whose every field is stored as it is, each one always there."""

    def to_data(self) -> dict:
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_data(cls, data: Data) -> _Plain:
        return cls(*(data[name] for name in _field_names(cls)))


# -- the night's setup and prizes --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Created(Payload):
    """A night's first entry: its name, preset, house rules (``HouseRules.to_dict``) and entry
    fee. None: not given (the night keeps what it had)."""

    KEYS: ClassVar[tuple[str, ...]] = ("name", "rules_id", "rules", "entry_fee_cents")

    name: str | None = None
    rules_id: str | None = None
    rules: Data | None = None
    entry_fee_cents: int | None = None

    def to_data(self) -> dict:
        return _given(self, self.KEYS)

    @classmethod
    def from_data(cls, data: Data) -> Created:
        return cls(**{k: data.get(k) for k in cls.KEYS})


@dataclass(frozen=True, slots=True)
class RulesChanged(Created):
    """New house rules before play, and the fee, name or preset when they changed with them."""

    KEYS: ClassVar[tuple[str, ...]] = ("rules", "entry_fee_cents", "name", "rules_id")


@dataclass(frozen=True, slots=True)
class Prizes(Payload):
    """The prize list (``HouseRules.awards``), how ties share it, and the typed pot (None: the
    fees make it)."""

    awards: list[dict]
    award_ties: str
    one_prize_per_person: bool
    pot_cents: int | None = None

    def to_data(self) -> dict:
        return {"awards": self.awards, "award_ties": self.award_ties,
                "one_prize_per_person": self.one_prize_per_person, "pot_cents": self.pot_cents}

    @classmethod
    def from_data(cls, data: Data) -> Prizes:
        return cls(data["awards"], data["award_ties"], data["one_prize_per_person"],
                   data.get("pot_cents"))


@dataclass(frozen=True, slots=True)
class RollOff(Payload):
    """A tied prize settled: the roll-off's ``winner``, or ``split`` among the tied players
    (evenly, or in the percents they agreed: ``shares``)."""

    category: str
    winner: str | None = None
    split: bool = False
    shares: dict[str, int] | None = None

    def to_data(self) -> dict:
        if not self.split:
            return {"category": self.category, "winner": self.winner}
        return {"category": self.category, "split": True,
                **({"shares": self.shares} if self.shares else {})}

    @classmethod
    def from_data(cls, data: Data) -> RollOff:
        if not data.get("split"):
            return cls(data["category"], winner=data["winner"])
        shares = data.get("shares")
        return cls(data["category"], split=True, shares=dict(shares) if shares else None)


@dataclass(frozen=True, slots=True)
class Revealed(_Plain):
    """How many prizes the TV shows."""

    count: int


# -- the night's people ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Added(Payload):
    """Players checked in before the seating (``expected``: listed, to check in at the desk)."""

    names: tuple[str, ...]
    expected: bool = False

    def to_data(self) -> dict:
        return {"names": list(self.names), **({"expected": True} if self.expected else {})}

    @classmethod
    def from_data(cls, data: Data) -> Added:
        return cls(tuple(data["names"]), bool(data.get("expected")))


@dataclass(frozen=True, slots=True)
class Removed(_Plain):
    """A player taken off the list before the seating."""

    name: str


@dataclass(frozen=True, slots=True)
class _Chair(_Plain):
    name: str
    ghost: str


@dataclass(frozen=True, slots=True)
class Arrived(_Chair):
    """A late arrival takes the ghost's chair ``ghost`` from the next round."""


@dataclass(frozen=True, slots=True)
class Left(_Chair):
    """A player goes home; the new ghost ``ghost`` takes their chair from the next round."""


@dataclass(frozen=True, slots=True)
class Renamed(_Plain):
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class CheckedIn(Payload):
    """A guest at the desk (``at``: when, ISO time; ``new``: a walk-in, added to the list):
    the table drawn before the seating, or the ghost's chair taken after it (neither: they
    wait for a chair)."""

    name: str
    at: str | None = None
    new: bool = False
    table: int | None = None
    ghost: str | None = None

    def to_data(self) -> dict:
        return {"name": self.name, **_given(self, ("at",)),
                **({"new": True} if self.new else {}), **_given(self, ("table", "ghost"))}

    @classmethod
    def from_data(cls, data: Data) -> CheckedIn:
        table = data.get("table")
        return cls(data["name"], data.get("at"), bool(data.get("new")),
                   None if table is None else int(table), data.get("ghost") or None)


@dataclass(frozen=True, slots=True)
class Desk(Payload):
    """When the desk stops checking guests in (ISO time; None: open)."""

    closes_at: str | None = None

    def to_data(self) -> dict:
        return {"closes_at": self.closes_at}

    @classmethod
    def from_data(cls, data: Data) -> Desk:
        return cls(data.get("closes_at") or None)


@dataclass(frozen=True, slots=True)
class Claimed(Payload):
    """A phone picked a player's name: ``device`` is the hash of the phone's secret."""

    name: str = ""
    device: str = ""

    def to_data(self) -> dict:
        return {"name": self.name, "device": self.device}

    @classmethod
    def from_data(cls, data: Data) -> Claimed:
        return cls(data.get("name", ""), data.get("device", ""))


@dataclass(frozen=True, slots=True)
class Released(Payload):
    """A player's name freed for another phone (``moved``: by a night opened at another
    address, "old to new")."""

    name: str = ""
    moved: str | None = None

    def to_data(self) -> dict:
        return {"name": self.name, **_given(self, ("moved",))}

    @classmethod
    def from_data(cls, data: Data) -> Released:
        return cls(data.get("name", ""), data.get("moved"))


# -- play --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Seated(Payload):
    """The room's seating, table by table."""

    tables: tuple[TableSpec, ...]

    def to_data(self) -> dict:
        return {"tables": tables_to_data(self.tables)}

    @classmethod
    def from_data(cls, data: Data) -> Seated:
        return cls(tuple(tables_from_data(data["tables"])))


@dataclass(frozen=True, slots=True)
class RoundStarted(Payload):
    """A round's start: a ``practice`` round (before round 1, counting for nothing), and its
    clock (epoch ms): when the horn ends play, when the next round starts by itself."""

    practice: bool = False
    play_ends: int | None = None
    next_at: int | None = None

    def to_data(self) -> dict:
        return {**({"practice": True} if self.practice else {}),
                **_given(self, ("play_ends", "next_at"))}

    @classmethod
    def from_data(cls, data: Data) -> RoundStarted:
        return cls(bool(data.get("practice")), data.get("play_ends"), data.get("next_at"))


@dataclass(frozen=True, slots=True)
class Roll(Payload):
    """A roll's dice; ``quick``: the button it was entered with (its dice only stand for it),
    or ""; ``tapped_at``: when the phone took it (epoch seconds), when that was believed."""

    dice: tuple[int, ...] = ()
    quick: str = ""
    tapped_at: float | None = None

    def to_data(self) -> dict:  # once per tap: kept plain
        data: dict = {"dice": list(self.dice)}
        if self.quick:
            data["quick"] = self.quick
        if self.tapped_at is not None:
            data["tapped_at"] = self.tapped_at
        return data

    @classmethod
    def from_data(cls, data: Data) -> Roll:  # once per roll of a log read: kept plain
        at = data.get("tapped_at")
        if at is not None and not isinstance(at, (int, float)):
            at = None
        return cls(tuple(data.get("dice", ())), data.get("quick") or "", at)


@dataclass(frozen=True, slots=True)
class Bell(Payload):
    """The bell that ends a round; ``horn``: the clock's, when play time ran out."""

    horn: bool = False

    def to_data(self) -> dict:
        return {"horn": True} if self.horn else {}

    @classmethod
    def from_data(cls, data: Data) -> Bell:
        return cls(bool(data.get("horn")))


@dataclass(frozen=True, slots=True)
class Void(Payload):
    """The entries a take-back takes back, by sequence number."""

    seqs: tuple[int, ...]

    def to_data(self) -> dict:
        return {"seqs": list(self.seqs)}

    @classmethod
    def from_data(cls, data: Data) -> Void:
        # Older rows name a single ``seq``.
        return cls(tuple(data["seqs"]) if "seqs" in data else (data["seq"],))


@dataclass(frozen=True, slots=True)
class _At(Payload):
    at: int | None = None  # epoch ms

    def to_data(self) -> dict:
        return _given(self, ("at",))

    @classmethod
    def from_data(cls, data: Data) -> _At:
        return cls(data.get("at"))


@dataclass(frozen=True, slots=True)
class Paused(_At):
    """Play paused at ``at``: the clock stands still until play resumes."""


@dataclass(frozen=True, slots=True)
class Resumed(_At):
    """Play resumed at ``at``: the clock moves on by the pause's length."""


@dataclass(frozen=True, slots=True)
class Break(Payload):
    """The host's break between rounds: its minutes and when it ends (epoch ms); 0 minutes
    ends it."""

    minutes: int = 0
    ends_at: int | None = None

    def to_data(self) -> dict:
        return {"minutes": self.minutes, **({"ends_at": self.ends_at} if self.minutes else {})}

    @classmethod
    def from_data(cls, data: Data) -> Break:
        minutes = data.get("minutes", 0)
        return cls(minutes, int(data["ends_at"]) if minutes else None)
