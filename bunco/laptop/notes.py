"""How the laptop's notes reach the host's pages (a data folder in trouble, the room check's
card): by the live layer's pushes, which the wiring puts in at start-up (``connect``, from
``bunco/apps.py``), so the laptop imports nothing of the screens'. Until then a note shows
when a page loads."""

from __future__ import annotations

from collections.abc import Callable


def _nobody(*args) -> None:
    return None


#: (night ids, html): a note to those nights' host pages.
to_hosts: Callable[[list[int], str], None] = _nobody
#: (group, draw): a note drawn by ``draw()`` to a group's screens, only when one watches.
to_group: Callable[[str, Callable[[], str]], None] = _nobody


def connect(*, hosts: Callable[[list[int], str], None],
            group: Callable[[str, Callable[[], str]], None]) -> None:
    global to_hosts, to_group
    to_hosts, to_group = hosts, group
