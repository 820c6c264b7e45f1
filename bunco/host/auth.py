"""The host's secret: opening the host link makes that browser the host, for a night's worth
of idle time. The host can sign out, or make a new host link: the old link and every browser
signed in with it stop working at once (each session remembers which link signed it in)."""

import functools
import hashlib
import hmac
import os
import secrets
import time

from django.conf import settings
from django.http import HttpResponseForbidden
from django.template.loader import render_to_string

from bunco.laptop import disk

SESSION_KEY = "bunco_host"
SEEN_KEY = "bunco_host_seen"
#: A host who leaves the laptop for this long signs in again with the host link.
HOST_IDLE_SECONDS = 12 * 3600
#: How often a host's activity is written down (not on every click).
TOUCH_SECONDS = 300


class LinkFixed(Exception):
    """The host link is set in the environment (BUNCO_HOST_SECRET), not by the app."""


def _path():
    return settings.DATA_DIR / "host_secret"


def host_secret() -> str:
    if secret := os.environ.get("BUNCO_HOST_SECRET"):
        return secret
    path = _path()
    if not path.exists():
        _write(secrets.token_urlsafe(24))
    return path.read_text().strip()


def _write(secret: str) -> None:
    path = _path()
    fresh = path.with_suffix(".new")
    fresh.write_text(secret)
    fresh.chmod(0o600)
    fresh.replace(path)


def rotate() -> str:
    """A new host link; the old one and every session it signed in stop working."""
    if os.environ.get("BUNCO_HOST_SECRET"):
        raise LinkFixed("the host link is set by BUNCO_HOST_SECRET; change it there")
    _write(secrets.token_urlsafe(24))
    return host_secret()


def _link_id() -> str:
    """Which host link a session was signed in with (not the secret itself)."""
    return hmac.new(settings.SECRET_KEY.encode(), host_secret().encode(),
                    hashlib.sha256).hexdigest()[:32]


def secret_matches(candidate: str) -> bool:
    return hmac.compare_digest(candidate.encode(), host_secret().encode())


def log_in(request) -> None:
    request.session.cycle_key()
    request.session[SESSION_KEY] = _link_id()
    request.session[SEEN_KEY] = int(time.time())
    request.session.set_expiry(HOST_IDLE_SECONDS)


def log_out(request) -> None:
    request.session.flush()


def session_is_host(session) -> bool:
    if session is None:
        return False
    signed = session.get(SESSION_KEY)
    seen = session.get(SEEN_KEY)
    return (isinstance(signed, str) and hmac.compare_digest(signed, _link_id())
            and isinstance(seen, int) and time.time() - seen < HOST_IDLE_SECONDS)


def is_host(request) -> bool:
    if not session_is_host(request.session):
        return False
    # The idle clock starts again, unless the laptop cannot save (the session's write would
    # fail, and the host's page with it; a full disk is said on the page instead).
    if time.time() - request.session[SEEN_KEY] > TOUCH_SECONDS and disk.data_trouble() is None:
        request.session[SEEN_KEY] = int(time.time())
        request.session.set_expiry(HOST_IDLE_SECONDS)
    return True


def host_required(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_host(request):
            return HttpResponseForbidden(render_to_string("bunco/not_host.html"))
        return view(request, *args, **kwargs)

    return wrapper
