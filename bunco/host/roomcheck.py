"""The room check's pages: the one-off link the host opens on her own phone (its round trip
told back), and the host's buttons on the check (check again; "my phone cannot open it"; which
address the phones are sent to, on a laptop on two networks)."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bunco.forms import first_error
from bunco.host import auth as host
from bunco.laptop import address, roomcheck


class CheckResultForm(forms.Form):
    """What the phone measured: the round trip in milliseconds, and whether its websocket
    opened (else the round trip is a page fetch's)."""

    rtt = forms.IntegerField(min_value=0, max_value=600_000)
    live = forms.BooleanField(required=False)


class CheckActionForm(forms.Form):
    action = forms.ChoiceField(choices=[("again", "Check again"),
                                        ("cannot", "My phone cannot open it"),
                                        ("address", "Send the phones there")])
    address = forms.CharField(max_length=64, required=False)


def _addresses(request: HttpRequest) -> tuple[str | None, str | None]:
    return request.META.get("REMOTE_ADDR"), request.META.get("SERVER_NAME")


@never_cache
@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
def roomcheck_phone(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the host's phone opened the check (the host's page hears of it at once). POST:
    the round trip it measured."""
    client, server = _addresses(request)
    if request.method == "POST":
        form = CheckResultForm(request.POST)
        if not form.is_valid():
            return JsonResponse({"ok": False, "error": first_error(form)}, status=400)
        if not roomcheck.check_result(token, client, form.cleaned_data["rtt"],
                                      form.cleaned_data["live"]):
            return JsonResponse({"ok": False, "error": "This check link is an old one."},
                                status=409)
        roomcheck.push_card()
        return JsonResponse({"ok": True})
    outcome = roomcheck.check_opened(token, client, server)
    if outcome == "ok":
        roomcheck.push_card()
    return render(request, "bunco/host/roomcheck_phone.html",
                  {"outcome": outcome, "token": token})


@never_cache
@require_GET
def roomcheck_ping(request: HttpRequest, token: str) -> HttpResponse:
    """A round trip over a plain request, when the phone's websocket would not open."""
    return HttpResponse(status=204)


@require_POST
@host.host_required
def host_roomcheck(request: HttpRequest) -> HttpResponse:
    form = CheckActionForm(request.POST)
    if not form.is_valid():
        return HttpResponse(first_error(form), status=400)
    action = form.cleaned_data["action"]
    if action == "address":  # the laptop is on two networks: the host picks the guests'
        problem = address.pick(form.cleaned_data["address"].strip())
        if problem:
            return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
    elif action == "again":
        roomcheck.new_check()
    else:
        roomcheck.cannot_open()
    roomcheck.push_card()
    back = request.META.get("HTTP_REFERER", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)  # the night's page or the dashboard, where the button was
    return redirect("host_dashboard")
