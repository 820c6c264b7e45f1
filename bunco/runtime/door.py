"""The server's door for HTTP: Django's ASGI handler (in one trip to the sync thread unless
left stock: ``handler.py``), with the limits a request meets before Django reads it: a body
past ``inputs.MAX_BODY`` refused by its declared length or as it arrives, and a link over its
share of taps answered without Django. Not a piece: a defence, on in every configuration; it
overrides Django's ``read_body``/``create_request``, so it lives here, inside the fence."""

import asyncio
import json
import logging
import re
import tempfile

from django.conf import settings
from django.core.exceptions import RequestAborted
from django.http import HttpResponse

from bunco import inputs, limits
from bunco.runtime import handler

log = logging.getLogger(__name__)

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
        scope["bunco.tap"] = True  # the handler runs a tap's share of the middleware
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
        """The body, as Django reads it, but never more than ``inputs.MAX_BODY`` of it (one
        sent without a length): the moment what has come in passes it, what came is dropped,
        the rest left unread, and the request answered 413 (``create_request``). Under Daphne
        the server itself refuses it first (``bunco/runtime/body.py``)."""
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
            if size > inputs.MAX_BODY:
                body.close()
                break
            body.write(message.get("body", b""))
            if not message.get("more_body", False):
                break
        if not body.closed:
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


def refused_body(path: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """The answer to a body past ``inputs.MAX_BODY``, as the server sends it unread."""
    refused = inputs.refusal(None, *too_big(inputs.MAX_BODY + 1), path)
    return refused.status_code, [(b"Content-Type", refused["Content-Type"].encode())], \
        refused.content


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
