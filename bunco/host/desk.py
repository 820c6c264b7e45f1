"""The check-in desk at the door of a big night, and the guests' printed cards.

The desk is one box: a person types a name (the matching guests come back as big buttons, a
few at a time), or a handheld scanner types the link on a guest's card and presses Enter (the
guest is checked in at once). Every post answers with a redirect back to the desk, which shows
the last guest's seat in big letters and the box again, empty and focused, for the next one.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from bunco.forms import first_error
from bunco.host import auth as host
from bunco.host.forms import DeskCloseForm, DeskForm
from bunco.live.paging import paginate
from bunco.models import Night, Player
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.names import find, matching, search_text
from bunco.night.selectors import CheckIn, check_in_status
from bunco.night.services import CommandRefused
from scoring.seating import draws_tables

#: Guests the desk shows for a search, a page at a time (big buttons, never the whole list).
DESK_RESULTS = 8
#: Guests waiting for a chair, shown on the desk.
DESK_WAITING_SHOWN = 20
#: Cards on one page of the cards page (ten printed sheets of ten).
CARDS_PER_PAGE = 100
#: A guest's own page, as their card's QR code links to it: ``/p/<token>/``.
CARD_LINK = re.compile(r"/p/([A-Za-z0-9_-]{8,64})(?:/|\b|$)")
LOOKS_LIKE_A_LINK = re.compile(r"^(https?:|/)|://", re.IGNORECASE)


def _desk(night: Night, **query) -> HttpResponse:
    url = reverse("host_desk", args=[night.pk])
    query = {k: v for k, v in query.items() if v not in (None, "")}
    return redirect(url + ("?" + urlencode(query) if query else ""))


def _at(when) -> str:
    return timezone.localtime(when).strftime("%H:%M") if when else ""


def _where(answer: CheckIn) -> str:
    if answer.waiting:
        return "waiting for a chair"
    if answer.table is None:
        return "seated when the host seats everyone"
    return f"table {answer.table}" + (f", seat {answer.seat}" if answer.seat else "")


def _answered(request: HttpRequest, answer: CheckIn) -> None:
    """The line the desk reads out: checked in (and where), or already, and since when."""
    name = answer.player.name
    if answer.already:
        messages.info(request, f"{name} is already checked in at "
                               f"{_at(answer.player.arrived_at)}, {_where(answer)}.")
    elif answer.waiting and answer.round_in_play:
        messages.warning(request, f"{name} is checked in. A round is being played: they take "
                                  "a ghost's chair when it ends (press “Seat waiting guests” "
                                  "between rounds). Until then they wait.")
    elif answer.waiting:
        messages.warning(request, f"{name} is checked in, but no ghost's chair is free: every "
                                  "chair has a player. They wait for a chair (one frees up "
                                  "when a player goes home).")
    else:
        messages.success(request, f"{name} is checked in: {_where(answer)}.")


def _check_in(request: HttpRequest, night: Night, player: Player) -> HttpResponse:
    try:
        answer = services.player_check_in(night=night, player=player)
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return _desk(night)
    _answered(request, answer)
    return _desk(night, guest=player.pk)


@require_GET
@host.host_required
def host_desk(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    query = request.GET.dict()
    search = search_text(query.get("q"))
    everyone = list(night.players.only("pk", "name", "arrived_at", "drawn_table", "expected"))
    here = sum(1 for p in everyone if p.arrived_at)
    results, page, exact = [], None, None
    if search:
        found = sorted(matching(everyone, search), key=lambda p: p.arrived_at is not None)
        results, page = paginate(found, query, "page", DESK_RESULTS)
        exact = find([p.name for p in everyone], search)
    guest = None
    wanted = str(query.get("guest", ""))
    if wanted.isascii() and wanted.isdigit() and len(wanted) <= 12:  # bounded, then read
        player = next((p for p in everyone if p.pk == int(wanted)), None)
        if player is not None and player.arrived_at:
            guest = check_in_status(player, state)
    closes = night.check_in_closes_at
    return render(request, "bunco/host/desk.html", {
        "night": night, "phase": state.phase, "search": search, "results": results,
        "page": page, "exact": exact, "guest": guest, "here": here, "listed": len(everyone),
        "waiting": state.waiting[:DESK_WAITING_SHOWN], "waiting_count": len(state.waiting),
        "closes": closes, "closed": closes is not None and timezone.now() >= closes,
        "draws": draws_tables(state.rules, len(everyone)), "rules": state.rules,
        "ghost_free": state.seated and state.next_ghost() is not None,
    })


@require_POST
@host.host_required
def host_desk_find(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk's one box: a guest's card link (a scanner typed it) checks that guest in;
    anything else is a name to look for."""
    night = get_object_or_404(Night, pk=pk)
    form = DeskForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _desk(night)
    typed = form.cleaned_data["q"]
    link = CARD_LINK.search(typed)
    if link is not None:
        player = Player.objects.filter(token=link.group(1)).select_related("night").first()
        if player is None:
            messages.error(request, "That card's link is not a guest's: nobody was checked in. "
                                    "Type the guest's name instead.")
            return _desk(night)
        if player.night_id != night.pk:
            messages.error(request, f"That card is for another night ({player.night.name}): "
                                    "nobody was checked in. Type the guest's name instead.")
            return _desk(night)
        return _check_in(request, night, player)
    if LOOKS_LIKE_A_LINK.search(typed):
        messages.error(request, "That link is not a guest's card: nobody was checked in. Scan "
                                "the QR code on the guest's card, or type their name.")
        return _desk(night)
    return _desk(night, q=search_text(typed))


@require_POST
@host.host_required
def host_desk_check_in(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, night=night)
    return _check_in(request, night, player)


@require_POST
@host.host_required
def host_desk_walk_in(request: HttpRequest, pk: int) -> HttpResponse:
    """A guest who is not on the list: added and checked in."""
    night = get_object_or_404(Night, pk=pk)
    form = DeskForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _desk(night)
    name = form.cleaned_data["q"]
    try:
        answer = services.walk_in_check_in(night=night, name=name)
    except CommandRefused as exc:
        messages.error(request, f"{exc} Nobody was added.")
        return _desk(night, q=search_text(name))
    _answered(request, answer)
    return _desk(night, guest=answer.player.pk)


@require_POST
@host.host_required
def host_desk_waiting(request: HttpRequest, pk: int) -> HttpResponse:
    """Guests waiting for a chair take the free ghosts' chairs."""
    night = get_object_or_404(Night, pk=pk)
    try:
        seated = services.waiting_seat(night=night)
    except CommandRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Seated in a ghost's chair: {', '.join(seated)}.")
    return _desk(night)


def closing_time(clock: dt.time, now: dt.datetime) -> dt.datetime:
    """The closing time a host typed, as the next such time: today's, unless that was more
    than twelve hours ago (typed before midnight for just after it)."""
    local = timezone.localtime(now)
    at = timezone.make_aware(dt.datetime.combine(local.date(), clock))
    return at + dt.timedelta(days=1) if at < local - dt.timedelta(hours=12) else at


@require_POST
@host.host_required
def host_desk_close(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    form = DeskCloseForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _desk(night)
    data, now = form.cleaned_data, timezone.now()
    closes = (None if data["reopen"] else now if data["now"]
              else closing_time(data["closes"], now))
    try:
        services.check_in_close(night=night, closes_at=closes)
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return _desk(night)
    if closes is None:
        messages.success(request, "Check-in is open again.")
    else:
        messages.success(request, f"Check-in closes at {_at(closes)}.")
    return _desk(night)


@require_GET
@host.host_required
def host_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """A card for every pre-registered guest: their name, the night's, and a QR code of their
    own page, which is also what the desk scans. Ten to a printed page."""
    night = get_object_or_404(Night, pk=pk)
    guests = sorted(night.players.filter(expected=True).only("name", "token"),
                    key=lambda p: p.name.casefold())
    page = None
    if request.GET.get("all") != "1":  # ?all=1: every card on one page, to print at once
        guests, page = paginate(guests, request.GET.dict(), "page", CARDS_PER_PAGE)
    cards = [{"name": p.name, "path": reverse("player", args=[p.token])} for p in guests]
    return render(request, "bunco/host/cards.html", {"night": night, "cards": cards,
                                                     "page": page})
