"""The fold's handlers for the night's people and prizes: who is on the list, the check-in desk,
arrivals, departures and renames, which phone holds a name, and the prizes settled at the end.
``LiveNight`` (``bunco/fold.py``) folds them; its state lives there."""

from __future__ import annotations

from bunco.night.events import Event, handles
from bunco.night.payloads import (
    Added,
    Arrived,
    CheckedIn,
    Claimed,
    Desk,
    Left,
    Prizes,
    Released,
    Removed,
    Renamed,
    Revealed,
    RollOff,
)
from scoring import IllegalMove, Seat
from scoring.awards import set_key


class PeopleFold:
    """The people and prizes part of ``LiveNight``."""

    prizes_held = False  # the night ended with a TV: the phones wait for its reveal
    most_revealed = 0  # the most prizes the TV has shown at once

    @property
    def prizes_out(self) -> int | None:
        """How many of the night's prizes (in their order) the phones may show: None, every
        one (the phones do not wait for the TV, or the TV has shown the last)."""
        if not self.prizes_held or self.most_revealed >= len(self.rules.awards):
            return None
        return self.most_revealed

    @handles(Prizes)
    def _on_prizes(self, event: Event) -> None:
        if self.ended:
            raise IllegalMove("the night has ended: its prizes are settled")
        data = event.data
        self.rules = self.rules.replace(awards=data.awards, award_ties=data.award_ties,
                                        one_prize_per_person=data.one_prize_per_person)
        self.pot_cents = data.pot_cents
        if self.night is not None:
            self.night.rules = self.rules

    @handles(Added)
    def _on_added(self, event: Event) -> None:
        if self.seated:
            raise IllegalMove("players are already seated; clear the seating to add players")
        taken = set(self.roster)
        for name in event.data.names:
            if name in taken:
                raise IllegalMove(f"{name} is already checked in")
            taken.add(name)
        self.roster.extend(event.data.names)
        if event.data.expected:  # pre-registered: they check in at the desk
            self.expected.update(event.data.names)

    @handles(Removed)
    def _on_removed(self, event: Event) -> None:
        if self.seated:
            raise IllegalMove("players are already seated")
        name = event.data.name
        if name not in self.roster:
            raise IllegalMove(f"{name} is not checked in")
        self.roster.remove(name)
        self.expected.discard(name)
        self.drawn.pop(name, None)

    @handles(Arrived)
    def _on_arrived(self, event: Event) -> None:
        name = event.data.name
        if name in self.expected:
            raise IllegalMove(f"{name} is expected: they check in at the desk")
        self._between_rounds().substitute(event.data.ghost, Seat(name))
        if name in self.waiting:  # checked in earlier, waiting for a chair
            self.waiting.remove(name)
        else:
            self.roster.append(name)

    @handles(CheckedIn)
    def _on_checked_in(self, event: Event) -> None:
        """A guest at the desk: a pre-registered one (``new``: a walk-in, added to the list).
        Before the seating they draw a table (``table``); after it they take a ghost's chair
        (``ghost``) or, with none free or a round in play, wait for one."""
        data = event.data
        name = data.name
        if data.new:
            if name in self.roster:
                raise IllegalMove(f"{name} is already on tonight's list")
        elif name not in self.expected:
            raise IllegalMove(f"{name} is not expected at the desk" if name not in self.roster
                              else f"{name} has already checked in")
        if self.ended:
            raise IllegalMove("the night has ended")
        ghost, table = data.ghost, data.table
        if table is not None and self.seated:
            raise IllegalMove("the room is seated: no more tables are drawn")
        if ghost:
            self._between_rounds().substitute(ghost, Seat(name))
        if table is not None:
            self.drawn[name] = table
        if data.new:
            self.roster.append(name)
        self.expected.discard(name)
        if self.seated and not ghost:
            self.waiting.append(name)

    @handles(Desk)
    def _on_desk(self, event: Event) -> None:
        self.check_in_closes = event.data.closes_at

    @handles(Left)
    def _on_left(self, event: Event) -> None:
        name = event.data.name
        if name in self.waiting:  # never had a chair: nobody takes it
            self.waiting.remove(name)
            self.left.add(name)
            return
        night = self._between_rounds()
        night.substitute(name, Seat(event.data.ghost, ghost=True))
        self.left.add(name)

    @handles(Claimed)
    def _on_claimed(self, event: Event) -> None:
        pass  # which phone a player is on changes no score, seat or screen

    @handles(Released)
    def _on_released(self, event: Event) -> None:
        pass

    @handles(Renamed)
    def _on_renamed(self, event: Event) -> None:
        old, new = event.data.old, event.data.new
        if self.night is None or (old not in self.night.stats and old in self.roster):
            # not seated yet, or not here yet
            if old not in self.roster:
                raise IllegalMove(f"nobody called {old} is checked in")
            self.roster[self.roster.index(old)] = new
            self._rename_at_desk(old, new)
            return
        self.night.rename(old, new)
        self._rename_at_desk(old, new)
        if self.room is not None:
            self.room.rename(old, new)
        for entry in self.rolls:
            if entry.roller == old:
                entry.roller = new
            if entry.rolled_by == old:
                entry.rolled_by = new
        self.roster = [new if n == old else n for n in self.roster]
        self.left = {new if n == old else n for n in self.left}

    def _rename_at_desk(self, old: str, new: str) -> None:
        if old in self.expected:
            self.expected = (self.expected - {old}) | {new}
        if old in self.drawn:
            self.drawn[new] = self.drawn.pop(old)
        self.waiting = [new if n == old else n for n in self.waiting]

    def _tie_decidable(self, category: str) -> None:
        """A night's prize ties are settled after the night ends; a set's once the set is
        over (its key names the set)."""
        night = self.night
        for number in range(1, self.rules.sets + 1):
            if category.startswith(set_key(number, "")):
                if night is None or not night.set_finished(number):
                    raise IllegalMove(f"set {number} is not over yet")
                return
        if not self.ended:
            raise IllegalMove("roll-offs for prizes come after the night has ended")

    @handles(RollOff)
    def _on_roll_off(self, event: Event) -> None:
        category = event.data.category
        self._tie_decidable(category)
        if event.data.split:
            self.splits = self.splits | {category}
            self.roll_offs = {k: v for k, v in self.roll_offs.items() if k != category}
            shares = {k: v for k, v in self.split_shares.items() if k != category}
            if event.data.shares:
                shares[category] = dict(event.data.shares)
            self.split_shares = shares
        else:
            self.roll_offs = {**self.roll_offs, category: event.data.winner}
            self.splits = self.splits - {category}
            self.split_shares = {k: v for k, v in self.split_shares.items() if k != category}

    @handles(Revealed)
    def _on_revealed(self, event: Event) -> None:
        if not self.ended:
            raise IllegalMove("prizes are revealed after the night has ended")
        count = event.data.count
        if not 0 <= count <= len(self.rules.awards):
            raise IllegalMove("there is no such prize to reveal")
        self.revealed = count
        self.most_revealed = max(self.most_revealed, count)  # the TV's start over hides none
