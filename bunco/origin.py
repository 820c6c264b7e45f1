"""Which pages may open a websocket: only the app's own, by scheme, host and port.

A websocket is not covered by the browser's same-origin rule, so the server checks the
Origin header itself: it must be the very address the socket was opened on (a page served
by this app at http://192.168.1.20:8000 connects to ws://192.168.1.20:8000), or one listed in
``CSRF_TRUSTED_ORIGINS`` (an HTTPS proxy in front of the app). The host must also be one the
app answers to (``ALLOWED_HOSTS``). Anything else is refused before a consumer runs.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from bunco import limits

DEFAULT_PORTS = {"http": "80", "https": "443"}


def _origin(scheme: str, netloc: str) -> tuple[str, str, str] | None:
    """(scheme, host, port) with the default port filled in, or None if malformed."""
    if scheme not in DEFAULT_PORTS:
        return None
    host, port = split_domain_port(netloc)
    if not host:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def allowed(scope) -> bool:
    headers = dict(scope.get("headers") or [])
    try:
        origin_text = headers.get(b"origin", b"").decode("ascii")
        host_header = headers.get(b"host", b"").decode("ascii")
        parts = urlsplit(origin_text)
    except (UnicodeDecodeError, ValueError):
        return False
    origin = _origin(parts.scheme, parts.netloc)
    if origin is None:
        return False
    trusted = {_origin(urlsplit(o).scheme, urlsplit(o).netloc)
               for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted:
        return True
    page_scheme = "https" if scope.get("scheme") == "wss" else "http"
    own = _origin(page_scheme, host_header)
    return own is not None and origin == own and validate_host(own[1], settings.ALLOWED_HOSTS)


class SameOriginValidator:
    """ASGI middleware: refuse a websocket whose page came from anywhere else, or whose link
    was just cut off for flooding (before any session or database work)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator is for websockets only")
        if allowed(scope) and not limits.penalised(scope.get("path", "")):
            return await self.application(scope, receive, send)
        # Refused late, as a tap over its share is: a script reconnecting in a loop is
        # refused once a second per connection, not as fast as it can ask.
        await asyncio.sleep(limits.refuse_after(scope.get("path", "")))
        return await WebsocketDenier()(scope, receive, send)
