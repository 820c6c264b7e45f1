"""Django's ASGI handler with all of a request's sync work done in one trip to the one sync
thread (``BUNCO_STOCK=handler``: Django's own).

Django's own runs each (sync-and-async capable) middleware's hooks through a separate thread
hop, a dozen per request, and starts a new thread (so a new database connection) for every
request: together they cost more CPU than a tap's own work. Even with the middleware in one
hop it still makes three (the request-started signal, the middleware and the view, the
response's close) and runs two tasks, one only to notice a client that went away (which
cannot stop the view on its sync thread anyway). Here a request is one trip: the signal, the
request, the middleware and the view, and the response closed (a file's chunks read first),
then the answer sent from the loop. Every request's sync code runs on the thread the
websockets' database calls use, one at a time, keeping one database connection. The writes of
a SQLite night are one at a time anyway, and Python runs one thread at a time; what this gives
up is a slow page (a season of nights) overlapping a tap, which at a party's size is a few
milliseconds.

It leans on one internal of Django's handler, ``_middleware_chain`` (the middleware wrapped
around the view, which ``load_middleware`` sets): without it, one warning and Django's path.
"""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.urls import set_script_prefix

from bunco.runtime import stock

log = logging.getLogger(__name__)


class OneTripHandler(ASGIHandler):
    trip = None  # the request's sync work, on the sync thread (None: Django's way)

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        if getattr(self, "_middleware_chain", None) is None:  # a Django without it
            log.warning("Django's handler has no _middleware_chain: requests run Django's way")
            super().load_middleware(is_async=is_async)
            return
        self.trip = sync_to_async(self.serve, thread_sensitive=True)

    async def handle(self, scope, receive, send):
        if self.trip is None:
            await super().handle(scope, receive, send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        response = await self.trip(scope, body_file)
        await self.send_response(response, send)

    def serve(self, scope, body_file):
        """On the sync thread: what Django does for a request before and after its answer
        goes out, in its order, the answer closed before it is sent (nothing of it is read
        after: a file's chunks are read here)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if response.streaming and not response.is_async:
            chunks = list(response.streaming_content)

            async def read_already():
                for chunk in chunks:
                    yield chunk

            response.streaming_content = read_already()
        response.close()
        body_file.close()
        return response


def handler_class() -> type[ASGIHandler]:
    """The handler the server runs: the one-trip one, or Django's when left stock."""
    return ASGIHandler if stock("handler") else OneTripHandler
