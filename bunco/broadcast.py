"""Render once, send to many. After a change is committed, the screens' fragments are rendered
here, once each, and pushed to their Channels groups; group handlers only forward the text.
Every message starts with the night's sequence number so screens can drop stale ones."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string

from bunco import groups, screens
from bunco.models import Night
from bunco.selectors import live_state


def sync_marker(seq: int) -> str:
    return render_to_string("bunco/_sync.html", {"seq": seq})


def table_snapshot(night: Night, state, number: int) -> str:
    return "".join([
        sync_marker(state.seq),
        render_to_string("bunco/_banner.html",
                         {"banner": screens.round_banner(night, state), "oob": True}),
        render_to_string("tables/_table.html",
                         {"t": screens.table_context(night, state, number), "oob": True}),
    ])


def player_snapshot(night: Night, state, name: str, left: bool = False) -> str:
    return "".join([
        sync_marker(state.seq),
        render_to_string("bunco/_banner.html",
                         {"banner": screens.round_banner(night, state), "oob": True}),
        render_to_string("bunco/_me.html",
                         {"me": screens.my_seat(night, state, name, left), "oob": True}),
    ])


def tv_snapshot(night: Night, state) -> str:
    return "".join([
        sync_marker(state.seq),
        render_to_string("bunco/_banner.html",
                         {"banner": screens.round_banner(night, state), "oob": True}),
        render_to_string("bunco/_tv.html", {"tv": screens.tv_context(night, state), "oob": True}),
    ])


def host_snapshot(board: dict) -> str:
    return "".join([
        sync_marker(board["seq"]),
        render_to_string("bunco/_banner.html",
                         {"banner": board["banner"], "oob": True}),
        render_to_string("bunco/host/_board.html", {**board, "oob": True}),
    ])


# The last (phase, set, round) pushed to players' own phones, per night. Another worker may push
# the same shape again; that only repeats a message, it never loses one.
_last_shape: dict[int, tuple] = {}


def _send(group: str, message: dict) -> None:
    async_to_sync(get_channel_layer().group_send)(group, message)


def tables_to_push(state, kind: str | None, table: int | None) -> range | list[int]:
    """A tap changes its own table; the bell, a new round, a closed round or the end of the
    night change every table."""
    everything = range(1, len(state.tables) + 1)
    if kind not in ("roll", "finish", "void", "renamed") or table is None:
        return everything
    if state.room is None or state.room.bell_rung:
        return everything
    return [table]


def night_changed(night_id: int, kind: str | None = None, table: int | None = None) -> None:
    """Push every screen of the night that changed its new fragments (each rendered once)."""
    night = Night.objects.get(pk=night_id)
    state = live_state(night)
    seq = state.seq
    for number in tables_to_push(state, kind, table):
        _send(groups.table(night_id, number),
              {"type": "screen.update", "seq": seq, "html": table_snapshot(night, state, number)})
    _send(groups.tv(night_id),
          {"type": "screen.update", "seq": seq, "html": tv_snapshot(night, state)})
    _send(groups.host(night_id),
          {"type": "screen.update", "seq": seq, "html": host_snapshot(screens.host_board(night))})
    shape = (state.phase, state.night.set_number if state.night else 0,
             state.night.round_number if state.night else 0, state.paused,
             tuple(s.name for t in state.tables for s in t.seats))
    if _last_shape.get(night_id) == shape:
        return  # in-round taps reach players' phones through their table's group
    _last_shape[night_id] = shape
    for player in night.players.all():
        where = state.seat_of(player.name)
        _send(groups.player(player.pk), {
            "type": "player.update", "seq": seq,
            "table_group": groups.table(night_id, where[0]) if where else None,
            "html": player_snapshot(night, state, player.name, player.left_early),
        })
