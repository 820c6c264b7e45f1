"""Domain exceptions raised by the rules engine, and the one check that names a setting's
allowed choices."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class RulesError(ValueError):
    """A house-rules value is invalid. ``field`` names the offending dimension."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


class IllegalMove(ValueError):
    """A command does not fit the current state of play (e.g. a roll after the round ended)."""


def choice(kind: type[StrEnum], name: str, value: Any) -> StrEnum:
    """``value`` as one of ``kind``'s members, or a ``RulesError`` listing the allowed ones."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise RulesError(name, f"{value!r} is not one of: {allowed}") from None
