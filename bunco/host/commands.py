"""How a host's form post on the night page runs: the command, its refusal if any, and the
answer htmx swaps in (the parts of the page it changed), or the night's page again."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh
from django_htmx.middleware import HtmxDetails

from bunco.forms import first_error
from bunco.host import auth as host
from bunco.live import screens
from bunco.models import Night
from bunco.night.cache import live_state
from bunco.night.services import CommandRefused


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether htmx sent
    it, and from which page."""

    htmx: HtmxDetails


def host_command(*parts: str):
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
    """The posted form's cleaned values, or the command refused with its first error."""
    form = form_class(request.POST)
    if not form.is_valid():
        raise CommandRefused(first_error(form))
    return form.cleaned_data
