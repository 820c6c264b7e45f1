"""The room check's parts on the host's pages, drawn as their pushes draw them."""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from bunco.laptop import roomcheck

register = template.Library()


@register.simple_tag(takes_context=True)
def roomcheck_card(context) -> str:
    request = context.get("request")
    if request is not None and roomcheck.room.port is None:
        roomcheck.room.port = request.get_port()
    return mark_safe(roomcheck.card_html())  # rendered from a template, escaped there


@register.simple_tag
def weak_tables(night_id: int) -> str:
    return mark_safe(roomcheck.weak_html(night_id))  # rendered from a template, escaped there


@register.simple_tag
def roomcheck_on() -> bool:
    """Whether the room check shows here at all (not behind a proxy)."""
    return roomcheck.in_use()
