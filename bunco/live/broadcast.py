"""Render once, send to many; render only what changed.

A table's tap changes that table: its fragment is rendered once and the same text goes to the
table's phones, the TV and the host, which show each table as its own element. An event that
changes every screen (a bell, a round's start or close, a pause, a roster or prize change)
renders each table once, the banner once, and the room-wide parts once per screen kind, for
the kinds somebody is watching (what it draws: ``bunco/live/room_frames.py``), in two steps,
the banner first. Group handlers only forward the text.

Every fragment carries ``data-seq``: the sequence number of the last event that changed it.
A screen drops a fragment older than the one it shows, and its sync sends the seqs it shows
(periodically with several workers; when the server asks, on one process: ``bunco.live.watch``);
it is sent a snapshot only if one of them is behind (``bunco/live/sync.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bunco import clock
from bunco.live import groups, room_frames, screens, sync
from bunco.models import Night
from bunco.night import hooks
from bunco.night.cache import folds
from bunco.night.fold import Event, Kind, LiveNight
from bunco.runtime import pushes


@dataclass
class Frames:
    """What one command pushes: (group, message) pairs, and the table fragments it rendered
    (a tap's own answer reuses its table's)."""

    messages: list[tuple[str, dict]] = field(default_factory=list)
    tables: dict[int, str] = field(default_factory=dict)
    #: A room-wide event's second step: its parts, drawn once its banner has gone out (None
    #: when a later room-wide event has come first: it draws every screen itself).
    rest: Callable[[], Frames | None] | None = None

    def add(self, group: str, seq: int, html: str, kind: str = "screen.update", **extra):
        self.messages.append((group, {"type": kind, "seq": seq, "html": html, **extra}))


# -- a table's snapshots (its screen or a player's phone connecting, or behind) --------------

def table_snapshot(state: LiveNight, number: int) -> str:
    return room_frames.banner_html(state) + screens.render_table(state, number)


def player_snapshot(state: LiveNight, name: str, left: bool = False) -> str:
    return room_frames.banner_html(state) + room_frames.me_html(state, name, left)


# -- after a command -----------------------------------------------------------------------------

def call_frames(night: Night, table: int) -> Frames:
    """A table's call for the host, made or answered: the host's list of calls, and the
    table's call button on its phones (the table's own and its players')."""
    out = Frames()
    out.add(groups.host(night.pk), 0, screens.host_calls_html(night.pk))
    out.add(groups.table(night.pk, table), 0, screens.call_host_html(night.pk, table))
    return out


def touched_tables(state: LiveNight, event: Event) -> list[int]:
    """The tables an event changed: those whose last change it is (its own table, a
    take-back's tables, the tables the fuzzy die left and reached, a pod's bell)."""
    return list(state.versions.changed)


def frames(night: Night, state: LiveNight, event: Event) -> Frames:
    """The pushes one event makes, each fragment rendered once."""
    out = Frames()
    if event.kind == Kind.CLAIMED:  # the host's player list: that guest is on a phone now
        if groups.watching(groups.host(night.pk)):
            claim = screens.host_claim_html(night, event.data.name)
            if claim:
                out.add(groups.host(night.pk), 0, claim)
        return out
    if state.versions.room != event.seq:  # not every screen changed
        _table_frames(out, night, state, touched_tables(state, event))
        bunco = state.last_bunco
        celebrate = event.kind == Kind.ROLL and bunco and bunco.seq == event.seq
        if (celebrate or event.kind == Kind.VOID) and groups.watching(groups.tv(night.pk)):
            out.add(groups.tv(night.pk), event.seq, room_frames.tv_bunco_html(state))
        return out
    _room_frames(out, night, state)
    return out


def _table_frames(out: Frames, night: Night, state: LiveNight, numbers: list[int]) -> None:
    watchers = [groups.tv(night.pk), groups.host(night.pk)]
    for number in numbers:
        targets = [g for g in (groups.table(night.pk, number), *watchers)
                   if groups.watching(g)]
        if not targets:
            continue
        html = screens.render_table(state, number)
        out.tables[number] = html
        for group in targets:
            if group in watchers:  # every table's every tap: a screen behind gets the latest
                out.add(group, state.seq, html, replaces=f"table-{number}")
            else:
                out.add(group, state.seq, html)


def _room_frames(out: Frames, night: Night, state: LiveNight) -> None:
    """A room-wide event in two steps. First the banner alone to every screen: that is the bell
    (or the round, the pause) every guest is waiting for, and it costs one small render. Then,
    once those are written, the tables and each screen kind's room-wide parts (``rest``, drawn
    after the command commits, under the night's lock again)."""
    seq = state.seq
    audience = room_frames.Audience.of(night, state)
    if not audience.needed and not audience.phones:
        return
    banner = room_frames.banner_html(state)
    for group in audience.banner_groups():
        out.add(group, seq, banner)

    def parts() -> Frames | None:
        """What the event changed besides the banner, to the screens the banner went to.
        Drawn from the night as it is now (taps that went ahead of it included: each fragment
        carries its own seq), unless a later room-wide event has changed every screen
        again."""
        with folds.lock(night.pk):
            now = folds.get(night.pk) or state
            if now.versions.room != seq:
                return None
            return audience.drawn(Frames(), now, seq, banner)

    out.rest = parts


#: When this process handed out each night's pushes (a screen's sync: what has settled).
timeline = sync.Pushes()


def after_write(done: hooks.Written) -> None:
    """After a command's commit (``bunco/night/hooks.py``): its frames pushed (how they leave
    is the runtime's: in commit order, a room-wide event's banners first), and noted on the
    pushes' timeline."""
    pushes.push(done.frames)
    timeline[done.night.pk].append((clock.monotonic(), done.event.seq))


def call_changed(night: Night, table: int) -> None:
    """A table's call for the host was made or answered: the calls read again, and pushed."""
    screens.calls_changed(night.pk)
    pushes.push(call_frames(night, table))


def to_hosts(night_ids: list[int], html: str) -> None:
    """A note that is no event of a night (the laptop's) to those nights' host pages."""
    out = Frames()
    for night_id in night_ids:
        out.add(groups.host(night_id), 0, html)
    pushes.push(out)


def to_group(group: str, draw: Callable[[], str]) -> None:
    """A note drawn by ``draw`` (the laptop's room check card) to a group, if watched."""
    if groups.watching(group):
        out = Frames()
        out.add(group, 0, draw())
        pushes.push(out)
