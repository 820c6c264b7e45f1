"""The table device: a phone (or tablet) that stays at one table and keeps its score."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from bunco import screens
from bunco.selectors import live_state, table_link_by_token
from bunco.views import do_tap


@require_GET
@ensure_csrf_cookie
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return render(request, "bunco/not_found.html", status=404)
    night = link.night
    state = live_state(night)
    return render(request, "tables/table_page.html", {
        "night": night, "t": screens.table_context(night, state, link.number),
        "banner": screens.round_banner(night, state), "seq": state.seq,
        "ws_url": f"/ws/table/{link.token}/",
    })


@require_POST
def table_tap(request: HttpRequest, token: str, action: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        return JsonResponse({"ok": False, "error": "this link is not for tonight"}, status=404)
    return do_tap(request, link.night, link.number, action, actor=f"table {link.number}")
