"""The host's secret: opening the host link once makes that browser the host."""

import functools
import hmac
import os
import secrets

from django.conf import settings
from django.http import HttpResponseForbidden
from django.template.loader import render_to_string

SESSION_KEY = "bunco_host"


def host_secret() -> str:
    if secret := os.environ.get("BUNCO_HOST_SECRET"):
        return secret
    path = settings.DATA_DIR / "host_secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(16))
        path.chmod(0o600)
    return path.read_text().strip()


def secret_matches(candidate: str) -> bool:
    return hmac.compare_digest(candidate.encode(), host_secret().encode())


def is_host(request) -> bool:
    return bool(request.session.get(SESSION_KEY))


def host_required(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_host(request):
            return HttpResponseForbidden(render_to_string("bunco/not_host.html"))
        return view(request, *args, **kwargs)

    return wrapper
