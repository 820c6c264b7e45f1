"""Pages and form posts for the host, the players' phones and the TV."""

from __future__ import annotations

import io
from decimal import Decimal, InvalidOperation

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco import broadcast, host, screens, services, sheets
from bunco.models import Night, Person, Player
from bunco.rules_form import rule_fields, rules_from_post
from bunco.selectors import (
    live_state,
    night_by_join_token,
    night_by_tv_token,
    player_by_token,
)
from bunco.services import CommandRefused
from scoring import PRESETS, RulesError
from tables import services as table_services


def parse_money(text: str) -> int:
    cleaned = (text or "0").strip().lstrip("$€£").replace(",", "") or "0"
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise CommandRefused(f"{text!r} is not an amount of money, e.g. 10 or 7.50") from None
    if value < 0 or value != value.quantize(Decimal("0.01")):
        raise CommandRefused("the entry fee must be a positive amount, to the cent")
    return int(value * 100)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if host.is_host(request):
        return redirect("host_dashboard")
    return render(request, "bunco/home.html", {"presets": PRESETS})


# -- host ---------------------------------------------------------------------------------------

@require_GET
def host_login(request: HttpRequest, secret: str) -> HttpResponse:
    if not host.secret_matches(secret):
        return render(request, "bunco/not_host.html", status=403)
    request.session[host.SESSION_KEY] = True
    return redirect("host_dashboard")


@require_GET
@host.host_required
def host_dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "bunco/host/dashboard.html",
                  {"presets": PRESETS, "nights": Night.objects.all()[:30]})


def _back(request, night: Night, error: Exception | None = None):
    if error is not None:
        messages.error(request, str(error))
    target = request.session.pop("next_night", None) if error is None else None
    return redirect("host_night", target or night.pk)


@require_POST
@host.host_required
def host_night_create(request: HttpRequest) -> HttpResponse:
    try:
        night = services.night_create(
            name=request.POST.get("name", ""),
            rules_id=request.POST.get("rules_id", ""),
            entry_fee_cents=parse_money(request.POST.get("entry_fee", "0")),
            player_names=request.POST.get("players", "").splitlines(),
        )
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return redirect("host_dashboard")
    return redirect("host_night", night.pk)


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
    return render(request, "bunco/host/night.html", screens.host_board(night))


def _host_command(command):
    """A host form post: run the command, show its refusal if any, back to the night."""

    @require_POST
    @host.host_required
    def view(request: HttpRequest, pk: int, **kwargs) -> HttpResponse:
        night = get_object_or_404(Night, pk=pk)
        try:
            command(request, night, **kwargs)
        except CommandRefused as exc:
            return _back(request, night, exc)
        return _back(request, night)

    view.__name__ = command.__name__
    return view


@_host_command
def host_players_add(request, night):
    services.players_add(night=night, names=request.POST.get("players", "").splitlines())


@_host_command
def host_player_remove(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_remove(night=night, player=player)


@_host_command
def host_seat(request, night):
    services.night_seat(night=night)


@_host_command
def host_swap(request, night):
    services.seats_swap(night=night, first=request.POST.get("first", ""),
                        second=request.POST.get("second", ""))


@_host_command
def host_round_start(request, night):
    services.round_start(night=night, key=request.POST.get("key") or None)


@_host_command
def host_bell(request, night):
    services.bell_ring(night=night)


@_host_command
def host_void(request, night):
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        raise CommandRefused("pick a roll to take back") from None
    services.event_void(night=night, seq=seq, actor="host")


@_host_command
def host_player_arrive(request, night):
    services.player_arrive(night=night, name=request.POST.get("name", ""))


@_host_command
def host_player_leave(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_leave(night=night, player=player)


@_host_command
def host_player_rename(request, night, player_pk):
    player = get_object_or_404(Player, pk=player_pk, night=night)
    services.player_rename(night=night, player=player, name=request.POST.get("name", ""))


@_host_command
def host_pause(request, night):
    if live_state(night).paused:
        services.game_resume(night=night)
    else:
        services.game_pause(night=night)


@_host_command
def host_end(request, night):
    services.night_end(night=night)


def awards_from_post(post) -> list[dict]:
    """The award rows of the form, in the order the host numbered them; empty rows and rows
    marked for removal are dropped."""
    rows = []
    for i in range(int(post.get("rows", "0") or 0)):
        category = post.get(f"category_{i}", "")
        if not category or post.get(f"remove_{i}"):
            continue
        share = post.get(f"share_{i}", "").strip().rstrip("%") or None
        try:
            order = float(post.get(f"order_{i}", i) or i)
        except ValueError:
            raise CommandRefused("the order of a prize must be a number") from None
        rows.append((order, i, {"category": category, "share_percent": share,
                                "prize": post.get(f"prize_{i}", "").strip()}))
    return [row for _, _, row in sorted(rows, key=lambda r: (r[0], r[1]))]


@require_http_methods(["GET", "POST"])
@host.host_required
def host_awards(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    if request.method == "POST":
        try:
            typed = request.POST.get("pot", "").strip()
            services.awards_update(
                night=night, awards=awards_from_post(request.POST),
                award_ties=request.POST.get("award_ties", "split"),
                one_prize_per_person="one_prize_per_person" in request.POST,
                pot_cents=parse_money(typed) if typed else None,
            )
        except CommandRefused as exc:
            messages.error(request, str(exc).split(": ", 1)[-1] if str(exc).startswith("awards")
                           else str(exc))
        else:
            messages.success(request, "Prizes saved.")
            return redirect("host_night", night.pk)
    rules = night.rules
    rows = [{"category": str(a.category), "share": a.share_percent or "", "prize": a.prize}
            for a in rules.awards] + [{"category": "", "share": "", "prize": ""}] * 2
    return render(request, "bunco/host/awards.html", {
        "night": night, "rules": rules, "rows": rows,
        "categories": screens.CATEGORY_LABELS.items(),
        "pot_typed": "" if night.pot_cents is None else f"{night.pot_cents / 100:.2f}",
        "pot_from_fees": screens.money(night.entry_fee_cents * night.players.count()),
    })


@_host_command
def host_roll_off(request, night):
    """Settle a tied prize: the host enters the roll-off's winner, or the app rolls for them."""
    import random

    state = live_state(night)
    category = request.POST.get("category", "")
    pending = {a["category"]: a["roll_off"] for a in screens.final_awards(night, state)}
    contenders = pending.get(category)
    if not contenders:
        raise CommandRefused("that prize has no tie to roll off")
    winner = request.POST.get("winner")
    if winner is None:
        from scoring import roll_off

        winner = roll_off(contenders, random.SystemRandom(),
                          lowest=category == "lowest_points")
    elif winner not in contenders:
        raise CommandRefused(f"{winner} is not tied for that prize")
    night.roll_offs = {**night.roll_offs, category: winner}
    night.save(update_fields=["roll_offs"])
    messages.success(request, f"{winner} wins the roll-off.")
    broadcast.night_changed(night.pk)


@_host_command
def host_reveal(request, night):
    """Show the next prize on the TV (after the last one, start the reveal over)."""
    total = len(night.rules.awards)
    night.revealed = night.revealed + 1 if night.revealed < total else 0
    night.save(update_fields=["revealed"])
    broadcast.night_changed(night.pk)


@require_GET
@host.host_required
def host_season(request: HttpRequest) -> HttpResponse:
    from bunco.season import season

    people = Person.objects.prefetch_related("players__night")
    return render(request, "bunco/host/season.html", {"rows": season(), "people": people})


@require_POST
@host.host_required
def host_people_merge(request: HttpRequest) -> HttpResponse:
    keep = Person.objects.filter(pk=request.POST.get("keep") or 0).first()
    other = Person.objects.filter(pk=request.POST.get("other") or 0).first()
    try:
        if keep is None or other is None:
            raise CommandRefused("pick the two people to merge")
        services.people_merge(keep=keep, other=other)
    except CommandRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{other.name} and {keep.name} are one person now.")
    return redirect("host_season")


@require_POST
@host.host_required
def host_player_split(request: HttpRequest, player_pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_pk)
    services.player_split(player=player)
    messages.success(request, f"{player.name} of {player.night.name} is a person of their own.")
    return redirect("host_season")


@_host_command
def host_night_again(request, night):
    again = services.night_again(night=night)
    request.session["next_night"] = again.pk


@require_GET
@host.host_required
def host_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    return render(request, "bunco/host/sheet.html", {
        "night": night, "sets": sheets.master_sheet(night, state),
        "standings": screens.standings(state)})


@require_GET
@host.host_required
def host_sheet_csv(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    response = HttpResponse(sheets.master_sheet_csv(night, live_state(night)),
                            content_type="text/csv; charset=utf-8")
    filename = "".join(c if c.isalnum() else "-" for c in night.name).strip("-") or "bunco"
    response["Content-Disposition"] = f'attachment; filename="{filename}-score-sheet.csv"'
    return response


@require_GET
@host.host_required
def host_log(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    return render(request, "bunco/host/log.html", {
        "night": night, "rounds": sheets.tally_history(night, state)})


@require_http_methods(["GET", "POST"])
@host.host_required
def host_rules(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    rules = night.rules
    if request.method == "POST":
        try:
            rules = rules_from_post(rules, request.POST)
            services.night_update_rules(
                night=night, rules=rules, name=request.POST.get("night_name"),
                entry_fee_cents=parse_money(request.POST.get("entry_fee", "0")),
            )
        except (RulesError, CommandRefused) as exc:
            messages.error(request, str(exc).split(": ", 1)[-1] if isinstance(exc, RulesError)
                           else str(exc))
        else:
            messages.success(request, "House rules saved.")
            return redirect("host_night", night.pk)
    return render(request, "bunco/host/rules.html", {
        "night": night, "rules": rules, "fields": rule_fields(rules), "presets": PRESETS,
        "fee_plain": f"{night.entry_fee_cents / 100:.2f}",
    })


@require_POST
@host.host_required
def host_rules_preset(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    rules_id = request.POST.get("rules_id", "")
    if rules_id not in PRESETS:
        messages.error(request, "pick one of the listed house rules")
        return redirect("host_rules", night.pk)
    try:
        services.night_update_rules(night=night, rules=PRESETS[rules_id])
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return redirect("host_rules", night.pk)
    Night.objects.filter(pk=night.pk).update(rules_id=rules_id)
    return redirect("host_rules", night.pk)


# -- players' phones ----------------------------------------------------------------------------

@require_GET
def join(request: HttpRequest, token: str) -> HttpResponse:
    night = night_by_join_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    return render(request, "bunco/join.html", {"night": night, "players": night.players.all()})


def player_context(player: Player) -> dict:
    night = player.night
    state = live_state(night)
    return {"night": night, "me": screens.my_seat(night, state, player.name, player.left_early),
            "banner": screens.round_banner(night, state), "seq": state.seq,
            "ws_url": f"/ws/player/{player.token}/"}


@require_GET
@ensure_csrf_cookie
def player(request: HttpRequest, token: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return render(request, "bunco/not_found.html", status=404)
    return render(request, "bunco/player_page.html", player_context(who))


def tap_response(night: Night, table: int, error: Exception | None = None) -> JsonResponse:
    """Answer a tap: the table as it now stands (the websocket brings it too), or why not."""
    state = live_state(night)
    html = ""
    if 1 <= table <= len(state.tables):
        html = screens.render_fragment(
            "tables/_table.html", {"t": screens.table_context(night, state, table)})
    if error is not None:
        return JsonResponse({"ok": False, "error": str(error), "html": html, "seq": state.seq},
                            status=409)
    return JsonResponse({"ok": True, "html": html, "seq": state.seq})


def do_tap(request: HttpRequest, night: Night, table: int, action: str, actor: str):
    key = request.POST.get("key") or None
    try:
        if action == "roll":
            dice = request.POST.get("dice") or ""
            table_services.roll_record(
                night=night, table=table, key=key, actor=actor,
                quick=request.POST.get("quick") or None,
                dice=[int(d) for d in dice.split(",") if d.strip().isdigit()] or None,
                expect_turn=request.POST.get("expect_turn") or None,
            )
        elif action == "undo":
            table_services.roll_undo(night=night, table=table, key=key, actor=actor)
        elif action == "finish":
            table_services.table_finish(night=night, table=table, key=key, actor=actor)
        else:
            return HttpResponseBadRequest("unknown action")
    except CommandRefused as exc:
        return tap_response(night, table, exc)
    return tap_response(night, table)


@require_POST
def player_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    where = live_state(who.night).seat_of(who.name)
    if where is None:
        return JsonResponse({"ok": False, "error": "you are not seated yet"}, status=409)
    return do_tap(request, who.night, where[0], action, actor=who.name)


# -- TV -----------------------------------------------------------------------------------------

def tv_page_context(night: Night) -> dict:
    state = live_state(night)
    return {"night": night, "tv": screens.tv_context(night, state),
            "banner": screens.round_banner(night, state), "seq": state.seq,
            "join_path": reverse("join", args=[night.join_token]),
            "ws_url": f"/ws/tv/{night.tv_token}/"}


@require_GET
def tv(request: HttpRequest, token: str) -> HttpResponse:
    night = night_by_tv_token(token)
    if night is None:
        return render(request, "bunco/not_found.html", status=404)
    return render(request, "bunco/tv_page.html", tv_page_context(night))


@require_GET
def qr(request: HttpRequest) -> HttpResponse:
    """An SVG QR code of a link into this app, as the phones will reach it."""
    path = request.GET.get("u", "/")
    if not path.startswith("/") or path.startswith("//"):
        return HttpResponseBadRequest("only links into this app")
    url = request.build_absolute_uri(path)
    out = io.BytesIO()
    # A standalone SVG (with its namespace), so it shows in an <img>.
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#1d1533",
                                    light="#ffffff", xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=3600"
    return response
