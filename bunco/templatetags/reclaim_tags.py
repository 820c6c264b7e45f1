"""The host's choice of how a guest takes their name back after the end, for her pages."""

from __future__ import annotations

from django import template

from bunco.laptop import reclaim

register = template.Library()


@register.simple_tag(takes_context=True)
def reclaim_mode(context) -> str:
    """The choice as kept, and (into the context) the choices to offer."""
    context["reclaim_choices"] = reclaim.CHOICES
    return reclaim.mode()
