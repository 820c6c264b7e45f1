"""Django's ASGI handler with all of a request's sync work done in one trip to the one sync thread
(``BUNCO_STOCK=handler``: Django's own).

Django's own runs each (sync-and-async capable) middleware's hooks through a separate thread
hop, a dozen per request, and starts a new thread (so a new database connection) for every
request: together they cost more CPU than a tap's own work. Even with the middleware in one hop
it still makes three (the request-started signal, the middleware and the view, the response's
close) and runs two tasks, one only to notice a client that went away (which cannot stop the
view on its sync thread anyway). Here a request is one trip: the signal, the request, the
middleware and the view, and the response closed (a file's chunks read first), then the answer
sent from the loop. A tap's form post (the door marks it: ``door.py``) runs the middleware
without what it never uses (``settings.MIDDLEWARE_NOT_FOR_TAPS``: the session, the user,
messages, static files); the CSRF check and every header still run. Every request's sync code
runs on the thread the websockets' database calls use, one at a time, keeping one database
connection. The writes of a SQLite night are one at a time anyway, and Python runs one thread
at a time; what this gives up is a slow page (a season of nights) overlapping a tap, which at a
party's size is a few milliseconds.

It leans on two internals of Django's handler, ``_middleware_chain`` (the middleware wrapped
around the view, which ``load_middleware`` sets) and ``_get_response`` (the view with its
hooks): without them, one warning and Django's path.
"""

from __future__ import annotations

import copy
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import MiddlewareNotUsed, RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.http import FileResponse
from django.urls import set_script_prefix
from django.utils.module_loading import import_string

from bunco.runtime import stock

log = logging.getLogger(__name__)


class OneTripHandler(ASGIHandler):
    trip = None  # the request's sync work, on the sync thread (None: Django's way)
    taps = None  # the handler a tap's form post runs through (None: this one)

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        if getattr(self, "_middleware_chain", None) is None or not hasattr(
                self, "_get_response"):  # a Django without them
            log.warning("Django's handler has no _middleware_chain or _get_response: "
                        "requests run Django's way")
            super().load_middleware(is_async=is_async)
            return
        self.trip = sync_to_async(self.serve, thread_sensitive=True)
        chain = lean_chain(self._get_response)
        if chain is not None:
            self.taps = copy.copy(self)
            self.taps._middleware_chain = chain

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
            handler = self.taps if self.taps and scope.get("bunco.tap") else self
            response = handler.get_response(request)
            response._handler_class = self.__class__
        if response.streaming and not response.is_async:
            if isinstance(response, FileResponse):  # as Django's: the server chunks it
                response.block_size = self.chunk_size
            chunks = list(response.streaming_content)

            async def read_already():
                for chunk in chunks:
                    yield chunk

            response.streaming_content = read_already()
        response.close()
        body_file.close()
        return response


def lean_chain(get_response):
    """``settings.MIDDLEWARE`` without ``MIDDLEWARE_NOT_FOR_TAPS``, around ``get_response``, as
    Django's ``load_middleware`` wraps it for a sync handler (the view's, template and
    exception hooks stay all of the middleware's: the CSRF check is a view hook). None if one
    cannot run sync."""
    skipped = set(getattr(settings, "MIDDLEWARE_NOT_FOR_TAPS", ()))
    handler = convert_exception_to_response(get_response)
    for path in reversed([p for p in settings.MIDDLEWARE if p not in skipped]):
        middleware = import_string(path)
        if not getattr(middleware, "sync_capable", True):
            log.warning("%s cannot run sync: a tap runs all of the middleware", path)
            return None
        try:
            handler = convert_exception_to_response(middleware(handler))
        except MiddlewareNotUsed:
            continue
    return handler


def handler_class() -> type[ASGIHandler]:
    """The handler the server runs: the one-trip one, or Django's when left stock."""
    return ASGIHandler if stock("handler") else OneTripHandler
