"""What a room-wide event draws, and the snapshots of whole screens.

A bell, a round's start or close, a pause, a roster or prize change changes every screen:
``Audience`` says who watches (the tables to draw, the groups that hear it) and draws each
table once, the TV's, the host's and each open phone's parts once. The snapshots are what a
screen is sent when it connects or is behind. A table's own frames, and the two steps a
room-wide event is pushed in, are ``bunco/live/broadcast.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from bunco.live import groups, screens
from bunco.models import Night
from bunco.night.fold import LiveNight

if TYPE_CHECKING:
    from bunco.live.broadcast import Frames


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



# -- snapshots of whole screens (one connecting, or behind) ---------------------------------

def tv_snapshot(night: Night, state: LiveNight) -> str:
    """The TV's live parts, and the night's join code (a new one, after the night was opened
    on a laptop where another night has its code)."""
    return (banner_html(state) + tv_tables_html(state, all_tables(state))
            + tv_room_html(night, state) + tv_bunco_html(state)
            + render_to_string("bunco/_tv_join_code.html", {"night": night}))


def host_snapshot(night: Night, state: LiveNight) -> str:
    tables = "" if state.ended else "".join(all_tables(state).values())
    return banner_html(state) + tables + host_room_html(night, state)



# -- a room-wide event's audience ---------------------------------------------------------------

def open_phones(night: Night, state: LiveNight) -> tuple[screens.RoomView | None, list]:
    """Every player whose phone is open, as ((pk, name, left early), their table), plain rows
    rather than models, and what those phones read of the room, worked out once for all."""
    watched = [p for p in night.players.values_list("pk", "name", "left_early")
               if groups.watching(groups.player(p[0]))]
    room = screens.RoomView(state, [name for _, name, _ in watched]) if watched else None
    return room, [(p, room.seats.get(p[1], (None,))[0]) for p in watched]


@dataclass
class Audience:
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
    def of(cls, night: Night, state: LiveNight) -> Audience:
        tv, host = groups.tv(night.pk), groups.host(night.pk)
        tv_on, host_on = groups.watching(tv), groups.watching(host)
        room, phones = open_phones(night, state)
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

    def drawn(self, rest: Frames, now: LiveNight, seq: int, banner: str) -> Frames:
        """Every table, drawn once, and the TV's, the host's and each phone's parts, added to
        ``rest``."""
        night = self.night
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
