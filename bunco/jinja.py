"""The Jinja2 environment of the hot fragments (templates/jinja2): the same helpers as the
Django templates' ``bunco_tags``."""

from jinja2 import Environment

from bunco.templatetags.bunco_tags import die, icon


def none_blank(value):
    """What Django's ``default_if_none:''`` prints."""
    return "" if value is None else value


def environment(**options) -> Environment:
    env = Environment(**options)
    env.globals.update(icon=icon, die=die, none_blank=none_blank)
    return env
