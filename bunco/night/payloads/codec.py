"""How a kind's JSON is kept: ``stored`` says, field by field, when it is written and how it
reads back, and ``codec`` writes out a class's ``to_data`` and ``from_data`` from its fields
once (as ``dataclasses`` writes ``__init__``): a field with no default is always written, one
with a default only while it holds another value (``kept``: always; ``when``: when that says
so). The readers below are those fields name for the shapes older rows hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, field, fields
from typing import Any

#: Each class's (to_data, from_data), written out the first time it is asked for.
CODECS: dict[type, tuple[Callable, Callable]] = {}


def stored(default: Any = MISSING, *, kept: bool = False, when: Callable | None = None,
           write: Callable | None = None, read: Callable | None = None) -> Any:
    """A field and how its JSON is kept: written while it differs from ``default`` (``kept``:
    always; ``when``: when that says so of the payload), as ``write`` makes it, and read back
    through ``read`` (neither given: as it is)."""
    return field(default=default,
                 metadata={"kept": kept, "when": when, "write": write, "read": read})


def codec(cls: type) -> tuple[Callable, Callable]:
    """``cls``'s ``to_data`` and ``from_data``, written out from its fields once per class: a
    roll is written once per tap and read by every worker, and no field is looked up by its
    name each time. ``cls._older`` (if any) first brings an older row's data to this shape."""
    env: dict[str, Any] = {"cls": cls, "older": cls._older}
    writes, reads = [], []
    for n, f in enumerate(fields(cls)):
        env[f"default{n}"] = f.default
        writes.append(f"    {_written(f, n, env)}")
        reads.append(_read(f, n, env))
    older = "data" if cls._older is None else "older(data)"
    source = "\n".join(["def to_data(self):", "    data = {}", *writes, "    return data",
                        "def from_data(data):", f"    data = {older}",
                        f"    return cls({', '.join(reads)})"])
    exec(compile(source, f"<the JSON of {cls.__name__}>", "exec"), env)
    written_out = CODECS[cls] = (env["to_data"], env["from_data"])
    return written_out


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


def or_none(value: Any) -> Any:
    return value or None


def int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def number_or_none(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) else None
