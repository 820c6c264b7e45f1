"""The host's prizes for her night: the prizes page (categories, shares of the pot, ties), a
tied prize's roll-off or split, and the reveal on the TV."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from bunco.host import auth as host
from bunco.host.commands import form_data, host_command
from bunco.host.forms import AwardsForm, RollOffForm, agreed_shares, award_rows
from bunco.live import screens
from bunco.models import Night
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused


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
        "categories": screens.category_labels(rules).items(),
        "pot_typed": typed.get("pot", "") if typed else
        "" if night.pot_cents is None else f"{night.pot_cents / 100:.2f}",
        "pot_from_fees": screens.money(screens.night_pot(state, typed=False)),
        "fees_note": screens.fees_note(state),
    })


@host_command("ties")
def host_roll_off(request, night):
    """Settle a tied prize: the host enters the roll-off's winner, or the app rolls for them."""
    data = form_data(RollOffForm, request)
    tie = screens.pending_ties(night, live_state(night)).get(data["category"], {})
    winner = services.prize_roll_off(night=night, category=data["category"],
                                     contenders=tie.get("contenders", []),
                                     winner=data["winner"] or None)
    messages.success(request, f"{winner} wins the roll-off.")


@host_command("ties")
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


@host_command("reveal")
def host_reveal(request, night):
    """Show the next prize on the TV (after the last one, start the reveal over), or every
    prize at once (``every``): the phones show what the TV has shown."""
    services.prize_reveal(night=night, every=request.POST.get("every") == "1")
