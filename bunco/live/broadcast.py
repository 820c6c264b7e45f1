"""Render once, send to many; render only what changed.

A table's tap changes that table: its fragment is rendered once and the same text goes to the
table's phones, the TV and the host, which show each table as its own element. An event that
changes every screen (a bell, a round's start or close, a pause, a roster or prize change)
renders each table once, the banner once, and the room-wide parts once per screen kind, for
the kinds somebody is watching. Group handlers only forward the text.

Every fragment carries ``data-seq``: the sequence number of the last event that changed it.
A screen drops a fragment older than the one it shows, and its sync sends the seqs it shows
(periodically with several workers; when the server asks, on one process: ``bunco.live.watch``);
it is sent a snapshot only if one of them is behind (``bunco/live/sync.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.template.loader import render_to_string

from bunco import clock
from bunco.live import groups, screens, sync
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


def banner_html(state: LiveNight) -> str:
    return render_to_string("bunco/_banner.html",
                            {"banner": screens.round_banner(state), "oob": True})


def tv_room_parts(night: Night, state: LiveNight) -> tuple[str, str]:
    """The TV's room-wide parts: prizes, races and the movement board; the standings."""
    tv = screens.tv_room(night, state)
    return (render_to_string("bunco/_tv_room.html", {"tv": tv}),
            render_to_string("bunco/_tv_standings.html", {"tv": tv}))


def tv_room_html(night: Night, state: LiveNight) -> str:
    return "".join(tv_room_parts(night, state))


def tv_bunco_html(state: LiveNight) -> str:
    return render_to_string("bunco/_tv_bunco.html", screens.tv_bunco(state))


def tv_tables_html(state: LiveNight, tables: dict[int, str]) -> str:
    return render_to_string("bunco/_tv_tables.html", {"tables": [
        tables[n] for n in sorted(tables)], "seq": state.versions.room,
        "many": len(state.tables) > screens.TV_FEW_TABLES,
        "roomy": len(state.tables) <= screens.TV_ROOMY_TABLES,
        "long_names": screens.longest_name(state) > screens.TV_SHORT_NAME,
        # During a break the TV shows the countdown, next seats and standings instead.
        "ended": state.ended or state.break_ends is not None})


def host_room_html(night: Night, state: LiveNight) -> str:
    return render_to_string("bunco/host/_room.html", {"room": screens.host_room(night, state),
                                                      "night": night})


def me_html(state: LiveNight, name: str, left: bool, table_html: str | None = None,
            room: screens.RoomView | None = None) -> str:
    return render_to_string("bunco/_me.html",
                            {"me": screens.my_seat(state, name, left, table_html, room)})


def all_tables(state: LiveNight) -> dict[int, str]:
    return {n: screens.render_table(state, n) for n in range(1, len(state.tables) + 1)}


# -- snapshots (a screen connecting, or behind) --------------------------------------------------

def table_snapshot(state: LiveNight, number: int) -> str:
    return banner_html(state) + screens.render_table(state, number)


def player_snapshot(state: LiveNight, name: str, left: bool = False) -> str:
    return banner_html(state) + me_html(state, name, left)


def tv_snapshot(night: Night, state: LiveNight) -> str:
    """The TV's live parts, and the night's join code (a new one, after the night was opened
    on a laptop where another night has its code)."""
    return (banner_html(state) + tv_tables_html(state, all_tables(state))
            + tv_room_html(night, state) + tv_bunco_html(state)
            + render_to_string("bunco/_tv_join_code.html", {"night": night}))


def host_snapshot(night: Night, state: LiveNight) -> str:
    tables = "" if state.ended else "".join(all_tables(state).values())
    return banner_html(state) + tables + host_room_html(night, state)


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
            out.add(groups.tv(night.pk), event.seq, tv_bunco_html(state))
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


def _open_phones(night: Night, state: LiveNight) -> tuple[screens.RoomView | None, list]:
    """Every player whose phone is open, as ((pk, name, left early), their table), plain rows
    rather than models, and what those phones read of the room, worked out once for all."""
    watched = [p for p in night.players.values_list("pk", "name", "left_early")
               if groups.watching(groups.player(p[0]))]
    room = screens.RoomView(state, [name for _, name, _ in watched]) if watched else None
    return room, [(p, room.seats.get(p[1], (None,))[0]) for p in watched]


@dataclass
class _Audience:
    """Who watches a room-wide event: the tables to draw, the groups that hear it."""

    night: Night
    tv: str
    host: str
    tv_on: bool
    host_on: bool
    phones: list
    room: screens.RoomView | None
    table_groups: dict[int, str]
    followed: set[int]
    needed: list[int]

    @classmethod
    def of(cls, night: Night, state: LiveNight) -> _Audience:
        tv, host = groups.tv(night.pk), groups.host(night.pk)
        tv_on, host_on = groups.watching(tv), groups.watching(host)
        room, phones = _open_phones(night, state)
        numbers = range(1, len(state.tables) + 1)
        at_tables = {table for _, table in phones}
        table_groups = {n: groups.table(night.pk, n) for n in numbers}
        followed = {n for n, group in table_groups.items() if groups.watching(group)}
        needed = [n for n in numbers if tv_on or host_on or n in at_tables or n in followed]
        return cls(night, tv, host, tv_on, host_on, phones, room, table_groups, followed, needed)

    def banner_groups(self) -> list[str]:
        """Phones hear the banner through their table's group; one without a table through
        its own."""
        to = [self.table_groups[n] for n in sorted(self.followed)]
        to += [g for g, on in ((self.tv, self.tv_on), (self.host, self.host_on)) if on]
        return to + [groups.player(pk) for (pk, _, _), table in self.phones
                     if table not in self.followed]

    def drawn(self, now: LiveNight, seq: int, banner: str) -> Frames:
        """Every table, drawn once, and the TV's, the host's and each phone's parts."""
        rest, night = Frames(), self.night
        seats_kept = now.versions.seats != seq  # a bell or a pause: seats, standings kept
        tables = {n: screens.render_table(now, n) for n in self.needed}
        rest.tables.update(tables)
        for number in sorted(self.followed):
            rest.add(self.table_groups[number], seq, tables[number])
        if self.tv_on:
            rest.add(self.tv, seq, tv_tables_html(now, tables)
                     + ("" if seats_kept else tv_room_html(night, now)) + tv_bunco_html(now))
        if self.host_on:  # the host's page has no table cards once the night has ended
            rest.add(self.host, seq, ("" if now.ended else "".join(tables.values()))
                     + ("" if seats_kept else host_room_html(night, now)))
        if seats_kept:  # nobody's own seat changed: the phones have what they need
            return rest
        for (pk, name, left_early), table in self.phones:
            # The banner again: a phone that had no table until now heard the first step
            # through its own group only if it has none still.
            rest.add(groups.player(pk), seq,
                     banner + me_html(now, name, left_early, tables.get(table), self.room),
                     kind="player.update", table_group=self.table_groups.get(table))
        return rest


def _room_frames(out: Frames, night: Night, state: LiveNight) -> None:
    """A room-wide event in two steps. First the banner alone to every screen: that is the bell
    (or the round, the pause) every guest is waiting for, and it costs one small render. Then,
    once those are written, the tables and each screen kind's room-wide parts (``rest``, drawn
    after the command commits, under the night's lock again)."""
    seq = state.seq
    audience = _Audience.of(night, state)
    if not audience.needed and not audience.phones:
        return
    banner = banner_html(state)
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
            return audience.drawn(now, seq, banner)

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
