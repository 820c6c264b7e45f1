"""Django's ASGI handler with the middleware and the view run in one trip to the one sync
thread (``BUNCO_STOCK=handler``: Django's own).

Django's own runs each (sync-and-async capable) middleware's hooks through a separate thread
hop, a dozen per request, and starts a new thread (so a new database connection) for every
request: together they cost more CPU than a tap's own work. Here every request's sync code runs
on the thread the websockets' database calls use, one at a time, keeping one database
connection. The writes of a SQLite night are one at a time anyway, and Python runs one thread at
a time; what this gives up is a slow page (a season of nights) overlapping a tap, which at a
party's size is a few milliseconds.

It leans on one internal of Django's handler, ``_middleware_chain`` (the middleware wrapped
around the view, which ``load_middleware`` sets): without it, one warning and Django's path.
"""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

from bunco.runtime import stock

log = logging.getLogger(__name__)


class OneTripHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        chain = getattr(self, "_middleware_chain", None)
        if chain is None:  # a Django without it: its own way, told once
            log.warning("Django's handler has no _middleware_chain: requests run Django's way")
            super().load_middleware(is_async=is_async)
            return
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def get_response_async(self, request):
        response = await super().get_response_async(request)
        # A static file (WhiteNoise) streams from a file object: read it on the sync thread,
        # as Django's own static handler does, instead of one thread hop per chunk.
        if response.streaming and not response.is_async:
            chunks = response.streaming_content

            async def read_all():
                for chunk in await sync_to_async(list, thread_sensitive=True)(chunks):
                    yield chunk

            response.streaming_content = read_all()
        return response


def handler_class() -> type[ASGIHandler]:
    """The handler the server runs: the one-trip one, or Django's when left stock."""
    return ASGIHandler if stock("handler") else OneTripHandler
