"""Pages every face links to: the QR code of a link into this app; and the health check a
proxy or a process supervisor asks."""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import time

import segno
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from bunco import inputs
from bunco.laptop import disk
from bunco.laptop.lan import public_url
from bunco.runtime import pushes

#: How long each part of the health check may take before the worker counts as unwell.
HEALTH_TIMEOUT = 2.0
#: A phone's tap the app failed on for another reason than the disk: kept, sent again.
KEPT = "The app had a problem: your rolls are kept and sent again"
log = logging.getLogger(__name__)


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


async def _layer_round_trip() -> None:
    """One message through the channel layer and back, as a push to a screen travels
    (through Redis when the workers share it)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.check"})
    message = await asyncio.wait_for(layer.receive(channel), HEALTH_TIMEOUT)
    if message.get("type") != "health.check":
        raise RuntimeError("the channel layer returned another message")


async def _layer_probe() -> None:
    """The round trip, waited for as a push is (``pushes.within``: the request holds the one
    sync thread meanwhile): a frozen Redis holds no tap behind the health check."""
    done = await pushes.within(_layer_round_trip())
    if done is None:
        raise TimeoutError("the channel layer did not answer in time")
    done.result()


def _check(name: str, check, report: dict) -> bool:
    start = time.perf_counter()
    try:
        check()
    except Exception as exc:  # any failure is the answer, reported as such
        log.warning("health check: %s failed: %r", name, exc)
        report[name] = f"failed: {type(exc).__name__}"
        return False
    report[name] = f"ok ({(time.perf_counter() - start) * 1000:.0f} ms)"
    return True


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether this worker can serve a night: its database answers, a message goes through
    its channel layer and (SQLite) its data folder takes a write. No sign-in, nothing
    rendered, never cached; 503 with ``problem`` (a sentence for the host, naming no folder:
    anyone may ask) if one fails. A
    copy folder that cannot be written is said in ``problem`` too, with a 200: the night is
    served all the same."""
    report: dict = {}
    healthy = _check("database", _database, report)
    healthy = _check("channel_layer", async_to_sync(_layer_probe), report) \
        and healthy
    problems = []
    if connection.vendor == "sqlite":  # its file is in the data folder: can it be written?
        trouble = disk.data_probe()
        report["data_folder"] = "ok" if trouble is None else "failed: full or failing"
        if trouble is not None:
            healthy = False
            problems.append(trouble.openly)
    copying = disk.copy_trouble()  # said, but the night is served all the same
    if copying is not None:
        report["copy_folder"] = "failed"
        problems.append(copying.openly)
    if problems:
        report["problem"] = " ".join(problems)
    return JsonResponse({"ok": healthy, **report}, status=200 if healthy else 503)


def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    """Django's handler400 (a bad host name, a form Django refused): a sentence, and nothing
    read from the request again (Django's own page runs the CSRF check, which reads the form
    that was just refused, and fails a second time: a 500)."""
    return inputs.refusal(request, 400, inputs.NOT_A_REQUEST)


def server_error(request: HttpRequest) -> HttpResponse:
    """The error page (Django's handler500): in words, the data folder's trouble when that is
    what failed, answered 503 then (the laptop cannot save: try again later, nothing lost). If
    the page's own parts fail too (its files not collected, the disk), a plain one. A phone's
    tap (or anything asking for JSON) is answered in JSON, as the phone's outbox reads it: a
    5xx, so it keeps the tap and sends it again."""
    failed = sys.exc_info()[1]
    if failed is not None and disk.is_disk_error(failed):
        disk.data_failed(failed)
    if inputs.JSON_PATH.match(request.path) or "json" in request.META.get("HTTP_ACCEPT", ""):
        if disk.data_trouble() is not None:
            return JsonResponse(disk.PHONES_ANSWER, status=503)
        return JsonResponse({"ok": False, "error": KEPT}, status=500)
    try:
        html = render_to_string("500.html", request=request)
    except Exception:  # never a second traceback instead of a page
        log.exception("the error page itself failed")
        html = render_to_string("500_plain.html")
    status = 503 if disk.data_trouble() is not None else 500
    return HttpResponse(html, status=status)
