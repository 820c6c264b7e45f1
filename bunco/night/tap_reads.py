"""What every tap reads before it runs: its link, a table's or a player's, and the link's night,
by the token in its address. The ORM compiles such a query anew each time (~0.7 ms, more than
the read); a raw one does not. The night itself (its rules alone are ~6 KiB to parse) is read
only when this process holds no instance of it as current as the row."""

from __future__ import annotations

import weakref
from collections import deque

from django.db import connection

from bunco.models import Night, Player, TableLink
from bunco.night.selectors import night_by_id

_NIGHTS, _LINKS = Night._meta.db_table, TableLink._meta.db_table
_PLAYERS = Player._meta.db_table


def player_by_token(token: str, night: Night | None = None) -> Player | None:
    """A player (from their own link: a phone's every tap) and their night: ``night`` when
    the caller holds it already (a phone's socket, which read it on connecting), else this
    process's instance of it, read if it is behind."""
    player = next(iter(Player.objects.raw(
        f"SELECT p.*, n.last_seq AS night_seq, n.created_at AS night_made FROM {_PLAYERS} p "
        f"JOIN {_NIGHTS} n ON n.id = p.night_id WHERE p.token = %s", [token])), None)
    if player is None:
        return None
    if night is not None and night.pk == player.night_id:
        player.night = night
    else:
        player.night = _current(player.night_id, player.night_made, player.night_seq)
    return player


def table_link_by_token(token: str) -> TableLink | None:
    """A table's link and its night, in one read (the night's own row only when this process
    holds no instance of it as current)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT l.id, l.number, n.id, n.created_at, n.last_seq FROM {_LINKS} l "
                       f"JOIN {_NIGHTS} n ON n.id = l.night_id WHERE l.token = %s", [token])
        found = cursor.fetchone()
    if found is None:
        return None
    link_id, number, night_id, made, seq = found
    night = _current(night_id, made, seq)
    if night is None:  # deleted between the two reads
        return None
    return TableLink(id=link_id, night=night, number=number, token=token)


#: This process's one instance of each night every socket and form post uses (its rules alone
#: are ~6 KiB: a room's 400 sockets held 400 copies), by the row's id and ``created_at`` as the
#: database gives it (a night deleted and made again under the same id is another), as long as
#: something holds it.
_nights: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
#: The nights used last, kept while no socket holds them (a room whose phones all tap by form
#: post).
_recent: deque = deque(maxlen=8)


def _current(night_id: int, made, seq: int) -> Night | None:
    """This process's instance of the night whose row says ``made`` (its ``created_at`` as
    read) and ``seq`` (its ``last_seq``), its columns read again if it is behind the row
    (another worker wrote): None if the night is gone. A tap's command reads what it needs
    under the night's lock and moves the instance's columns on as it writes."""
    key = (night_id, made)
    night = _nights.get(key)
    if night is None or night.last_seq < seq:
        read = night_by_id(night_id)
        if read is None:
            return None
        if night is None:
            night = _nights[key] = read
        elif read.last_seq > night.last_seq:
            for field in Night._meta.concrete_fields:
                setattr(night, field.attname, getattr(read, field.attname))
    if not any(kept is night for kept in _recent):
        _recent.append(night)
    return night
