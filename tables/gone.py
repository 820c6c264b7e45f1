"""A link this laptop does not know: a night deleted here (its phones are told it is gone and
drop their taps), or one not opened here yet (a laptop swap: they keep their taps)."""

from __future__ import annotations

from bunco.laptop import deleted
from tables.tap import Answer, unknown_link

GONE = ("The host deleted this night on the laptop: rolls entered here can no longer be "
        "counted, and this phone has let go of them.")


def unknown_or_gone(token: str) -> Answer:
    if deleted.knows(token):
        return Answer(410, {"ok": False, "gone": True, "error": GONE})
    return unknown_link()
