"""The phones: a table's own device, a player's own phone, and "find your seat"."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from bunco import screens, services
from bunco.forms import first_error
from bunco.models import Night
from bunco.selectors import (
    live_state,
    night_by_join_token,
    player_by_token,
    table_link_by_token,
)
from bunco.services import Ack, Claim, CommandRefused
from scoring.roll import QUICK_KINDS
from tables.forms import ClaimForm, RollForm

QUICK_BUTTONS = [{"kind": k, "label": screens.QUICK_LABELS[k]} for k in QUICK_KINDS]


def _pad(tap_base: str) -> dict:
    return {"quick_buttons": QUICK_BUTTONS, "tap_base": tap_base}


@require_GET
def join(request: HttpRequest, token: str) -> HttpResponse:
    night = night_by_join_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    return render(request, "bunco/join.html", {"night": night, "players": night.players.all()})


@require_GET
@ensure_csrf_cookie
def player(request: HttpRequest, token: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return render(request, "bunco/not_found.html", status=404)
    night = who.night
    state = live_state(night)
    return render(request, "bunco/player_page.html", {
        "night": night, "me": screens.my_seat(state, who.name, who.left_early),
        "banner": screens.round_banner(state), "ws_url": f"/ws/player/{who.token}/",
        **_pad(f"/p/{who.token}/"),
    })


@require_GET
@ensure_csrf_cookie
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return render(request, "bunco/not_found.html", status=404)
    night = link.night
    state = live_state(night)
    return render(request, "tables/table_page.html", {
        "night": night, "number": link.number,
        "table_html": screens.render_table(state, link.number),
        "banner": screens.round_banner(state), "ws_url": f"/ws/table/{link.token}/",
        **_pad(f"/t/{link.token}/"),
    })


def tap_answer(night: Night, table: int | None, ack: Ack | None = None,
               error: str | None = None) -> JsonResponse:
    """Answer a tap with the table as it now stands (the websocket brings it too): recorded,
    already recorded, or refused with a message naming what happened."""
    state = ack.state if ack is not None else live_state(night)
    html = ""
    if table is not None and 1 <= table <= len(state.tables):
        html = (ack.frames.tables.get(table) if ack is not None and ack.frames else None) or \
            screens.render_table(state, table)
    body = {"html": html, "seq": state.seq}
    if error is not None:
        return JsonResponse({"ok": False, "error": error, **body}, status=409)
    if ack.duplicate:
        return JsonResponse({"ok": True, "duplicate": True, "message": ack.message, **body})
    recorded = {"recorded": ack.row.seq if ack.row else None}
    if not ack.applied:
        recorded["message"] = "Already recorded"
    return JsonResponse({"ok": True, **recorded, **body})


def do_tap(request: HttpRequest, night: Night, table: int, action: str, actor: str,
           moved_from: int | None = None) -> HttpResponse:
    form_class = RollForm if action == "roll" else ClaimForm
    if action not in ("roll", "undo", "finish"):
        return JsonResponse({"ok": False, "error": "unknown action"}, status=404)
    form = form_class(request.POST)
    if not form.is_valid():
        return tap_answer(night, table, error=first_error(form))
    data = form.cleaned_data
    claimed_table = data["table"]
    if claimed_table != table:
        # A resend of a tap already applied gets its first answer, even after its player
        # moved on; a new tap for a table they left is refused.
        earlier = services.event_ack(night=night, key=data["key"]) if data["key"] else None
        if earlier is not None:
            return tap_answer(night, earlier.row.table, earlier)
        return tap_answer(night, table, error=(
            f"you have moved to table {table}; that tap was for table {claimed_table}"))
    claim = Claim(data["set"], data["round"], table, data["pos"])
    try:
        if action == "roll":
            ack = services.roll_record(night=night, claim=claim, key=data["key"], actor=actor,
                                       quick=data["quick"] or None, dice=data["dice"])
        elif action == "undo":
            ack = services.roll_undo(night=night, claim=claim, key=data["key"], actor=actor)
        else:
            ack = services.table_finish(night=night, claim=claim, key=data["key"], actor=actor)
    except CommandRefused as exc:
        return tap_answer(night, table, error=str(exc))
    return tap_answer(night, table, ack)


@require_POST
def player_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    state = live_state(who.night)
    where = state.seat_of(who.name)
    if where is None:
        if state.ended:
            message = "the night has ended; that tap was not counted"
        elif who.left_early:
            message = "you have left the game: a ghost plays your chair"
        else:
            message = "you are not seated yet"
        return JsonResponse({"ok": False, "error": message}, status=409)
    return do_tap(request, who.night, where[0], action, actor=who.name)


@require_POST
def table_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    return do_tap(request, link.night, link.number, action, actor=f"table {link.number}")
