"""What a table's scorekeeper taps in the load test, and from which phone, as a real room does.

A roll is entered from the buttons the screen shows (the table's fragment: ``data-can-roll``,
``data-quick``, ``data-one-die``, ``data-keeps``, its ``phase-`` class): a quick button
(``miss``, ``hit1``, ... at about the odds of three dice) or, one tap in four, the dice pad's
three faces as they fell. While the bell has rung and the table finishes its turn, the roller
goes on with rolls that keep the turn (``data-keeps``, remembered from the turn before, as the
round's are the same every turn), so the load test's bell never ends a table's play; a table
whose screen offers no roll gets no tap at that slot (counted, ``idle_slots``).

Who enters: the table's own phone, and in turn one of the players' phones (the scorer toggle),
in runs of RUN taps. The entry moves to another phone only once every tap of the one before is
answered and the new phone's screen has shown the table at that position for REACTION seconds
(the page's ``REACTION_MS``: a person reads the table before tapping), else the same phone
goes on; so no tap names a position a real page would not have seen. Every choice is drawn
from a seed of the table and the tap's number, so the floor gets the same mix.

Nothing here imports Django, and no house rule is written here: the buttons are the server's.
"""

from __future__ import annotations

import random
import re
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.outbox import Device, Intent, Table

RUN = 3  # taps entered in a row from one phone
REACTION = 0.6  # seconds a screen shows a position before its person taps from it
PAD_SHARE = 0.25  # taps entered on the dice pad (three faces) instead of a quick button
#: How often a scorekeeper taps each quick button (about the odds of three dice); a button
#: not named here (another house's) is tapped as often as a mini bunco.
ODDS = {"miss": 120, "hit1": 75, "hit2": 15, "mini": 5, "low": 2, "high": 3, "bunco": 1,
        "uncalled": 1, "wipeout": 1}
_ATTRIBUTE = re.compile(rb'([\w-]+)="([^"]*)"')


def table_view(data: bytes, number: int) -> dict[str, str] | None:
    """The attributes of table ``number``'s fragment in a frame (its opening tag), or None."""
    start = data.find(b'id="table-%d"' % number)
    if start < 0:
        return None
    tag = data[data.rfind(b"<", 0, start):data.find(b">", start)]
    return {k.decode(): v.decode() for k, v in _ATTRIBUTE.findall(tag)}


def draw(table: int, n: int) -> random.Random:
    """The dice of table ``table``'s ``n``-th tap: the same in every run."""
    return random.Random(f"{table}:{n}")


def choose(view: dict[str, str] | None, dice: random.Random) -> dict[str, str] | None:
    """What the scorekeeper taps on a screen showing ``view``: a quick button or three faces;
    None when the screen offers no roll."""
    way, pick, faces = dice.random(), dice.random(), [dice.randint(1, 6) for _ in range(3)]
    if view is None:  # no screen: the dice pad, which takes any three faces
        return {"dice": ",".join(map(str, faces))}
    if view.get("data-can-roll") != "1":
        return None
    if view.get("data-one-die") == "1":
        return {"quick": f"die{faces[0]}"}
    buttons = view.get("data-quick", "").split()
    if "phase-finishing" in view.get("class", "").split():
        keeps = view.get("data-keeps", "").split()  # the roller finishes the turn
        buttons = [b for b in buttons if b in keeps]
        rolls = [k for k in keeps if k.isdigit() and len(k) == 3]
        if rolls and (way < PAD_SHARE or not buttons):
            return {"dice": ",".join(rolls[int(pick * len(rolls))])}
    elif way < PAD_SHARE or not buttons:
        return {"dice": ",".join(map(str, faces))}
    if not buttons:
        return None
    weights = [ODDS.get(b, ODDS["mini"]) for b in buttons]
    return {"quick": dice.choices(buttons, weights)[0]}


def kind_of(what: dict[str, str]) -> str:
    """How a tap is counted in the mix: its quick button, or "dice" for the pad."""
    return what.get("quick") or "dice"


class Scorekeeping:
    """Who enters table ``table.number``'s rolls at each slot and what they tap: its own
    phone (``device``), one run in ``every`` a player's phone (``phones``, in turn; 0: never)."""

    def __init__(self, table: Table, device: Device | None, phones: list[Device],
                 every: int = 4):
        self.table, self.device, self.phones, self.every = table, device, phones, every
        self.by = device  # who enters now
        self.count = 0

    def wanted(self, n: int) -> Device | None:
        """Who would enter the ``n``-th tap: one run in ``every`` a player's phone."""
        run, number = n // RUN, self.table.number
        if not self.phones or not self.every or (run + number) % self.every != self.every - 1:
            return self.device
        return self.phones[(run // self.every + number) % len(self.phones)]

    def hand_over(self, wanted: Device | None) -> Device | None:
        """``wanted`` takes the entry once the table's taps are all answered and its screen
        has shown the table where they left it for REACTION seconds; else ``self.by`` goes on."""
        if wanted is self.by or wanted is None or self.table.queue:
            return self.by
        if (wanted.view.get("data-pos") != str(self.table.shown)
                or time.time() - wanted.view_since < REACTION):
            return self.by
        return wanted

    def tap(self, slot: float) -> Intent | None:
        """The tap at ``slot``: made at the table's outbox, or None (nothing to tap)."""
        n, tally = self.count, self.table.tally
        self.count += 1
        self.by = self.hand_over(self.wanted(n))
        what = choose(self.by.view if self.by is not None else None, draw(self.table.number, n))
        if what is None:
            tally.idle_slots += 1
            return None
        tally.rolls[kind_of(what)] += 1
        tally.entered_from["table's phone" if self.by is self.device
                           else "players' phones"] += 1
        return self.table.make(slot, what, self.by)
