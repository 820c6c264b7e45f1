"""The host's room-wide display, and the calls the tables make to the host."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from bunco.live.paging import paginate
from bunco.live.screens.people import movement
from bunco.live.screens.prizes import (
    fee_without_prizes,
    final_awards,
    money,
    night_pot,
    pending_ties,
    pot_unpaid,
)
from bunco.live.screens.results import standings
from bunco.live.screens.round import round_banner
from bunco.live.screens.table import render_table
from bunco.models import HostCall, Night
from bunco.night.fold import LiveNight
from bunco.night.names import matching, search_text
from bunco.night.selectors import table_links

#: How much of a big room the host's page shows at once (the rest a page or a link away).
HOST_TABLES_PER_PAGE = 12
HOST_PLAYERS_PER_PAGE = 48
HOST_STANDINGS_SHOWN = 20
HOST_MOVES_SHOWN = 48


def host_room(night: Night, state: LiveNight) -> dict:
    """The host's room-wide display (no forms): standings, next seats, the prizes. In a big
    room the top of the standings and the first next seats; all of them are on the master
    sheet and the TV."""
    awards = final_awards(state) if state.phase in ("over", "ended") else []
    ranked, moves = standings(state), movement(state)
    return {"phase": state.phase, "standings": ranked[:HOST_STANDINGS_SHOWN],
            "standings_total": len(ranked), "movement": moves[:HOST_MOVES_SHOWN],
            "movement_total": len(moves),
            "awards": awards, "pot": money(night_pot(state)) if awards else "",
            "unpaid": pot_unpaid(state, awards) if state.ended else "",
            "seq": state.versions.seats, "night_pk": night.pk}


def host_board(night: Night, state: LiveNight, query: Mapping[str, str] | None = None) -> dict:
    """The host's night page: the tables with their join links, the roster, the forms. A big
    room's tables and players come a page at a time (``query``: the page's query string)."""
    query = query or {}
    links = table_links(night)
    numbers, tables_page = paginate(range(1, len(state.tables) + 1), query, "tables",
                                    HOST_TABLES_PER_PAGE)
    tables = []
    for n in numbers:
        link = links.get(n)
        tables.append({"number": n, "html": render_table(state, n),
                       "path": reverse("table", args=[link.token]) if link else ""})
    return {**host_forms(night, state, query), "tables": tables, "tables_page": tables_page}


def host_forms(night: Night, state: LiveNight, query: Mapping[str, str] | None = None) -> dict:
    """The night page's parts but its tables (which the socket keeps current): what a host
    command's answer draws again (the players, the seat swap, ties, the reveal)."""
    query = query or {}
    rules = state.rules
    everyone = list(night.players.all())
    listed = len(everyone)
    count = sum(1 for p in everyone if p.arrived_at)  # pre-registered guests not here yet aside
    search = search_text(query.get("q"))
    found = matching(everyone, search) if search else everyone
    players, players_page = paginate(found, query, "players", HOST_PLAYERS_PER_PAGE)
    seated = [s.name for t in state.tables for s in t.seats]
    low, high = rules.player_limits
    if not low <= count <= high:
        note = f"These rules seat {low} to {high} players; {count} checked in."
    else:
        note = f"{count} players are ready to be seated."
    if count < listed:
        note += (f" The {listed - count:,} not here yet are left out; if they come later they "
                 "check in at the desk and take a ghost's chair.")
    room = host_room(night, state)
    return {
        "night": night, "rules": rules, "phase": state.phase, "players": players,
        "players_page": players_page, "search": search, "players_count": listed,
        "here_count": count, "not_here": listed - count,
        "expected_count": sum(1 for p in everyone if p.expected),
        "fee": money(state.entry_fee_cents),
        "fee_warning": fee_without_prizes(rules, state.entry_fee_cents),
        "banner": round_banner(state), "room": room, "awards": room["awards"],
        "ties": list(pending_ties(night, state).values()),
        "join_path": reverse("join", args=[night.join_token]),
        "tv_path": reverse("tv", args=[night.tv_token]), "tv_join_path": reverse("tv_join"),
        # Two lists to pick from in a small room; two names to type in a big one.
        "seated_names": seated if len(seated) <= HOST_PLAYERS_PER_PAGE else [],
        "seating_note": note, "seq": state.seq, "paused": state.paused,
        "revealed": state.revealed, "prizes_out": state.prizes_out,
        "has_ghost_chair": state.next_ghost() is not None,
        "ws_url": f"/ws/host/{night.pk}/",
    }


# -- calls for the host ---------------------------------------------------------------------

#: How long a table's phone says how the host answered its call.
ANSWER_SHOWN = timedelta(minutes=10)


_calls_seen: dict[tuple[int, int | None], int] = {}


def calls_seq(night_id: int, table: int | None = None, cached: bool = False) -> int | None:
    """The data-seq of a calls fragment: when a call of the night (or of ``table``) last
    changed, in milliseconds (calls are not events of the log, so they have no seq of it).
    ``cached``: as this process last read it, with no trip to the database (None if it has
    not, or a call changed here since)."""
    if cached:
        return _calls_seen.get((night_id, table))
    calls = HostCall.objects.filter(night_id=night_id)
    if table is not None:
        calls = calls.filter(table=table)
    latest = calls.aggregate(latest=Max("changed_at"))["latest"]
    seq = _calls_seen[(night_id, table)] = int(latest.timestamp() * 1000) if latest else 0
    return seq


def calls_changed(night_id: int) -> None:
    """A call of the night was made or answered in this process: read them again."""
    for key in [k for k in list(_calls_seen) if k[0] == night_id]:
        _calls_seen.pop(key, None)


def _at(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def host_claim_html(night: Night, name: str) -> str:
    """A player's phone as the host's player list shows it (no data-seq: a sync never asks for
    it; a reload draws it anew). Empty for a name not on tonight's list."""
    player = night.players.filter(name=name).only("pk", "name", "device").first()
    if player is None:
        return ""
    return render_to_string("bunco/host/_claim.html", {"p": player, "night": night, "oob": True})


def host_calls_html(night_id: int) -> str:
    """The host's list of tables waiting for them, oldest first."""
    calls = [{"id": c.pk, "table": c.table, "by": c.by, "at": _at(c.created_at)}
             for c in HostCall.objects.filter(night_id=night_id, answered_at__isnull=True)]
    return render_to_string("bunco/host/_calls.html",
                            {"calls": calls, "seq": calls_seq(night_id)})


def call_host_html(night_id: int, table: int | None, note: str = "") -> str:
    """A table's "Call the host" button and how its last call stands: waiting, or how the
    host answered (for a few minutes). ``table`` None: the phone has no table now."""
    status, at, until = "", "", 0
    if table is not None:
        last = HostCall.objects.filter(night_id=night_id, table=table).order_by("-id").first()
        if last is not None and last.answered_at is None:
            status, at = "waiting", _at(last.created_at)
        elif last is not None and timezone.now() - last.answered_at < ANSWER_SHOWN:
            status, at = last.answer, _at(last.answered_at)
            until = int((last.answered_at + ANSWER_SHOWN).timestamp() * 1000)
    return render_to_string("tables/_call_host.html", {
        "table": table, "status": status, "at": at, "note": note, "until": until,
        "seq": calls_seq(night_id, table) if table is not None else 0})
