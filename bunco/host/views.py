"""The host's front door and her list of nights: the home page (and a guest's typed code), the
host link, the dashboard, starting, archiving and deleting a night, and its house rules before
play. Running a night is ``running.py``; its prizes, ``prizes.py``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco import limits
from bunco.forms import first_error
from bunco.host import auth as host
from bunco.host.commands import form_data
from bunco.host.forms import JoinCodeForm, NightForm, PresetForm, RulesForm
from bunco.host.rules_form import presets_table, rule_fields
from bunco.laptop import appfile, backup, reclaim
from bunco.models import Night
from bunco.night import services
from bunco.night.selectors import night_by_join_code, open_nights
from bunco.night.services import CommandRefused
from scoring import PRESETS


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
                   "copy_to": backup.copy_folder(), "typed": typed or {},
                   "app_file": appfile.this_app().download_name})


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


@require_POST
@host.host_required
def host_reclaim(request: HttpRequest) -> HttpResponse:
    """How a guest on a new phone takes their name back after the end (``reclaim``)."""
    problem = reclaim.choose(request.POST.get("mode", ""))
    if problem:
        messages.error(request, problem)
    else:
        messages.success(request, "Kept: " + dict(reclaim.CHOICES)[reclaim.mode()] + ".")
    back = request.META.get("HTTP_REFERER", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)  # the ended night's page, where the choice was
    return redirect("host_dashboard")
