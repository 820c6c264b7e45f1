"""The phones: a table's own device, a player's own phone, and "find your seat"."""

from __future__ import annotations

import contextlib

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco import devices, disk, limits, screens, services, stick
from bunco.forms import first_error
from bunco.models import Night
from bunco.names import matching, search_text
from bunco.selectors import (
    live_state,
    night_by_join_token,
    player_by_token,
    table_link_by_token,
)
from bunco.services import Ack, Claim, CommandRefused
from scoring.roll import DIE_BUTTONS, QUICK_KINDS
from tables.forms import ClaimForm, PickNameForm, RollForm

NOT_YOURS = ("{name} is on another phone; that tap was not counted. If that phone died, "
             "ask the host to release {name}.")
QUICK_BUTTONS = [{"kind": k, "label": screens.QUICK_LABELS[k]} for k in QUICK_KINDS]


def _pad(tap_base: str) -> dict:
    return {"quick_buttons": QUICK_BUTTONS, "die_buttons": DIE_BUTTONS, "tap_base": tap_base}


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Find your seat: a guest taps their name, and this phone becomes that player's. Only
    names no phone has picked yet are offered; names this phone picked come first. Once the
    night has ended it says so, and a name this phone picked leads to that player's results."""
    night = night_by_join_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    error, status = "", 200
    ended = night.status == Night.Status.FINISHED
    if request.method == "POST" and ended:
        error, status = "The night has ended: names can no longer be picked.", 409
    elif request.method == "POST":
        form = PickNameForm(request.POST)
        picked = (night.players.filter(pk=form.cleaned_data["player"]).first()
                  if form.is_valid() else None)
        if picked is None:
            error, status = (first_error(form) if not form.is_valid()
                             else "that name is not on tonight's list"), 400
        else:
            secret = devices.secret_of(request.COOKIES) or devices.new_secret()
            try:
                services.player_claim(night=night, player=picked,
                                      device=devices.fingerprint(secret))
            except CommandRefused as exc:
                error, status = str(exc), 409
            else:
                response = redirect("player", picked.token)
                devices.remember(response, secret)
                return response
    mine = devices.fingerprint_of(request.COOKIES)
    players = list(night.players.all())
    free = [p for p in players if not p.device]
    # A big night's guests type a few letters of their name rather than scroll 2,000 names.
    search = search_text(request.GET.get("q"))
    searching = len(free) > JOIN_LIST_ALL
    if searching:
        found = matching(free, search) if search else []
        free = found[:JOIN_LIST_ALL]
    return render(request, "bunco/join.html", {
        "night": night, "error": error, "ended": ended,
        "mine": [p for p in players if mine and p.device == mine],
        "free": free, "searching": searching, "search": search,
        "more": searching and len(found) > len(free),
        "taken": sum(1 for p in players if p.device and p.device != mine),
    }, status=status)


#: Up to this many free names, find-your-seat lists them all; beyond, it asks for a search.
JOIN_LIST_ALL = 60


def _not_yours(request: HttpRequest, who) -> HttpResponse:
    return render(request, "bunco/claimed_elsewhere.html",
                  {"player": who, "join_token": who.night.join_token}, status=403)


@require_POST
def player_release(request: HttpRequest, token: str) -> HttpResponse:
    """"Not me": this phone gives back the name it picked, and picks again."""
    who = player_by_token(token)
    if who is None:
        return render(request, "bunco/not_found.html", status=404)
    if not who.device or not devices.may_use(who, request.COOKIES):
        return _not_yours(request, who)
    if who.night.status == Night.Status.FINISHED:  # no picking again: keep the results here
        return redirect("join", who.night.join_token)
    with contextlib.suppress(CommandRefused):  # freed meanwhile: picking again is what's left
        services.player_release(night=who.night, player=who,
                                device=devices.fingerprint_of(request.COOKIES))
    return redirect("join", who.night.join_token)


@require_GET
@ensure_csrf_cookie
def player(request: HttpRequest, token: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return render(request, "bunco/not_found.html", status=404)
    if not devices.may_use(who, request.COOKIES):
        return _not_yours(request, who)
    night = who.night
    state = live_state(night)
    where = state.seat_of(who.name)
    return stick.remember_night(request, render(request, "bunco/player_page.html", {
        "call_html": screens.call_host_html(night.pk, where[0] if where else None),
        "night": night, "me": screens.my_seat(state, who.name, who.left_early),
        "banner": screens.round_banner(state), "ws_url": f"/ws/player/{who.token}/",
        "claimed": bool(who.device) and night.status != Night.Status.FINISHED,
        "me_token": who.token, **_pad(f"/p/{who.token}/"),
        "how_we_play": screens.house_rules_card(night),
    }), night.pk)


@require_GET
@ensure_csrf_cookie
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return render(request, "bunco/not_found.html", status=404)
    night = link.night
    state = live_state(night)
    return stick.remember_night(request, render(request, "tables/table_page.html", {
        "night": night, "number": link.number,
        "table_html": screens.render_table(state, link.number),
        "call_html": screens.call_host_html(night.pk, link.number),
        "banner": screens.round_banner(state), "ws_url": f"/ws/table/{link.token}/",
        **_pad(f"/t/{link.token}/"), "how_we_play": screens.house_rules_card(night),
    }), night.pk)


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
    if table is not None and state.room is not None and 1 <= table <= len(state.room.tables):
        where = services.claim_for(state, table)
        body["at"] = {"set": where.set_number, "round": where.round_number, "table": table,
                      "pos": where.position}
    if error is not None:
        return refusal(error, 409, **body)
    recorded = {"recorded": ack.row.seq if ack.row else None}
    if not ack.applied:
        recorded["message"] = "Already recorded"
    return 200, {"ok": True, **recorded, **body}


def refusal(error: str, status: int = 409, **body) -> tuple[int, dict]:
    """A tap the game says no to: final, the phone lists it under "Not counted" (unlike a
    busy or failing server's answer, after which it sends the same tap again)."""
    return status, {"ok": False, "refused": True, "error": error, **body}


def earlier_answer(night: Night, fields) -> tuple[int, dict] | None:
    """The first answer to a tap whose key is already in the log: looked up before any
    refusal, so a resend of a counted roll is never reported as not counted."""
    key = fields.get("key")
    earlier = services.event_ack(night=night, key=key) if key else None
    if earlier is None:
        return None
    return tap_answer(night, earlier.row.table, earlier)


def tap(night: Night, table: int, action: str, actor: str, fields, *,
        device: bool = False) -> tuple[int, dict]:
    """One tap at ``table`` (a roll, an undo or a "done"), from a form post or a websocket
    message alike: validated, run, answered."""
    if action not in ("roll", "undo", "finish"):
        return refusal("unknown action", 404)
    form = (RollForm if action == "roll" else ClaimForm)(fields)
    if not form.is_valid():
        return tap_answer(night, table, error=first_error(form))
    data = form.cleaned_data
    claimed_table = data["table"]
    if claimed_table != table:
        # A resend of a tap already applied gets its first answer, even after its player
        # moved on; a new tap for a table they left is refused.
        earlier = earlier_answer(night, data)
        if earlier is not None:
            return earlier
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


#: A link this server does not know: the night may not be opened here yet (a laptop that
#: died, its night's copy still to be opened on this one). Not a decision of the game: the
#: phone keeps its taps and sends them once the night is here.
UNKNOWN = "The laptop does not know this night yet: your rolls are kept"


def unknown_link() -> tuple[int, dict]:
    return 404, {"ok": False, "retry": True, "unknown": True, "error": UNKNOWN}


def cannot_save() -> tuple[int, dict]:
    """The laptop could not write the tap (its disk full or failing): not a decision of the
    game either. The phone keeps the tap and sends it again; the host's page says why."""
    return 503, {"ok": False, "retry": True, "disk": True, "error": disk.PHONES}


def saved_or_kept(night_id: int, run, *args, **kwargs) -> tuple[int, dict]:
    """``run(*args, **kwargs)`` (a tap), or the answer that the laptop cannot save it now."""
    try:
        return run(*args, **kwargs)
    except (DatabaseError, OSError) as exc:
        if not disk.is_disk_error(exc):
            raise
        disk.data_failed(exc, night_id)
        return cannot_save()


def _json(answer: tuple[int, dict]) -> JsonResponse:
    status, body = answer
    response = JsonResponse(body, status=status)
    response.uncompressed = True  # a tap's answer: see bunco.middleware.GZipPages
    return response


@require_POST
def player_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return _json(unknown_link())
    if not devices.may_use(who, request.COOKIES):
        return _json(refusal(NOT_YOURS.format(name=who.name), 403))
    if not limits.TAPS.take(token):
        return JsonResponse(limits.RETRY_LATER, status=429)
    return _json(saved_or_kept(who.night_id, player_tap_answer, who, action, request.POST))


def player_tap_answer(who, action: str, fields) -> tuple[int, dict]:
    """A player's phone's tap at the table its owner sits at now. A phone whose owner has no
    seat (the night ended, sent home) still gets "already recorded" for a tap in the log."""
    table, why = player_seat(who)
    if table is None:
        return earlier_answer(who.night, fields) or refusal(why)
    return tap(who.night, table, action, who.name, fields)


@require_POST
def table_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return _json(unknown_link())
    if not limits.TAPS.take(token):
        return JsonResponse(limits.RETRY_LATER, status=429)
    return _json(saved_or_kept(link.night_id, tap, link.night, link.number, action,
                               f"table {link.number}", request.POST, device=True))
