"""Corrections in the fold: a void replays only the latest round, from the checkpoint taken as it
started, into a new state that replaces the old one whole (nothing reads a state half-way
through a replay). ``LiveNight`` (``bunco/fold.py``) makes them; its state lives there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunco.night.events import (
    CORRECTABLE,
    REOPEN_TAKES,
    TABLE_KINDS,
    Conflict,
    Event,
    Kind,
    handles,
    void_targets,
)
from bunco.night.payloads import Void
from scoring import IllegalMove

if TYPE_CHECKING:
    from bunco.night.fold import LiveNight


class Corrections:
    """The corrections part of ``LiveNight``."""

    @handles(Void)
    def _on_void(self, event: Event) -> LiveNight:
        """A take-back: the round replayed without the entries it names, into a new state."""
        if self.ended:
            raise IllegalMove("the night has ended; its rounds can no longer be changed")
        seqs = set(void_targets(event))
        state = self._planned_replay(self.voided | seqs) or self.replayed(self.voided | seqs)
        state.round_events.append(event)
        state._touch({e.table for e in self.round_events
                      if e.seq in seqs and e.table is not None})
        state.seq = event.seq
        return state

    def replayed(self, skip: set[int]) -> LiveNight:
        """The latest round replayed from its checkpoint without the events in ``skip``.
        Raises Conflict naming the first later event that no longer fits."""
        if not self.round_events or self.checkpoint is None:
            raise IllegalMove("only the round in play (or the one just closed) can be corrected")
        known = {e.seq: e for e in self.round_events}
        for seq in skip - self.voided:
            target = known.get(seq)
            if target is None:
                raise IllegalMove("only the round in play (or the one just closed, until the "
                                  "next round starts) can be corrected")
            if target.kind not in CORRECTABLE | REOPEN_TAKES:
                raise IllegalMove(f"#{seq} is not a roll, a bell or a table's finish")
        new = type(self)(self.rules, name=self.name, rules_id=self.rules_id,
                        entry_fee_cents=self.entry_fee_cents, pot_cents=self.pot_cents)
        new.roster, new.left = list(self.roster), set(self.left)
        new.check_in_closes = self.check_in_closes
        if self.checkpoint_desk:  # a check-in during the round is replayed with it
            roster, expected, drawn, waiting = self.checkpoint_desk
            new.roster, new.expected = list(roster), set(expected)
            new.drawn, new.waiting = dict(drawn), list(waiting)
            new.checkpoint_desk = self.checkpoint_desk
        new.roll_offs, new.revealed = dict(self.roll_offs), self.revealed
        new.prizes_held, new.most_revealed = self.prizes_held, self.most_revealed
        new.splits = set(self.splits)
        new.split_shares = dict(self.split_shares)
        new.practices = self.practices
        new.night = self.checkpoint.copy()
        new.last_bunco = self.checkpoint_bunco
        new.voided = set(self.voided) | skip
        start = self.round_events[0].seq
        new.all_rolls = {s: r for s, r in self.all_rolls.items() if s < start}
        for event in self.round_events:
            if event.seq in new.voided or event.kind == Kind.VOID:
                new.round_events.append(event)
                if event.kind == Kind.VOID:
                    targets = set(void_targets(event))
                    new._touch({e.table for e in self.round_events
                                if e.seq in targets and e.table is not None})
                else:
                    new._touch([event.table] if event.kind in TABLE_KINDS else [])
                new.seq = event.seq
                continue
            try:
                new.apply(event)
            except IllegalMove as exc:
                raise Conflict(event, str(exc)) from None
        new.seq = self.seq
        return new

    def plan_void(self, seq: int) -> tuple[list[int], LiveNight]:
        """Taking back ``seq``: every event it takes back (``seq`` and any later bell, finish
        or roll that no longer fits without it) and the night after. Refuses when a later
        event that is not play (a late arrival, say) depends on it."""
        if seq in self.voided:
            raise IllegalMove(f"#{seq} was already taken back")
        skip = {seq}
        while True:
            try:
                state = self.replayed(self.voided | skip)
            except Conflict as conflict:
                if conflict.event.kind not in CORRECTABLE | REOPEN_TAKES:
                    raise IllegalMove(
                        "players changed after that round closed, so it can no longer be "
                        "reopened") from None
                skip.add(conflict.event.seq)
                continue
            # The take-back that follows the plan replays the same round again: it takes
            # this one instead, once, if nothing has moved the night on in between.
            self._planned = (self.seq, frozenset(self.voided | skip), state)
            return sorted(skip), state

    def _planned_replay(self, skip: set[int]) -> LiveNight | None:
        planned, self._planned = getattr(self, "_planned", None), None
        if planned is not None and planned[:2] == (self.seq, frozenset(skip)):
            return planned[2]
        return None
