"""Which phone a player's page belongs to.

Every phone gets a random secret in a long-lived cookie the first time it picks a name. The
night's log records a claim with the secret's SHA-256 (never the secret), and the player's row
keeps it: a page, a tap or a websocket from a phone without that secret is refused. The host
can release a claim (a phone died), and the next phone to pick the name owns it."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

COOKIE = "bunco_device"
MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
_SECRET = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def secret_of(cookies) -> str:
    """This phone's secret from its cookies ("" when it has none, or a broken one)."""
    value = (cookies or {}).get(COOKIE, "")
    return value if _SECRET.match(value) else ""


def fingerprint(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest() if secret else ""


def fingerprint_of(cookies) -> str:
    return fingerprint(secret_of(cookies))


def remember(response, secret: str) -> None:
    response.set_cookie(COOKIE, secret, max_age=MAX_AGE, httponly=True, samesite="Lax")


def may_use(player, cookies) -> bool:
    """Whether the phone with these cookies may open this player's page and tap for them: the
    phone that claimed the player, or any phone while nobody has (a link handed out before
    claims, say)."""
    if not player.device:
        return True
    return hmac.compare_digest(player.device, fingerprint_of(cookies))
