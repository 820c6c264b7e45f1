"""Template helpers every face uses: links as a phone on the Wi-Fi reaches them, icons."""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.utils.html import format_html

from bunco import limits
from bunco.laptop.lan import public_url
from bunco.live import groups
from scoring.words import roll_names

register = template.Library()


@register.simple_tag(takes_context=True)
def lan_url(context, path: str) -> str:
    """``path`` as an absolute link on the LAN address (never the host browser's address)."""
    return public_url(path, request=context.get("request"))


@register.simple_tag
@functools.lru_cache(maxsize=256)  # a handful of icons, drawn on every table's every push
def icon(name: str, label: str = "") -> str:
    """An icon from the page's sprite (templates/bunco/_icons.html); decorative unless it
    has a ``label``."""
    if label:
        return format_html('<svg class="icon icon-{0}" role="img" aria-label="{1}">'
                           '<use href="#i-{0}"></use></svg>', name, label)
    return format_html('<svg class="icon icon-{0}" aria-hidden="true" focusable="false">'
                       '<use href="#i-{0}"></use></svg>', name)


@register.simple_tag
def die(value) -> str:
    """One die's face, read out as its number."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    return _FACES[n - 1] if 1 <= n <= 6 else ""


def _face(n: int) -> str:
    return format_html('<svg class="die" role="img" aria-label="{0}"><use href="#d{0}"></use>'
                       '</svg>', n)


#: The six faces, drawn once (every table's every push shows a few).
_FACES = [_face(n) for n in range(1, 7)]


@register.simple_tag
def sync_every() -> int:
    """Seconds between a live page's syncs here, 0 for none (``limits.SYNC_EVERY``)."""
    if settings.BUNCO_SYNC_EVERY:
        return settings.BUNCO_SYNC_EVERY
    return limits.SYNC_EVERY_SHARED if groups.shared_layer() else limits.SYNC_EVERY


@register.simple_tag
def silent_after() -> int:
    """Seconds after which a live page that has heard nothing takes its socket for dead
    (``limits.HEARD_EVERY``)."""
    return 2 * limits.HEARD_EVERY + limits.HEARD_GRACE


@register.filter
def rolls_called(rules, kind: str) -> str:
    """A roll kind's name tonight, counted: ``{{ night.rules|rolls_called:"mini_bunco" }}``
    ("baby buncos"), the one name scoring gives it on every screen."""
    return roll_names(rules, kind)
