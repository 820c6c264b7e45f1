"""What the screens' sockets tell the laptop's room check (``bunco/laptop/roomcheck/``): a
phone reached the laptop, a table's phones struggle. The wiring puts the room check's
listeners in at start-up (``connect``, from ``bunco/apps.py``), so the live layer imports
nothing of the laptop's; until then nobody listens."""

from __future__ import annotations

from collections.abc import Callable


def _nobody(*args) -> None:
    return None


#: A socket opened (its scope): whether the host's room check card changed (a phone reached
#: the laptop). Cheap, on the loop.
reached: Callable[[dict], bool] = _nobody
#: The card pushed to the host pages that show it (on a sync thread).
card_changed: Callable[[], None] = _nobody
#: A phone says how its connection fares (the night, the screen's groups, its path, what it
#: said): the host's note of the tables whose phones struggle when it changed, else None.
net: Callable[[int, list, str, object], str | None] = _nobody


def connect(*, on_reached: Callable[[dict], bool], on_card: Callable[[], None],
            on_net: Callable[[int, list, str, object], str | None]) -> None:
    global reached, card_changed, net
    reached, card_changed, net = on_reached, on_card, on_net
