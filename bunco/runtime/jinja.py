"""The hot fragments' engine: a table's live tally (re-drawn on every tap, and on a bell once
per table) is drawn by Jinja2 from its one source, ``templates/jinja2/tables/`` (Django's
engine, which draws the pages, has no copy of it). Tuned, the environment reads a dict's keys
first and draws each roll of a table's list once; stock (``BUNCO_STOCK=jinja``), Jinja2's own
environment draws the same templates, every roll anew. tests/bunco/test_fragments.py checks
that both draw the same bytes. The choice is made once per process (``tuned``)."""

from __future__ import annotations

import functools
from pathlib import Path

from bunco import runtime

#: The engine that draws the fragments (its name in TEMPLATES).
NAME = "jinja2"


@functools.cache
def tuned() -> bool:
    """Whether this process draws the hot fragments with the tuned environment: unless
    ``BUNCO_STOCK`` leaves "jinja" stock."""
    return not runtime.stock("jinja")


def engine(templates: Path) -> dict:
    """The Jinja2 engine's entry in the settings' TEMPLATES (``templates``: the templates'
    folder, the fragments under ``jinja2/``)."""
    return {"BACKEND": "django.template.backends.jinja2.Jinja2", "NAME": NAME,
            "DIRS": [templates / "jinja2"], "APP_DIRS": False,
            "OPTIONS": {"environment": "bunco.runtime.jinja.environment",
                        "keep_trailing_newline": True}}


def none_blank(value):
    """``None`` printed as nothing (a table between rounds has no set or round number)."""
    return "" if value is None else value


def environment(**options):
    """The Jinja2 environment of the hot fragments: the helpers of the Django templates'
    ``bunco_tags`` (``die``, ``icon`` as a filter), ``blank`` and ``roll`` (one roll of a
    table's list, ``tables/_roll.html``); tuned unless left stock."""
    return _tuned(options) if tuned() else _stock(options)


def _stock(options: dict):
    from jinja2 import Environment
    from markupsafe import Markup

    from bunco.templatetags.bunco_tags import die, icon

    env = Environment(**options)
    env.globals["die"] = die
    env.filters.update(blank=none_blank, icon=lambda name, label="": Markup(icon(name, label)))
    item = env.get_template("tables/_roll.html")
    env.filters["roll"] = lambda r: Markup(item.render(r=r))
    return env


def _tuned(options: dict):
    from jinja2 import Environment
    from markupsafe import Markup

    from bunco.templatetags.bunco_tags import die, icon

    class Fragments(Environment):
        """``a.b`` on a dict reads its key first, as Django's templates do. Jinja's own lookup
        tries the attribute first, and a dict has none, so every ``t.number`` of a context
        built of dicts raised and caught an AttributeError: a third of a table's render."""

        def getattr(self, obj, attribute):
            if type(obj) is dict:
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            return super().getattr(obj, attribute)

    @functools.lru_cache(maxsize=64)
    def icon_of(name: str, label: str = "") -> Markup:
        """``icon`` as a filter (``"bell"|icon``), each icon's markup made once."""
        return Markup(icon(name, label))

    env = Fragments(**options)
    env.globals["die"] = die
    # The hot fragments call their helpers as filters: Jinja calls a filter directly, and a
    # global function through the template context's checks (a few microseconds each, a
    # dozen times a table, 100 tables a bell).
    env.filters.update(blank=none_blank, icon=icon_of)
    item = env.get_template("tables/_roll.html")

    @functools.lru_cache(maxsize=8192)
    def drawn(fields: tuple):
        return Markup(item.render(r=dict(fields)))

    def roll_item(r: dict):
        """One roll of a table's list (tables/_roll.html), drawn once: a roll never changes
        once logged (a take-back removes it), and a bell, or any tap, redraws every roll a
        table shows. Its fields are the cache's key (``screens.table_context`` gives the dice
        as a tuple)."""
        return drawn(tuple(r.items()))

    env.filters["roll"] = roll_item
    return env
