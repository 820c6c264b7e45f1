"""The TV: every table's live tally, the bell, buncos, the movement board, standings, prizes."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from bunco import limits, stick
from bunco.forms import first_error
from bunco.live import room_frames
from bunco.night.cache import live_state
from bunco.night.selectors import night_by_tv_code, night_by_tv_token
from bunco.tv.forms import TvCodeForm


@require_GET
def tv_join(request: HttpRequest) -> HttpResponse:
    """A short address a person can type on a TV's browser, then the code the host's page
    shows: this TV becomes the night's TV screen."""
    error, status = "", 200
    if "code" in request.GET:
        form = TvCodeForm(request.GET)
        if not limits.TV_CODES.take(request.META.get("REMOTE_ADDR", "")):
            error, status = "Too many tries: wait a few seconds, then type the code again.", 429
        elif form.is_valid():
            night = night_by_tv_code(form.cleaned_data["code"])
            if night is not None:
                return redirect("tv", night.tv_token)
            error, status = (f"No night has the TV code {form.cleaned_data['code']}. "
                             "Check the code on the host's page."), 404
        else:
            error, status = first_error(form), 400
    return render(request, "bunco/tv_join.html", {"error": error,
                                                  "code": request.GET.get("code", "")[:20]},
                  status=status)


@require_GET
def tv(request: HttpRequest, token: str) -> HttpResponse:
    night = night_by_tv_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    state = live_state(night)
    room, standings = room_frames.tv_room_parts(night, state)
    return stick.remember_night(request, render(request, "bunco/tv_page.html", {
        "night": night,
        "banner_html": room_frames.banner_html(state),
        "tables_html": room_frames.tv_tables_html(state, room_frames.all_tables(state)),
        "room_html": room, "standings_html": standings,
        "bunco_html": room_frames.tv_bunco_html(state),
        "join_path": reverse("join", args=[night.join_token]),
        "ws_url": f"/ws/tv/{night.tv_token}/",
    }), night.pk)
