"""The TV: every table's live tally, the bell, buncos, the movement board, standings, prizes."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from bunco import broadcast
from bunco.selectors import live_state, night_by_tv_token


@require_GET
def tv(request: HttpRequest, token: str) -> HttpResponse:
    night = night_by_tv_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    state = live_state(night)
    room, standings = broadcast.tv_room_parts(night, state)
    return render(request, "bunco/tv_page.html", {
        "night": night,
        "banner_html": broadcast.banner_html(state),
        "tables_html": broadcast.tv_tables_html(state, broadcast.all_tables(state)),
        "room_html": room, "standings_html": standings,
        "bunco_html": broadcast.tv_bunco_html(state),
        "join_path": reverse("join", args=[night.join_token]),
        "ws_url": f"/ws/tv/{night.tv_token}/",
    })
