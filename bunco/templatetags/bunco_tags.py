"""Template helpers every face uses: links as a phone on the Wi-Fi reaches them, icons."""

from __future__ import annotations

from django import template

from bunco.lan import public_url

register = template.Library()


@register.simple_tag(takes_context=True)
def lan_url(context, path: str) -> str:
    """``path`` as an absolute link on the LAN address (never the host browser's address)."""
    return public_url(path, request=context.get("request"))
