"""Which worker a night's screens reach, behind a proxy in front of several workers.

Every page of a night a screen stays on (a table's, a player's, the TV's, the host's night)
names the night in a cookie. A proxy that hashes on it (``hash $cookie_bunco_night consistent;`` in
``deploy/nginx.conf``) sends the night's pages, websockets and taps to one worker, whose fold
of that night is then always caught up: measured, two nights on two workers cost each worker
what one night costs one worker, and 14-26 % less CPU a tap than every screen spread over
every worker (docs/performance.md). The cookie is only a hint: any worker serves any night."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

COOKIE = "bunco_night"
MAX_AGE = 12 * 3600  # a night


def remember_night(request: HttpRequest, response: HttpResponse, night_id: int) -> HttpResponse:
    if request.COOKIES.get(COOKIE) != str(night_id):
        response.set_cookie(COOKIE, str(night_id), max_age=MAX_AGE, samesite="Lax",
                            httponly=True, secure=request.is_secure())
    return response
