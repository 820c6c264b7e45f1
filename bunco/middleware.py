"""The project's own middleware."""

import functools

from django.core.exceptions import DisallowedHost
from django.middleware.gzip import GZipMiddleware
from django.utils.deprecation import MiddlewareMixin

from bunco import inputs


class GZipPages(GZipMiddleware):
    """Pages and fragments compressed for browsers that accept it, except a response marked
    ``uncompressed``: a tap's answer, the table the websocket brings the same phone
    uncompressed a moment later anyway. Compressing it was a tenth of a tap's own work."""

    def process_response(self, request, response):
        if getattr(response, "uncompressed", False):
            return response
        return super().process_response(request, response)


class ReadableInput(MiddlewareMixin):
    """A request's body read now, the way the forms expect, or refused with a sentence and
    nothing changed: a charset other than UTF-8, a body past the DATA_UPLOAD_MAX_* limits,
    one that is not what its type says (``bunco/inputs.py``). Before the CSRF check, which
    reads the form too."""

    process_request = staticmethod(inputs.read)  # read(request): None, or the refusal


class ContentSecurityPolicy(MiddlewareMixin):
    """Every response says what its page may load (docs/deploy.md): only this server's own
    scripts, styles, pictures and connections (no inline script, no eval), its websockets by
    name (``'self'`` covers ws: and wss: of the same host in current browsers, not in every
    one), pictures and media also from ``data:`` (a QR code, a tiny video that keeps a screen
    awake; media from ``blob:`` too), inline ``style`` attributes only (a score bar's width),
    and no page of this site inside another's frame."""

    def process_response(self, request, response):
        if "Content-Security-Policy" not in response:
            try:
                host = request.get_host()
            except DisallowedHost:
                host = ""
            response["Content-Security-Policy"] = csp(host)
        return response


@functools.lru_cache(maxsize=64)
def csp(host: str) -> str:
    sockets = f" ws://{host} wss://{host}" if host else ""
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "media-src 'self' data: blob:",
        f"connect-src 'self'{sockets}",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])
