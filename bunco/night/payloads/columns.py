"""The Night columns that mirror the fold (what a kind's ``mirrors`` names): how each reads
its value from the night after an event, for the row the write updates. Pure Python."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any


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
#: What a change of the night's set-up moves.
SETUP = ("rules_json", "rules_id", "name", "entry_fee_cents", "pot_cents")
