"""Every kind of event the log holds, one class each: its name in the log (``kind``), what it
carries (its fields: the row's ``data`` read into attributes, ``event.data.dice``), what sort of
event it is (its flags) and the Night columns it moves (``mirrors``). ``KINDS`` holds them by
name, in the order they were added: a new kind goes at the end (the log's choices,
``ScoreEvent.Kind``, follow this order), and ``tests/bunco/test_kinds.py`` says what it lacks.

``to_data`` gives exactly the JSON the log stores (and night files carry), by one function over
the fields: a field with no default is always written, one with a default only while it holds
another value (``kept``: always; ``when``: when that says so). ``from_data`` reads it back,
the shapes older rows have included (a field's ``read``, a kind's ``_older``). Pure Python,
like the fold."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar

from scoring import Seat, TableSpec

Data = Mapping[str, Any]

#: Every kind by its name in the log, in the order the kinds were added.
KINDS: dict[str, type[Payload]] = {}
#: The flags a kind may set (each False unless it says so).
FLAGS = ("at_table", "correctable", "reopen_takes", "quiet", "seats_kept")


def tables_to_data(tables: Iterable[TableSpec]) -> list[dict]:
    return [{"number": t.number, "individuals": t.individuals,
             "seats": [{"name": s.name, "ghost": s.ghost} for s in t.seats]} for t in tables]


def tables_from_data(data: list[dict]) -> list[TableSpec]:
    return [TableSpec(number=t["number"], individuals=t["individuals"],
                      seats=tuple(Seat(s["name"], ghost=s["ghost"]) for s in t["seats"]))
            for t in data]


def _when(text: Any) -> datetime | None:
    """An ISO time as a datetime (None: none, or not one)."""
    try:
        return datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


#: How each Night column that mirrors the fold reads it from the night after an event.
COLUMNS: dict[str, Callable[[Any], Any]] = {
    "status": lambda s: "finished" if s.ended else "playing" if s.started else "setup",
    "rules_json": lambda s: s.rules.to_dict(),
    "rules_id": lambda s: s.rules_id,
    "name": lambda s: s.name,
    "entry_fee_cents": lambda s: s.entry_fee_cents,
    "pot_cents": lambda s: s.pot_cents,
    "roll_offs": lambda s: s.roll_offs,
    "revealed": lambda s: s.revealed,
    "check_in_closes_at": lambda s: _when(s.check_in_closes),
}
_SETUP = ("rules_json", "rules_id", "name", "entry_fee_cents", "pot_cents")


def stored(default: Any = MISSING, *, kept: bool = False, when: Callable | None = None,
           write: Callable | None = None, read: Callable | None = None) -> Any:
    """A field and how its JSON is kept: written while it differs from ``default`` (``kept``:
    always; ``when``: when that says so of the payload), as ``write`` makes it, and read back
    through ``read`` (neither given: as it is)."""
    return field(default=default,
                 metadata={"kept": kept, "when": when, "write": write, "read": read})


_CODECS: dict[type, tuple[Callable, Callable]] = {}


def _codec(cls: type) -> tuple[Callable, Callable]:
    """``cls``'s ``to_data`` and ``from_data``, written out from its fields once per class (as
    ``dataclasses`` writes ``__init__``): a roll is written once per tap and read by every
    worker, and no field is looked up by its name each time."""
    env: dict[str, Any] = {"cls": cls, "older": cls._older}
    writes, reads = [], []
    for n, f in enumerate(fields(cls)):
        env[f"default{n}"] = f.default
        writes.append(f"    {_written(f, n, env)}")
        reads.append(_read(f, n, env))
    older = "older(data)" if cls._older is not Payload._older else "data"
    source = "\n".join(["def to_data(self):", "    data = {}", *writes, "    return data",
                        "def from_data(data):", f"    data = {older}",
                        f"    return cls({', '.join(reads)})"])
    exec(compile(source, f"<the JSON of {cls.__name__}>", "exec"), env)
    codec = _CODECS[cls] = (env["to_data"], env["from_data"])
    return codec


def _written(f: Field, n: int, env: dict) -> str:
    """The line that writes field ``f`` (the ``n``-th) of ``self`` into ``data``."""
    when = env[f"when{n}"] = f.metadata.get("when")
    write = env[f"write{n}"] = f.metadata.get("write")
    line = f"data[{f.name!r}] = {f'write{n}(self.{f.name})' if write else f'self.{f.name}'}"
    if when:
        return f"if when{n}(self): {line}"
    if f.default is MISSING or f.metadata.get("kept"):
        return line
    return f"if self.{f.name} != default{n}: {line}"


def _read(f: Field, n: int, env: dict) -> str:
    """The expression that reads field ``f`` (the ``n``-th) from ``data``: its default when it
    is not there (KeyError for one with none: the row is damaged)."""
    read = env[f"read{n}"] = f.metadata.get("read")
    value = f"read{n}(data[{f.name!r}])" if read else f"data[{f.name!r}]"
    return value if f.default is MISSING else f"{value} if {f.name!r} in data else default{n}"


@dataclass(frozen=True, slots=True)
class Payload:
    """An event's data: nothing, unless its kind says more (each class below)."""

    kind: ClassVar[str] = ""  # its name in the log (``ScoreEvent.kind``): never changed
    at_table: ClassVar[bool] = False  # entered at a table: moves the table's position on by one
    correctable: ClassVar[bool] = False  # a table's scorekeeper or the host can take it back
    reopen_takes: ClassVar[bool] = False  # a round reopened takes it back with it
    quiet: ClassVar[bool] = False  # recorded, but no screen shows it
    seats_kept: ClassVar[bool] = False  # every screen's, but no seat, result or standing moves
    mirrors: ClassVar[tuple[str, ...] | None] = None  # the Night columns it moves: COLUMNS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        kind = cls.__dict__.get("kind")
        if kind:
            known = KINDS.get(kind)
            # dataclass(slots=True) makes each class again: the one it makes replaces the first
            if known and (known.__module__, known.__name__) != (cls.__module__, cls.__name__):
                raise TypeError(f"{cls.__name__} and {known.__name__} are both {kind!r}")
            KINDS[kind] = cls

    def to_data(self) -> dict:
        """The JSON its log row stores, its keys in the order of its fields."""
        cls = type(self)
        return (_CODECS.get(cls) or _codec(cls))[0](self)

    @classmethod
    def from_data(cls, data: Data) -> Payload:
        """A log row's JSON read back (older rows' shapes included)."""
        return (_CODECS.get(cls) or _codec(cls))[1](data)

    @staticmethod
    def _older(data: Data) -> Data:
        """An older row's data in this version's shape (as it is, unless a kind says so)."""
        return data

    @classmethod
    def projection(cls, state: Any) -> dict:
        """The Night columns this kind moves, as they are in ``state``, the night after it."""
        return {column: COLUMNS[column](state) for column in cls.mirrors}


#: The data of a kind that carries none, as a command gives it.
NO_DATA = Payload()


def _or_none(value: Any) -> Any:
    return value or None


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _number_or_none(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) else None


def _specs(data: list[dict]) -> tuple[TableSpec, ...]:
    return tuple(tables_from_data(data))


# -- the kinds, in the order they were added ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Created(Payload):
    """A night's first entry: its name, preset, house rules (``HouseRules.to_dict``) and entry
    fee. None: not given (the night keeps what it had)."""

    kind, mirrors = "created", ()

    name: str | None = None
    rules_id: str | None = None
    rules: Data | None = None
    entry_fee_cents: int | None = None


@dataclass(frozen=True, slots=True)
class RulesChanged(Payload):
    """New house rules before play, and the fee, name or preset when they changed with them."""

    kind, mirrors = "rules", _SETUP

    rules: Data | None = None
    entry_fee_cents: int | None = None
    name: str | None = None
    rules_id: str | None = None


@dataclass(frozen=True, slots=True)
class Prizes(Payload):
    """The prize list (``HouseRules.awards``), how ties share it, and the typed pot (None: the
    fees make it)."""

    kind, mirrors = "prizes", _SETUP

    awards: list[dict]
    award_ties: str
    one_prize_per_person: bool
    pot_cents: int | None = stored(None, kept=True)


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
class Seated(Payload):
    """The room's seating, table by table."""

    kind, mirrors = "seated", ()

    tables: tuple[TableSpec, ...] = stored(write=tables_to_data, read=_specs)


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
    tapped_at: float | None = stored(None, read=_number_or_none)


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
                                           read=_or_none)

    @staticmethod
    def _older(data: Data) -> Data:  # one that is not a split names its winner (or is damaged)
        return data if data.get("split") else {"category": data["category"],
                                               "winner": data["winner"]}


@dataclass(frozen=True, slots=True)
class Revealed(Payload):
    """How many prizes the TV shows."""

    kind, mirrors = "revealed", ("revealed",)

    count: int


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
class Break(Payload):
    """The host's break between rounds: its minutes and when it ends (epoch ms); 0 minutes
    ends it."""

    kind, mirrors = "break", ()
    reopen_takes = True

    minutes: int = stored(0, kept=True)
    ends_at: int | None = stored(None, when=lambda p: bool(p.minutes), read=_int_or_none)

    @staticmethod
    def _older(data: Data) -> Data:  # an end of a break has no end time
        return data if data.get("minutes") else {"minutes": data.get("minutes", 0)}


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
    table: int | None = stored(None, read=_int_or_none)
    ghost: str | None = stored(None, read=_or_none)


@dataclass(frozen=True, slots=True)
class Desk(Payload):
    """When the desk stops checking guests in (ISO time; None: open)."""

    kind, mirrors = "desk", ("check_in_closes_at",)
    quiet = True

    closes_at: str | None = stored(None, kept=True, read=_or_none)
