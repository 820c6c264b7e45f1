"""What every tap reads before it runs: its link, a table's or a player's, and the link's night,
by the token in its address. The ORM compiles such a query anew each time (~0.7 ms, more than
the read); a raw one does not."""

from __future__ import annotations

import weakref

from bunco.models import Night, Player, TableLink
from bunco.night.selectors import night_by_id

_NIGHTS, _LINKS = Night._meta.db_table, TableLink._meta.db_table
_PLAYERS = Player._meta.db_table


def player_by_token(token: str, night: Night | None = None) -> Player | None:
    """A player (from their own link: a phone's every tap) and their night: ``night`` when
    the caller holds it already (a phone's socket, which read it on connecting), else read."""
    player = next(iter(Player.objects.raw(f"SELECT * FROM {_PLAYERS} WHERE token = %s",
                                          [token])), None)
    if player is not None:
        player.night = (night if night is not None and night.pk == player.night_id
                        else night_by_id(player.night_id))
    return player


def table_link_by_token(token: str) -> TableLink | None:
    """A table's link and its night, in one read."""
    found = next(iter(Night.objects.raw(
        f"SELECT n.*, l.id AS link_id, l.number AS link_number FROM {_NIGHTS} n "
        f"JOIN {_LINKS} l ON l.night_id = n.id WHERE l.token = %s", [token])), None)
    if found is None:
        return None
    return TableLink(id=found.link_id, night=found, number=found.link_number, token=token)


#: The night each open socket holds, one instance per night (its rules alone are ~6 KiB: a
#: room's 400 sockets held 400 copies), as long as a socket holds it.
_held: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def held_night(night: Night) -> Night:
    """The one instance of ``night`` the sockets of this process hold: a night deleted and
    made again under the same key is another (``created_at``). A tap's command reads what it
    needs under the night's lock and moves this instance's columns on as it writes, so it is
    as current as each socket's own copy was; one read later than it (a socket connecting)
    brings it up to date."""
    key = (night.pk, night.created_at)
    held = _held.get(key)
    if held is None:
        _held[key] = night
        return night
    if night.last_seq > held.last_seq:
        for field in Night._meta.concrete_fields:
            setattr(held, field.attname, getattr(night, field.attname))
    return held
