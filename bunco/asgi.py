"""ASGI entry point: HTTP through Django, websockets through Channels (same-origin checked)."""

import asyncio
import json
import logging
import os
import re
import tempfile

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.http import HttpResponse  # noqa: E402

from bunco import inputs, limits, proxies, runtime  # noqa: E402
from bunco.runtime import collector, handler, pushes  # noqa: E402

# Everything the server runs beyond the stock path, installed once, in order
# (bunco/runtime/__init__.py); BUNCO_STOCK leaves any piece out.
TUNED = runtime.install()
log = logging.getLogger(__name__)
GC_TUNED = TUNED["collector"]

#: A tap posted over HTTP by a table's device or a player's phone.
TAP_PATH = re.compile(r"^/[tp]/[^/]+/(roll|undo|finish)/$")


class PartyASGIHandler(handler.handler_class()):
    """HTTP through Django (in one trip to the sync thread unless left stock:
    ``bunco/runtime/handler.py``), a link over its share of taps answered without Django."""

    #: Taps this process is serving now (waiting for the sync thread or on it); pages, static files
    #: and the host's posts are not counted: a phone's page load never makes a tap "busy".
    in_flight = 0
    per_link: dict[str, int] = {}  # each link's taps in flight (one process's event loop)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}")
        path = scope.get("path", "")
        length = inputs.content_length(scope)
        if length is not None and not 0 <= length <= inputs.MAX_BODY:
            # Refused before anything is read: a body no form of the app sends, or a header
            # that is not a length at all.
            await self.send_response(inputs.refusal(None, *too_big(length), path), send)
            return
        tap = scope.get("method") == "POST" and TAP_PATH.match(path)
        if not tap:
            await self.handle(scope, receive, send)
            return
        # A link over its share (limits.TAPS), or with LINK_QUEUE taps already in flight, is
        # told to slow down, late and without Django: what the tap view would answer, at a
        # fraction of the cost. The share is taken here, at the door: a hundred requests in
        # flight from one link cannot all pass a check that counts nothing and fill the
        # server's queue, where honest tables' taps would be told "busy".
        link = path.split("/")[2]
        if self.per_link.get(link, 0) >= limits.LINK_QUEUE or not limits.TAPS.take(link):
            await asyncio.sleep(limits.refuse_after(link))
            await answer(send, 429, limits.RETRY_LATER)
            return
        scope["bunco.tap_counted"] = True  # the view does not count it again
        # The whole server is behind: a tap is answered "busy" at once (the phone keeps it
        # and sends it again, as for "slow down") instead of joining a queue that only grows;
        # everything else, the host's bell included, waits its turn.
        if self.in_flight >= limits.SERVER_QUEUE:
            await answer(send, 429, limits.SERVER_BUSY)
            return
        type(self).in_flight += 1
        self.per_link[link] = self.per_link.get(link, 0) + 1
        try:
            await self.handle(scope, receive, send)
        finally:
            type(self).in_flight -= 1
            left = self.per_link.pop(link) - 1
            if left:
                self.per_link[link] = left


    async def read_body(self, receive):
        """The body, as Django reads it, but never more than ``inputs.MAX_BODY`` of it kept
        (one sent without a length): past it the rest is read and dropped, and the request
        answered 413 (``create_request``)."""
        body = tempfile.SpooledTemporaryFile(  # noqa: SIM115 (Django closes it)
            max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE,
            mode="w+b")
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                body.close()
                raise RequestAborted()
            size += len(message.get("body", b""))
            if size <= inputs.MAX_BODY:
                body.write(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body.seek(0)
        body.bunco_size = size
        return body

    def create_request(self, scope, body_file):
        """Django's request, or a refusal with a sentence: a body past ``inputs.MAX_BODY``,
        or anything in the request Django cannot make a request of (never a 500)."""
        size = getattr(body_file, "bunco_size", 0)
        if size > inputs.MAX_BODY:
            return None, inputs.refusal(None, *too_big(size), scope.get("path", ""))
        try:
            request, refused = super().create_request(scope, body_file)
        except Exception as exc:  # noqa: BLE001 (whatever a client's headers make Django raise)
            log.warning("refused a request Django could not read: %r", exc)
            request, refused = None, HttpResponse(status=400)
        if request is None and refused.status_code == 400:  # Django's says nothing
            refused = inputs.refusal(None, 400, inputs.NOT_A_REQUEST, scope.get("path", ""))
        return request, refused


def too_big(length: int) -> tuple[int, str]:
    if length < 0:
        return 400, inputs.UNREADABLE
    return 413, inputs.TOO_BIG.format(size=inputs.megabytes(inputs.MAX_BODY))


async def answer(send, status: int, content: dict) -> None:
    body = json.dumps(content).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": body})


django_asgi_app = PartyASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from bunco.origin import SameOriginValidator  # noqa: E402
from bunco.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        # The app serves its own assets (WhiteNoise, in the middleware): a party's Wi-Fi may
        # have no internet and no proxy.
        "http": django_asgi_app,
        # Cookies for every screen (a phone's own secret); the session only for the host's
        # (bunco/routing.py): Channels' session wrapper looks at it on every frame sent.
        "websocket": SameOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope, receive, send):
    if scope["type"] in ("http", "websocket"):
        # Its address and scheme as the client made it, told by a trusted proxy only.
        scope = proxies.forwarded(scope)
    loop = asyncio.get_running_loop()
    pushes.serve_on(loop)
    if GC_TUNED:  # no long pauses of the garbage collector (collector.py)
        collector.collector.start(loop)
    await router(scope, receive, send)
