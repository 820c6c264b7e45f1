"""The host's pages and form posts: set up the night, run it, correct it, end it."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh
from django_htmx.middleware import HtmxDetails

from bunco import limits, stick
from bunco.forms import first_error
from bunco.host import auth as host
from bunco.host.forms import (
    AwardsForm,
    BreakForm,
    JoinCodeForm,
    NameForm,
    NamesForm,
    NightForm,
    PresetForm,
    RollOffForm,
    RoundClaimForm,
    RulesForm,
    SwapForm,
    TakeBackForm,
    agreed_shares,
    award_rows,
)
from bunco.host.rules_form import presets_table, rule_fields
from bunco.host.takeback import describe_take_back
from bunco.laptop import backup
from bunco.live import screens, season
from bunco.models import Night, Player
from bunco.night import services
from bunco.night.selectors import live_state, night_by_join_code, open_nights
from bunco.night.services import CommandRefused
from scoring import PRESETS


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether htmx sent
    it, and from which page."""

    htmx: HtmxDetails

@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Where the start command's QR code leads: a guest to tonight's "find your seat" (with
    several nights open, to the short code the TV shows, which says which), the host to the
    dashboard. A guest whose camera will not scan a QR code types that code here."""
    if host.is_host(request):
        return redirect("host_dashboard")
    if "code" in request.GET:
        return _join_code(request)
    nights = open_nights()
    if len(nights) == 1:
        return redirect("join", nights[0].join_token)
    return render(request, "bunco/home.html", {"ask_code": bool(nights)})


def _join_code(request: HttpRequest) -> HttpResponse:
    """The code a guest typed: the night's "find your seat", or why not (nothing changes)."""
    form = JoinCodeForm(request.GET)
    ended = None
    if not limits.JOIN_CODES.take(request.META.get("REMOTE_ADDR", "")):
        error, status = "Too many tries: wait a few seconds, then type the code again.", 429
    elif not form.is_valid():
        error, status = first_error(form), 400
    else:
        code = form.cleaned_data["code"]
        night = night_by_join_code(code)
        if night is not None and night.status != Night.Status.FINISHED:
            return redirect("join", night.join_token)
        if night is not None:
            ended, error, status = night, f"The code {code} is for {night.name}, which has " \
                                              "ended.", 410
        else:
            error, status = (f"No night has the code {code}. Check the code on the TV or "
                             "the host's page."), 404
    return render(request, "bunco/home.html", {
        "ask_code": True, "error": error, "ended": ended,
        "code": request.GET.get("code", "")[:20]}, status=status)


@require_GET
def host_login(request: HttpRequest, secret: str) -> HttpResponse:
    if not host.secret_matches(secret):
        return render(request, "bunco/not_host.html", status=403)
    host.log_in(request)
    return redirect("host_dashboard")


@require_POST
def host_logout(request: HttpRequest) -> HttpResponse:
    host.log_out(request)
    return render(request, "bunco/not_host.html", {"signed_out": True})


@require_POST
@host.host_required
def host_new_link(request: HttpRequest) -> HttpResponse:
    """A new host link: the old one (and every browser signed in with it) stops working; this
    browser stays signed in with the new one."""
    try:
        secret = host.rotate()
    except host.LinkFixed as exc:
        messages.error(request, str(exc))
        return redirect("host_dashboard")
    host.log_in(request)
    link = request.build_absolute_uri(reverse("host_login", args=[secret]))
    messages.success(request, f"Your new host link is {link} — keep it to yourself. "
                              "The old link no longer works.")
    return redirect("host_dashboard")


def _dashboard(request: HttpRequest, typed=None) -> HttpResponse:
    """The host's list of nights and the form to start one (``typed``: what she sent for a
    night the app refused, shown again to fix)."""
    return render(request, "bunco/host/dashboard.html",
                  {"presets": PRESETS, "nights": Night.objects.listed()[:30],
                   "archived": Night.objects.archived().count(),
                   "copy_to": backup.copy_folder(), "typed": typed or {}})


host_dashboard = require_GET(host.host_required(_dashboard))


@require_GET
@host.host_required
def host_archived(request: HttpRequest) -> HttpResponse:
    return render(request, "bunco/host/archived.html", {"nights": Night.objects.archived()})


@require_POST
@host.host_required
def host_night_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Archive a night (off the main list) or, with ``restore``, bring it back."""
    night = get_object_or_404(Night, pk=pk)
    back = request.POST.get("restore") == "1"
    services.night_archive(night=night, archived=not back)
    if back:
        messages.success(request, f"“{night.name}” is back on your list of nights.")
        return redirect("host_archived" if Night.objects.archived().exists()
                        else "host_dashboard")
    messages.success(request, f"“{night.name}” is archived: it is under “Archived nights” "
                              "and still counts in the season.")
    return redirect("host_dashboard")


@require_http_methods(["GET", "POST"])
@host.host_required
def host_night_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """A page naming the night asks first; a night in play needs one more tick."""
    night = get_object_or_404(Night, pk=pk)
    if request.method == "POST":
        try:
            saved = services.night_delete(night=night,
                                          live_confirmed=request.POST.get("live") == "yes")
        except CommandRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"“{night.name}” is deleted. Its file was saved first: "
                                      f"{saved} (“Open a saved night” brings it back).")
            return redirect("host_dashboard")
    return render(request, "bunco/host/delete.html", {
        "night": night, "live": services.night_in_play(night),
        "folder": backup.folder()})


@require_POST
@host.host_required
def host_night_create(request: HttpRequest) -> HttpResponse:
    try:
        data = form_data(NightForm, request)
        night = services.night_create(name=data["name"], rules_id=data["rules_id"],
                                      entry_fee_cents=data["entry_fee"],
                                      player_names=data["players"])
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return _dashboard(request, typed=request.POST)  # nothing she typed is lost
    return redirect("host_night", night.pk)  # it says itself if the fees pay out to nobody


@require_POST
@host.host_required
def host_demo(request: HttpRequest) -> HttpResponse:
    night = services.demo_night_create()
    return redirect("host_night", night.pk)


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


def _host_command(*parts: str):
    """A host form post: run the command, show its refusal if any. Sent by htmx (the night
    page's forms are), it is answered with the messages and the ``parts`` of the page the
    command changed, so the page keeps its place (the live parts come over the socket); the
    whole page again when its layout changed (seated, ended); a refusal says so in a header
    (host.js keeps her input). A plain post goes back to the night's page."""

    def decorate(command):
        @require_POST
        @host.host_required
        def view(request: HtmxHttpRequest, pk: int, **kwargs) -> HttpResponse:
            night = get_object_or_404(Night, pk=pk)
            layout = _layout(live_state(night)) if request.htmx else None
            try:
                command(request, night, **kwargs)
            except CommandRefused as exc:
                messages.error(request, str(exc))
                again, refused = None, True
            else:
                again, refused = request.session.pop("next_night", None), False
            if not request.htmx:
                return redirect("host_night", again or night.pk)
            if again:
                return HttpResponseClientRedirect(reverse("host_night", args=[again]))
            answer = _changed_parts(request, night, layout, parts)
            answer["X-Bunco-Refused"] = "1" if refused else "0"  # the parts as they now stand
            return answer

        view.__name__ = command.__name__
        return view

    return decorate


def _layout(state) -> str:
    """Which of the night page's three layouts the night is in."""
    return state.phase if state.phase in ("setup", "ended") else "night"


def _changed_parts(request: HtmxHttpRequest, night: Night, layout: str,
                   parts: tuple[str, ...]) -> HttpResponse:
    night.refresh_from_db()
    state = live_state(night)
    if _layout(state) != layout or getattr(request, "whole_page", False):
        return HttpResponseClientRefresh()
    # The players' list as the page shows it: its page and search are in the page's address.
    shown = QueryDict(urlsplit(request.htmx.current_url or "").query)
    board = screens.host_forms(night, state, shown.dict())
    board["start_key"] = uuid.uuid4()  # the next round's start is a new command
    return render(request, "bunco/host/_answer.html", {**board, "parts": parts, "oob": True})


def form_data(form_class, request):
    form = form_class(request.POST)
    if not form.is_valid():
        raise CommandRefused(first_error(form))
    return form.cleaned_data


@_host_command("players")
def host_players_add(request, night):
    data = form_data(NamesForm, request)
    added = services.players_add(night=night, names=data["players"], expected=data["expected"])
    if data["expected"]:
        messages.success(request, f"{len(added):,} guests expected: they check in at the desk.")
        request.whole_page = True  # the page now offers their cards and the desk


@_host_command("players")
def host_player_remove(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_remove(night=night, player=player)


@_host_command()
def host_seat(request, night):
    services.night_seat(night=night)


@_host_command("swap")
def host_swap(request, night):
    data = form_data(SwapForm, request)
    services.seats_swap(night=night, first=data["first"], second=data["second"])


def _answered(request, ack) -> None:
    if ack.duplicate:
        messages.info(request, ack.message)


@_host_command("swap")
def host_round_start(request, night):
    data = form_data(RoundClaimForm, request)
    _answered(request, services.round_start(
        night=night, key=data["key"], round_number=data["round"], set_number=data["set"],
        practice=data["practice"]))


@_host_command()
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


@_host_command()
def host_void(request, night):
    data = form_data(TakeBackForm, request)
    services.event_void(night=night, seq=data["what"], key=data["key"], actor="host")
    messages.success(request, "Taken back.")


@_host_command("players", "swap")
def host_player_arrive(request, night):
    services.player_arrive(night=night, name=form_data(NameForm, request)["name"])


@_host_command("players")
def host_player_leave(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_leave(night=night, player=player)


@_host_command("players", "swap")
def host_player_rename(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_rename(night=night, player=player, name=form_data(NameForm, request)["name"])


@_host_command("players")
def host_player_release(request, night, player_pk):
    """A guest's phone died: their name is free for the next phone that picks it."""
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_release(night=night, player=player)
    messages.success(request, f"{player.name} can pick their name again on any phone.")


@_host_command()
def host_pause(request, night):
    if live_state(night).paused:
        services.game_resume(night=night)
    else:
        services.game_pause(night=night)


@_host_command()
def host_break(request, night):
    data = form_data(BreakForm, request)
    if data["end"]:
        services.break_end(night=night)
    else:
        services.break_start(night=night, minutes=data["minutes"])
        messages.success(request, f"A {data['minutes']}-minute break: the TV and every phone "
                                  "count it down.")


@_host_command()
def host_end(request, night):
    services.night_end(night=night)


@require_http_methods(["GET", "POST"])
@host.host_required
def host_awards(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    typed = None
    if request.method == "POST":
        try:
            data = form_data(AwardsForm, request)
            services.awards_update(
                night=night, awards=data["awards"], award_ties=data["award_ties"],
                one_prize_per_person=data["one_prize_per_person"], pot_cents=data["pot"])
        except CommandRefused as exc:
            messages.error(request, str(exc).split(": ", 1)[-1] if str(exc).startswith("awards")
                           else str(exc))
            typed = request.POST  # shown again as she sent it, to fix
        else:
            messages.success(request, "Prizes saved.")
            return redirect("host_night", night.pk)
    rules, state = night.rules, live_state(night)
    return render(request, "bunco/host/awards.html", {
        "night": night, "rows": award_rows(rules, typed),
        "award_ties": typed.get("award_ties") if typed else rules.award_ties,
        "one_each": bool(typed.get("one_prize_per_person")) if typed
        else rules.one_prize_per_person,
        "categories": screens.CATEGORY_LABELS.items(),
        "pot_typed": typed.get("pot", "") if typed else
        "" if night.pot_cents is None else f"{night.pot_cents / 100:.2f}",
        "pot_from_fees": screens.money(screens.night_pot(state, typed=False)),
        "fees_note": screens.fees_note(state),
    })


@_host_command("ties")
def host_roll_off(request, night):
    """Settle a tied prize: the host enters the roll-off's winner, or the app rolls for them."""
    data = form_data(RollOffForm, request)
    tie = screens.pending_ties(night, live_state(night)).get(data["category"], {})
    winner = services.prize_roll_off(night=night, category=data["category"],
                                     contenders=tie.get("contenders", []),
                                     winner=data["winner"] or None)
    messages.success(request, f"{winner} wins the roll-off.")


@_host_command("ties")
def host_tie_split(request, night):
    """The players tied for a prize chose to share its money."""
    data = form_data(RollOffForm, request)
    tie = screens.pending_ties(night, live_state(night)).get(data["category"])
    if tie is None:
        raise CommandRefused("that prize has no tie to settle")
    shares = agreed_shares(request.POST, tie["contenders"])
    services.prize_split(night=night, category=data["category"], can_split=tie["can_split"],
                         contenders=tie["contenders"], shares=shares)
    messages.success(request, "The tied players split the prize" + (
        ": " + ", ".join(f"{n} {p}%" for n, p in shares.items()) if shares else " evenly") + ".")



@_host_command("reveal")
def host_reveal(request, night):
    """Show the next prize on the TV (after the last one, start the reveal over)."""
    services.prize_reveal(night=night)


@_host_command()
def host_night_again(request, night):
    again = services.night_again(night=night)
    request.session["next_night"] = again.pk


@require_http_methods(["GET", "POST"])
@host.host_required
def host_rules(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    rules = night.rules
    if request.method == "POST":
        form = RulesForm(rules, request.POST)
        try:
            if not form.is_valid():
                raise CommandRefused(first_error(form))
            rules = form.cleaned_data["rules"]
            services.night_update_rules(
                night=night, rules=rules, name=form.cleaned_data["night_name"],
                entry_fee_cents=form.cleaned_data["entry_fee"])
        except CommandRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "House rules saved.")
            return redirect("host_night", night.pk)
    return render(request, "bunco/host/rules.html", {
        "night": night, "rules": rules, "fields": rule_fields(rules), "presets": PRESETS,
        "table": presets_table(),
        "fee_plain": f"{night.entry_fee_cents / 100:.2f}",
    })


@require_POST
@host.host_required
def host_rules_preset(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    try:
        rules_id = form_data(PresetForm, request)["rules_id"]
        services.night_update_rules(night=night, rules=PRESETS[rules_id], rules_id=rules_id)
    except CommandRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Tonight plays by {PRESETS[rules_id].name} now.")
    return redirect("host_rules", night.pk)
