"""Pages every face links to: the QR code of a link into this app."""

from __future__ import annotations

import io

import segno
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from bunco.lan import public_url


@require_GET
def qr(request: HttpRequest) -> HttpResponse:
    """An SVG QR code of a link into this app, as the phones will reach it: on the LAN
    address, whatever address the page showing it was opened at."""
    path = request.GET.get("u", "/")
    if not path.startswith("/") or path.startswith("//"):
        return HttpResponseBadRequest("only links into this app")
    url = public_url(path, request=request)
    out = io.BytesIO()
    # A standalone SVG (with its namespace), so it shows in an <img>.
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#1d1533",
                                    light="#ffffff", xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=3600"
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers that ask for /favicon.ico anyway get the app's icon (no 404 on every page)."""
    return redirect(static("bunco/favicon.svg"), permanent=True)
