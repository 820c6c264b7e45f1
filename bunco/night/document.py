"""A night as one JSON document: what the host downloads ("Download the night"), what the
laptop keeps in the copy folder and the backups folder (``bunco/laptop/backup.py``), and what
``services.night_restore`` opens again on any install. It holds every link of the night
(the TV's, the join link, each table's and each player's): whoever has it can score and see
the night, so it is the host's, like the host link.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone

from bunco.models import Night, ScoreEvent

FORMAT = "bunco-night"
#: 2: the night's links are in the file (1: without them; such a night opens with new links).
VERSION = 2
READS = (1, 2)
EVENT_FIELDS = ["seq", "key", "kind", "set_number", "round_number", "table", "player", "ghost",
                "position", "data", "actor"]


def night_file(night: Night) -> dict:
    """The night as one JSON-ready document."""
    events = ScoreEvent.objects.filter(night=night).order_by("seq")
    return {**night_head(night), "events": [event_entry(e) for e in events]}


def night_head(night: Night) -> dict:
    """Everything of a night's file but its log: the night, its players and its links."""
    return {
        "format": FORMAT, "version": VERSION, "saved_at": timezone.now().isoformat(),
        "address": phones_address(),
        "links": {"tv": night.tv_token, "join": night.join_token, "tv_code": night.tv_code,
                  "tables": {str(t.number): t.token for t in night.table_links.all()}},
        "night": {"name": night.name, "rules_id": night.rules_id, "rules": night.rules_json,
                  "entry_fee_cents": night.entry_fee_cents, "pot_cents": night.pot_cents,
                  "roll_offs": night.roll_offs, "revealed": night.revealed,
                  "demo": night.demo, "created_at": night.created_at.isoformat()},
        "players": [{"name": p.name, "token": p.token, "position": p.position,
                     "left_early": p.left_early, "device": p.device, "expected": p.expected,
                     "arrived_at": p.arrived_at.isoformat() if p.arrived_at else None,
                     "drawn_table": p.drawn_table}
                    for p in night.players.order_by("position", "pk")],
    }


def event_entry(e: ScoreEvent) -> dict:
    return {**{f: _plain(getattr(e, f)) for f in EVENT_FIELDS},
            "created_at": e.created_at.isoformat()}


def phones_address() -> str:
    """The host name phones reach the app at (their claims' cookies belong to it); "" when
    not known (a laptop on no network yet)."""
    if settings.PUBLIC_URL:
        return urlsplit(settings.PUBLIC_URL).hostname or ""
    return settings.LAN_ADDRESS if settings.LAN_FOUND else ""


def _plain(value):
    return str(value) if hasattr(value, "hex") and not isinstance(value, (int, str)) else value
