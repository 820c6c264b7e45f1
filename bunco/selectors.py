"""Reads. ``live_state`` is the fold of the night's log, caught up to its last event."""

from __future__ import annotations

from bunco.live import Event, LiveNight, cache, fold
from bunco.models import Night, Player
from tables.models import ScoreEvent, TableLink


def _as_event(row: ScoreEvent) -> Event:
    return Event(seq=row.seq, kind=row.kind, table=row.table, data=row.data, actor=row.actor)


def log_events(night: Night, after: int = 0) -> list[Event]:
    return [_as_event(r) for r in ScoreEvent.objects.filter(night=night).after(after)]


def stamp(state: LiveNight, night: Night) -> LiveNight:
    """Mark a fold with the night (and the stored rules) it was made from."""
    state.created_at = night.created_at
    state.rules_json = night.rules_json
    return state


def live_state(night: Night) -> LiveNight:
    """The night as of its last logged event. A cached fold is only trusted up to its own
    sequence number: newer events are read from the log and applied; a correction refolds."""
    with cache.lock:
        state = cache.get(night.pk)
        stale = (
            state is None
            or state.rules_json != night.rules_json  # compared as stored: parsing is costly
            or state.created_at != night.created_at
            or state.seq > night.last_seq  # the log is behind the fold: trust the log
        )
        if stale:
            state = stamp(fold(night.rules, log_events(night)), night)
        else:
            newer = log_events(night, after=state.seq)
            if any(e.kind == "void" for e in newer):
                state = stamp(fold(night.rules, log_events(night)), night)
            else:
                for event in newer:
                    state.apply(event)
        cache.put(night.pk, state)
        return state


def player_by_token(token: str) -> Player | None:
    return Player.objects.select_related("night").filter(token=token).first()


def table_link_by_token(token: str) -> TableLink | None:
    return TableLink.objects.select_related("night").filter(token=token).first()


def night_by_tv_token(token: str) -> Night | None:
    return Night.objects.filter(tv_token=token).first()


def night_by_join_token(token: str) -> Night | None:
    return Night.objects.filter(join_token=token).first()


def table_links(night: Night) -> dict[int, TableLink]:
    return {link.number: link for link in TableLink.objects.filter(night=night)}
