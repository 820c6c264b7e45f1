"""``{% load bunco_version %}{% bunco_version %}``: the app's version (bunco/version.py)."""

from django import template

from bunco.version import version

register = template.Library()


@register.simple_tag
def bunco_version() -> str:
    return version()
