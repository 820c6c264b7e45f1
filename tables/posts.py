"""A tap as a form post, a table's or a player's: the page's way when its socket is closed, and
a script's. The same tap as over the socket (``tables.tap``), answered as JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from bunco import limits
from bunco.night import devices
from bunco.night.tap_reads import player_by_token, table_link_by_token
from tables.gone import unknown_or_gone
from tables.tap import NOT_YOURS, Answer, player_tap_answer, refusal, saved_or_kept, tap


def _json(answer: Answer) -> JsonResponse:
    response = JsonResponse(answer.with_table(), status=answer.status)
    response.uncompressed = True  # a tap's answer: see bunco.middleware.GZipPages
    return response


def _counted(request: HttpRequest, token: str) -> bool:
    """Whether the tap fits its link's share: counted at the server's door already
    (``bunco.runtime.door``), or here (the stock handler, a test's client)."""
    return bool(getattr(request, "scope", {}).get("bunco.tap_counted")) or limits.TAPS.take(
        token)


@require_POST
def player_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    who = player_by_token(token)
    if who is None:
        return _json(unknown_or_gone(token))
    if not devices.may_use(who, request.COOKIES):
        return _json(refusal(NOT_YOURS.format(name=who.name), 403))
    if not _counted(request, token):
        return JsonResponse(limits.RETRY_LATER, status=429)
    return _json(saved_or_kept(who.night_id, player_tap_answer, who, action, request.POST))


@require_POST
def table_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return _json(unknown_or_gone(token))
    if not _counted(request, token):
        return JsonResponse(limits.RETRY_LATER, status=429)
    return _json(saved_or_kept(link.night_id, tap, link.night, link.number, action,
                               f"table {link.number}", request.POST, device=True))
