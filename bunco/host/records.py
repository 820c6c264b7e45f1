"""The host's records of her nights: the season across nights and the people in it, each
night's master score sheet (a page and a CSV), its tally history, and its file (kept, and
opened again on another laptop), and Bunco itself for that other laptop."""

from __future__ import annotations

import subprocess

from django.contrib import messages
from django.db.models import Prefetch
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from bunco.forms import first_error
from bunco.host import auth as host
from bunco.host.commands import form_data
from bunco.host.forms import MergeForm, RestoreForm
from bunco.laptop import appfile, backup, kit
from bunco.live import sheets
from bunco.live.paging import paginate
from bunco.models import Night, Person, Player
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused


@require_GET
@host.host_required
def host_season(request: HttpRequest) -> HttpResponse:
    from bunco.live.season import season

    real = Player.objects.filter(night__demo=False).select_related("night")
    people = (Person.objects.filter(players__night__demo=False).distinct()
              .prefetch_related(Prefetch("players", queryset=real)))
    return render(request, "bunco/host/season.html", {"rows": season(), "people": people})


@require_POST
@host.host_required
def host_people_merge(request: HttpRequest) -> HttpResponse:
    try:
        data = form_data(MergeForm, request)
        keep = Person.objects.filter(pk=data["keep"]).first()
        other = Person.objects.filter(pk=data["other"]).first()
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
    try:
        services.player_split(player=player)
    except CommandRefused as exc:
        messages.error(request, str(exc))
        return redirect("host_season")
    messages.success(request, f"{player.name} of {player.night.name} is a person of their own.")
    return redirect("host_season")


@require_GET
@host.host_required
def host_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    names, page = sheets.sheet_names(night, state), None
    if request.GET.get("all") != "1":  # ?all=1: everyone on one page, to print
        names, page = paginate(names, request.GET.dict(), "page", SHEET_PLAYERS)
    return render(request, "bunco/host/sheet.html", {
        "night": night, "sets": sheets.master_sheet(night, state, names), "page": page})


#: Players per page of the master score sheet (a 2,000-player night has ten pages).
SHEET_PLAYERS = 200


@require_GET
@host.host_required
def host_sheet_csv(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    response = HttpResponse(sheets.master_sheet_csv(night, live_state(night)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = _attachment(night, "score-sheet.csv")
    return response


def _attachment(night: Night, suffix: str) -> str:
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in night.name)
    return f'attachment; filename="{"-".join(filter(None, name.split("-"))) or "bunco"}-{suffix}"'


@require_GET
@host.host_required
def host_night_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole night as one file, to keep or to open on another laptop."""
    night = get_object_or_404(Night, pk=pk)
    # The host's page keeps the latest file in its browser and asks again now and then: the
    # log's last entry says whether anything changed since (then the answer is a bare 304).
    tag = f'"seq-{night.last_seq}"'
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(backup.night_file(night), json_dumps_params={"indent": 1})
        response["Content-Disposition"] = _attachment(night, "night.json")
    response["ETag"] = tag
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@host.host_required
def host_night_restore(request: HttpRequest) -> HttpResponse:
    form = RestoreForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("host_dashboard")
    try:
        night = services.night_restore(data=form.cleaned_data["file"])
    except CommandRefused as exc:
        messages.error(request, f"That night could not be opened: {exc}.")
        return redirect("host_dashboard")
    messages.success(request, f"{night.name} is back, exactly as it was. "
                              + (MOVED if night.freed else RESTORED_LINKS[night.links]))
    return redirect("host_night", pk=night.pk)


@require_GET
@host.host_required
def host_app_download(request: HttpRequest) -> HttpResponse:
    """Bunco itself, the file the copy folder gets (``bunco/laptop/kit.py``): another laptop
    on the Wi-Fi downloads it before the night, in case this one dies."""
    try:
        made = kit.kit()
    except (OSError, subprocess.CalledProcessError):
        return _plain("Bunco could not make its file for another laptop just now (is this "
                      "laptop's disk full?). Try again in a moment.", 503)
    if made.download is None or not made.download.is_file():
        return _plain("This laptop runs Bunco from a checkout without a wheel made (make "
                      f"dist), so it has no file to offer. Download Bunco from "
                      f"{appfile.RELEASES} instead.", 404)
    return FileResponse(open(made.download, "rb"), as_attachment=True,  # noqa: SIM115
                        filename=made.download.name)


def _plain(text: str, status: int) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


#: A night opened where phones reach another address than they did.
MOVED = ("This laptop's address is not the one the phones knew: everyone scans the new code "
         "below and taps their name again (every name is free to pick). Rolls a phone was "
         "still waiting to send are entered again on its new page.")
#: What a restored night's links are, said on its page.
RESTORED_LINKS = {
    "kept": "Same links as before: the phones and the TV carry on by themselves (a phone "
            "that shows \u201cwaiting to send\u201d sends its rolls now).",
    "taken": "This night is already open on this laptop, so this copy got new links: "
             "phones and the TV must scan its new codes.",
    "new": "Its table and TV links are new (an older night file has none): phones and the TV "
           "must scan its new codes.",
}


@require_GET
@host.host_required
def host_log(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Night, pk=pk)
    state = live_state(night)
    # As many rounds a page as make about LOG_TABLES table cards (a small night: all of them
    # on one page; 500 tables: one round, its tables a page at a time), the latest first.
    tables = max(len(state.tables), 1)
    per_page = max(1, LOG_TABLES // tables)
    query = request.GET.dict()
    _, rounds_page = paginate(sheets.round_starts(night), query, "round", per_page,
                              latest=True)
    rounds = sheets.tally_history(night, state, slice(rounds_page.first - 1, rounds_page.last))
    tables_page = None
    if per_page == 1 and rounds:
        rounds[0]["tables"], tables_page = paginate(rounds[0]["tables"], query, "tables",
                                                    LOG_TABLES)
    return render(request, "bunco/host/log.html", {
        "night": night, "rounds": rounds, "rounds_page": rounds_page,
        "tables_page": tables_page})


#: How many tables' taps one page of the tally history shows.
LOG_TABLES = 50
