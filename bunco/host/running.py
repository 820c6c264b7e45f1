"""The host running her night: its page, and the commands on it (the guests, the seats, a
round's start and bell, taking back an entry, a pause or a break, the end, the next night).
Each command is a ``host_command``: htmx gets back the parts of the page it changed."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from bunco import stick
from bunco.forms import first_error
from bunco.host import auth as host
from bunco.host.commands import form_data, host_command
from bunco.host.forms import BreakForm, NameForm, NamesForm, RoundClaimForm, SwapForm, TakeBackForm
from bunco.host.takeback import describe_take_back
from bunco.live import groups, screens, season
from bunco.models import Night, Player
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused


@require_GET
@host.host_required
@ensure_csrf_cookie
def host_night(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    board = screens.host_board(night, state, request.GET)
    board["start_key"] = uuid.uuid4()
    board["calls_html"] = screens.host_calls_html(night.pk)
    if state.phase in ("setup", "ready"):
        board["bring_back"] = season.travelling_prizes(night)
    return stick.remember_night(request, render(request, "bunco/host/night.html", board),
                                night.pk)


@host_command("players")
def host_players_add(request, night):
    data = form_data(NamesForm, request)
    added = services.players_add(night=night, names=data["players"], expected=data["expected"])
    if data["expected"]:
        messages.success(request, f"{len(added):,} guests expected: they check in at the desk.")
        request.whole_page = True  # the page now offers their cards and the desk


@host_command("players")
def host_player_remove(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_remove(night=night, player=player)


@host_command()
def host_seat(request, night):
    services.night_seat(night=night)


@host_command("swap")
def host_swap(request, night):
    data = form_data(SwapForm, request)
    services.seats_swap(night=night, first=data["first"], second=data["second"])


def _answered(request, ack) -> None:
    if ack.duplicate:
        messages.info(request, ack.message)


@host_command("swap")
def host_round_start(request, night):
    data = form_data(RoundClaimForm, request)
    _answered(request, services.round_start(
        night=night, key=data["key"], round_number=data["round"], set_number=data["set"],
        practice=data["practice"]))


@host_command()
def host_bell(request, night):
    data = form_data(RoundClaimForm, request)
    services.bell_ring(night=night, key=data["key"], round_number=data["round"],
                       set_number=data["set"])


@require_GET
@host.host_required
def host_takeback(request: HttpRequest, pk: int) -> HttpResponse:
    """What taking back an entry would change, for the host to confirm (a dialog's body)."""
    night = get_object_or_404(Night, pk=pk)
    form = TakeBackForm(request.GET)
    if not form.is_valid():
        preview = {"what": "that", "error": first_error(form)}
    else:
        try:
            preview = describe_take_back(services.take_back_preview(
                night=night, what=form.cleaned_data["what"]))
        except CommandRefused as exc:
            preview = {"what": "that", "error": str(exc)}
        preview["action"] = reverse("host_void", args=[night.pk])
        preview["key"] = uuid.uuid4()
    return render(request, "bunco/host/_takeback.html", {"preview": preview})


@host_command()
def host_void(request, night):
    data = form_data(TakeBackForm, request)
    services.event_void(night=night, seq=data["what"], key=data["key"], actor="host")
    messages.success(request, "Taken back.")


@host_command("players", "swap")
def host_player_arrive(request, night):
    services.player_arrive(night=night, name=form_data(NameForm, request)["name"])


@host_command("players")
def host_player_leave(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_leave(night=night, player=player)


@host_command("players", "swap")
def host_player_rename(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_rename(night=night, player=player, name=form_data(NameForm, request)["name"])


@host_command("players")
def host_player_release(request, night, player_pk):
    """A guest's phone died: their name is free for the next phone that picks it."""
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_release(night=night, player=player)
    messages.success(request, f"{player.name} can pick their name again on any phone.")


@host_command()
def host_pause(request, night):
    if live_state(night).paused:
        services.game_resume(night=night)
    else:
        services.game_pause(night=night)


@host_command()
def host_break(request, night):
    data = form_data(BreakForm, request)
    if data["end"]:
        services.break_end(night=night)
    else:
        services.break_start(night=night, minutes=data["minutes"])
        messages.success(request, f"A {data['minutes']}-minute break: the TV and every phone "
                                  "count it down.")


@host_command()
def host_end(request, night):
    """The night ends. With a TV showing it, the phones keep the prizes until the TV reveals
    them (the log says so, so a night opened again reveals alike)."""
    services.night_end(night=night, tv_reveals=groups.watching(groups.tv(night.pk)))


@host_command()
def host_night_again(request, night):
    again = services.night_again(night=night)
    request.session["next_night"] = again.pk
