"""The phones: a table's own device, a player's own phone, and "find your seat"."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from bunco import limits, screens, services
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
               error: str | None = None) -> tuple[int, dict]:
    """Answer a tap with the table as it now stands (the websocket brings it too): recorded,
    already recorded, or refused with a message naming what happened. (status, body)"""
    state = ack.state if ack is not None else live_state(night)
    html = ""
    if table is not None and 1 <= table <= len(state.tables):
        html = (ack.frames.tables.get(table) if ack is not None and ack.frames else None) or \
            screens.render_table(state, table)
    body = {"html": html, "seq": state.seq}
    if error is not None:
        return 409, {"ok": False, "error": error, **body}
    if ack.duplicate:
        return 200, {"ok": True, "duplicate": True, "message": ack.message, **body}
    recorded = {"recorded": ack.row.seq if ack.row else None}
    if not ack.applied:
        recorded["message"] = "Already recorded"
    return 200, {"ok": True, **recorded, **body}


def tap(night: Night, table: int, action: str, actor: str, fields, *,
        device: bool = False) -> tuple[int, dict]:
    """One tap at ``table`` (a roll, an undo or a "done"), from a form post or a websocket
    message alike: validated, run, answered."""
    if action not in ("roll", "undo", "finish"):
        return 404, {"ok": False, "error": "unknown action"}
    form = (RollForm if action == "roll" else ClaimForm)(fields)
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
            f"this is table {table}'s screen; that tap was for table {claimed_table}"
            if device else
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


def player_seat(player) -> tuple[int | None, str]:
    """The table a player's phone taps at now, or why it cannot tap."""
    state = live_state(player.night)
    if state.ended:
        return None, "the night has ended; that tap was not counted"
    where = state.seat_of(player.name)
    if where is not None:
        return where[0], ""
    if player.left_early:
        return None, "you have left the game: a ghost plays your chair"
    return None, "you are not seated yet"


SLOW_DOWN = {"ok": False, "retry": True, "error": limits.SLOW_DOWN}


def _json(answer: tuple[int, dict]) -> JsonResponse:
    status, body = answer
    return JsonResponse(body, status=status)


@require_POST
def player_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    if not limits.TAPS.take(token):
        return JsonResponse(SLOW_DOWN, status=429)
    table, why = player_seat(who)
    if table is None:
        return JsonResponse({"ok": False, "error": why}, status=409)
    return _json(tap(who.night, table, action, who.name, request.POST))


@require_POST
def table_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    if not limits.TAPS.take(token):
        return JsonResponse(SLOW_DOWN, status=429)
    return _json(tap(link.night, link.number, action, f"table {link.number}", request.POST,
                     device=True))
