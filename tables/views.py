"""The phones: a table's own device, a player's own phone, and "find your seat"."""

from __future__ import annotations

import contextlib

from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco import limits, stick
from bunco.forms import first_error
from bunco.laptop import reclaim
from bunco.live import screens, season
from bunco.models import Night
from bunco.night import devices, services
from bunco.night.cache import live_state
from bunco.night.names import matching, search_text
from bunco.night.selectors import night_by_join_token, player_by_pk
from bunco.night.services import CommandRefused
from bunco.night.tap_reads import player_by_token, table_link_by_token
from scoring.roll import DIE_BUTTONS
from tables.forms import HeadStartForm, PickNameForm


def _pad(tap_base: str, rules) -> dict:
    """The pad's buttons, named in the night's own words."""
    return {"quick_buttons": [{"kind": k, "label": label}
                              for k, label in screens.quick_labels(rules).items()],
            "die_buttons": DIE_BUTTONS, "tap_base": tap_base}


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Find your seat: a guest taps their name, and this phone becomes that player's. Only
    names no phone has picked yet are offered; names this phone picked come first. Once the
    night has ended a name this phone picked leads to that player's results, and a guest on
    a new phone gets their night back as the host chose (``bunco/laptop/reclaim.py``)."""
    night = night_by_join_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    ended = night.status == Night.Status.FINISHED
    by_code = ended and reclaim.mode() == reclaim.CODE
    error, status = "", 200
    if request.method == "POST":
        error, status, picked = _pick(request, night, ended)
        if picked is not None:
            return picked
    mine = devices.fingerprint_of(request.COOKIES)
    players = list(night.players.all())
    # after the end, with the code, any name may be taken back: else only the free ones
    free = [p for p in players if not (mine and p.device == mine) and (by_code or not p.device)]
    # A big night's guests type a few letters of their name rather than scroll 2,000 names.
    search = search_text(request.GET.get("q"))
    searching = len(free) > JOIN_LIST_ALL
    if searching:
        found = matching(free, search) if search else []
        free = found[:JOIN_LIST_ALL]
    return render(request, "bunco/join.html", {
        "night": night, "error": error, "ended": ended, "by_code": by_code,
        "mine": [p for p in players if mine and p.device == mine],
        "free": free, "searching": searching, "search": search,
        "more": searching and len(found) > len(free),
        "taken": sum(1 for p in players if p.device and p.device != mine),
    }, status=status)


def _pick(request: HttpRequest, night, ended: bool) -> tuple[str, int, HttpResponse | None]:
    """A guest tapped a name: (error, status, None), or the way to their page."""
    form = PickNameForm(request.POST)
    picked = (night.players.filter(pk=form.cleaned_data["player"]).first()
              if form.is_valid() else None)
    if picked is None:
        return (first_error(form) if not form.is_valid()
                else "that name is not on tonight's list"), 400, None
    secret = devices.secret_of(request.COOKIES) or devices.new_secret()
    device = devices.fingerprint(secret)
    try:
        if ended:
            _take_back(night, picked, device, form.cleaned_data["code"],
                       request.META.get("REMOTE_ADDR", ""))
        else:
            services.player_claim(night=night, player=picked, device=device)
    except CommandRefused as exc:
        return str(exc), 409, None
    response = redirect("player", picked.token)
    devices.remember(response, secret)
    return "", 200, response


def _take_back(night, picked, device: str, code: str, address: str) -> None:
    """After the end: a free name is this phone's at once; one on another phone only with
    the night's join code, where the host chose that (else she releases it first)."""
    if picked.device and picked.device != device:
        if reclaim.mode() != reclaim.CODE:
            raise CommandRefused(f"{picked.name} is on another phone. If that phone is gone, "
                                 "ask the host to release your name, then tap it here again.")
        if not limits.JOIN_CODES.take(address):
            raise CommandRefused("Too many tries: wait a few seconds, then try again.")
        if code != night.join_code:
            raise CommandRefused("That is not tonight's code: ask the host for it (five "
                                 "digits), then tap your name again.")
        services.player_release(night=night, player=picked,
                                actor=f"{picked.name}'s new phone (with the code)")
    services.player_claim(night=night, player=picked, device=device)


#: Up to this many free names, find-your-seat lists them all; beyond, it asks for a search.
JOIN_LIST_ALL = 60


def _not_yours(request: HttpRequest, who) -> HttpResponse:
    return render(request, "bunco/claimed_elsewhere.html",
                  {"player": who, "join_token": who.night.join_token}, status=403)


def _own_player(request: HttpRequest, token: str):
    """The player whose own phone this is, or the page that says why it is not."""
    who = player_by_token(token)
    if who is None:
        return None, render(request, "bunco/not_found.html", status=404)
    if not devices.may_use(who, request.COOKIES):
        return None, _not_yours(request, who)
    return who, None


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
    who, refused = _own_player(request, token)
    if refused:
        return refused
    night = who.night
    state = live_state(night)
    where = state.seat_of(who.name)
    bring_back = [p for p in season.travelling_prizes(night) if p["person_id"] == who.person_id
                  ] if who.person_id and state.phase in ("setup", "ready") else []
    return stick.remember_night(request, render(request, "bunco/player_page.html", {
        "bring_back": bring_back,
        "results_url": reverse("results", args=[results_key(who)]),
        "call_html": screens.call_host_html(night.pk, where[0] if where else None),
        "night": night, "me": screens.my_seat(state, who.name, who.left_early),
        "banner": screens.round_banner(state), "ws_url": f"/ws/player/{who.token}/",
        "claimed": bool(who.device) and night.status != Night.Status.FINISHED,
        "me_token": who.token, **_pad(f"/p/{who.token}/", night.rules),
        "head_start": reverse("player_start", args=[who.token])
        if night.rules.head_table_starts else "",
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
        **_pad(f"/t/{link.token}/", night.rules), "how_we_play": screens.house_rules_card(night),
        "head_start": reverse("table_start", args=[link.token])
        if link.number == 1 and night.rules.head_table_starts else "",
    }), night.pk)


# -- the night a guest keeps ---------------------------------------------------------------------

RESULTS_SALT = "bunco.results"


def results_key(who) -> str:
    """The key of a guest's results page: it shows their night to whoever holds the link (a
    guest shares it), and can do nothing else, unlike their phone's own link."""
    return signing.Signer(salt=RESULTS_SALT).sign(str(who.pk))


@require_GET
def results(request: HttpRequest, key: str) -> HttpResponse:
    """A guest's night once it has ended, to keep or share: as a page, or (``?save=1``) as one
    file that opens on any phone or computer, with no network, long after the night."""
    try:
        pk = int(signing.Signer(salt=RESULTS_SALT).unsign(key))
    except (signing.BadSignature, ValueError):
        return render(request, "bunco/not_found.html", status=404)
    who = player_by_pk(pk)
    state = live_state(who.night) if who else None
    mine = screens.my_night(state, who.name) if who else None
    if mine is None:
        return render(request, "bunco/not_found.html", {
            "why": "This night has not ended yet: your results show here once it has."
            if who else ""}, status=404)
    saved = request.GET.get("save") == "1"
    response = render(request, "bunco/results_page.html", {
        "night": who.night, "n": mine, "saved": saved,
        "css": screens.stylesheet() if saved else ""})
    if saved:
        response["Content-Disposition"] = (
            f'attachment; filename="{screens.results_filename(who.night.name, who.name)}"')
    return response


# -- the head table's bell that starts a round ---------------------------------------------------

def _head_start(request: HttpRequest, night, table: int | None, actor: str, back: str):
    """The head table's phone rings the bell that starts the next round, where the house rules
    have it (every seed does). Answered in JSON to the page's script; without one, back to
    the page."""
    form = HeadStartForm(request.POST)
    error = ""
    if not night.rules.head_table_starts:
        error = "Tonight the host rings the bell that starts each round."
    elif table != 1:
        error = "Only the head table (table 1) rings the bell that starts a round."
    elif not form.is_valid():
        error = "Reload the page: it did not say which round to start."
    else:
        try:
            ack = services.round_start(night=night, actor=actor,
                                       round_number=form.cleaned_data["round"],
                                       set_number=form.cleaned_data["set"], phone=True)
            error = ack.message if ack.duplicate else ""
        except CommandRefused as exc:
            error = str(exc)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": not error, "error": error}, status=200 if not error else 409)
    return redirect(back)


@require_POST
def table_start(request: HttpRequest, token: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return render(request, "bunco/not_found.html", status=404)
    return _head_start(request, link.night, link.number, f"table {link.number}",
                       reverse("table", args=[token]))


@require_POST
def player_start(request: HttpRequest, token: str) -> HttpResponse:
    who, refused = _own_player(request, token)
    if refused:
        return refused
    where = live_state(who.night).seat_of(who.name)
    return _head_start(request, who.night, where[0] if where else None, who.name,
                       reverse("player", args=[token]))
