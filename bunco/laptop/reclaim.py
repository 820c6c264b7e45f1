"""How a guest gets their night back on a new phone once it has ended (their phone died, or
they want it on another): the host's choice, for every night on this laptop, kept in the data
folder (``reclaim``) so a restart keeps it.

- ``HOST`` (the default): the host releases the name on the night's page; the guest then
  taps it on "find your seat".
- ``CODE``: the guest types the night's join code and taps their name, even one still on
  another phone; that phone gives the name up.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from bunco import laptop

HOST, CODE = "host", "code"
CHOICES = [(HOST, "I release their name on this page, then they tap it"),
           (CODE, "They type the night's join code and tap their name")]
FILE = "reclaim"


def _path() -> Path:
    return Path(settings.DATA_DIR) / FILE


def mode() -> str:
    """``HOST`` or ``CODE``, as the host last chose (``HOST`` until she does)."""
    try:
        chosen = _path().read_text(encoding="utf-8", errors="replace")[:16].strip()
    except OSError:
        return HOST
    return chosen if chosen in (HOST, CODE) else HOST


def choose(value: str) -> str | None:
    """The host's choice kept: None, or why not in a sentence (nothing changed then)."""
    if value not in (HOST, CODE):
        return "Choose one of the two ways."
    if not laptop.keep_line(FILE, value):
        return "The data folder cannot be written to, so the choice was not kept."
    return None
