"""What every kind of event is (``Payload``): its name in the log, its flags, the Night columns
it moves, and its JSON, written and read by its class's codec (``codec.py``); the kinds by
name (``KINDS``). Pure Python, like the fold."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bunco.night.payloads.codec import CODECS, codec
from bunco.night.payloads.columns import COLUMNS

Data = Mapping[str, Any]

#: Every kind by its name in the log, in the order the kinds were added (``__init__.py``).
KINDS: dict[str, type[Payload]] = {}
#: The flags a kind may set (each False unless it says so).
FLAGS = ("at_table", "correctable", "reopen_takes", "quiet", "seats_kept")


@dataclass(frozen=True, slots=True)
class Payload:
    """An event's data: nothing, unless its kind says more (each class of the areas' files)."""

    kind: ClassVar[str] = ""  # its name in the log (``ScoreEvent.kind``): never changed
    at_table: ClassVar[bool] = False  # entered at a table: moves the table's position on by one
    correctable: ClassVar[bool] = False  # a table's scorekeeper or the host can take it back
    reopen_takes: ClassVar[bool] = False  # a round reopened takes it back with it
    quiet: ClassVar[bool] = False  # recorded, but no screen shows it
    seats_kept: ClassVar[bool] = False  # every screen's, but no seat, result or standing moves
    mirrors: ClassVar[tuple[str, ...] | None] = None  # the Night columns it moves: COLUMNS
    #: An older row's data in this version's shape (None: every row has the shape it reads).
    _older: ClassVar[Callable[[Data], Data] | None] = None

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
        return (CODECS.get(cls) or codec(cls))[0](self)

    @classmethod
    def from_data(cls, data: Data) -> Payload:
        """A log row's JSON read back (older rows' shapes included)."""
        return (CODECS.get(cls) or codec(cls))[1](data)

    @classmethod
    def projection(cls, state: Any) -> dict:
        """The Night columns this kind moves, as they are in ``state``, the night after it."""
        return {column: COLUMNS[column](state) for column in cls.mirrors}


#: The data of a kind that carries none, as a command gives it.
NO_DATA = Payload()
