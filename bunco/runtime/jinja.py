"""The hot fragments' engine: a table's live tally (re-drawn on every tap, and on a bell once
per table) drawn by Jinja2 from ``templates/jinja2/tables/``. Stock (``BUNCO_STOCK=jinja``, or
jinja2 not importable: one warning), Django's engine draws the same fragments from
``templates/tables/``; tests/bunco/test_fragments.py keeps the two copies byte-identical. The
choice is made once per process (``tuned``), by the settings."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from bunco import runtime

#: The engine that draws the fragments when this piece is tuned (its name in TEMPLATES).
NAME = "jinja2"


@functools.cache
def tuned() -> bool:
    """Whether this process draws the hot fragments with Jinja2: unless ``BUNCO_STOCK`` leaves
    "jinja" stock, or jinja2 cannot be imported (said once)."""
    if runtime.stock("jinja"):
        return False
    try:
        import jinja2  # noqa: F401
    except ImportError as exc:
        logging.getLogger(__name__).warning(
            "jinja2 cannot be imported (%s): Django's templates draw the tables", exc)
        return False
    return True


def engine(templates: Path) -> dict:
    """The Jinja2 engine's entry in the settings' TEMPLATES (``templates``: the templates'
    folder, its Jinja2 copies under ``jinja2/``)."""
    return {"BACKEND": "django.template.backends.jinja2.Jinja2", "NAME": NAME,
            "DIRS": [templates / "jinja2"], "APP_DIRS": False,
            "OPTIONS": {"environment": "bunco.runtime.jinja.environment",
                        "keep_trailing_newline": True}}


def none_blank(value):
    """What Django's ``default_if_none:''`` prints."""
    return "" if value is None else value


def environment(**options):
    """The Jinja2 environment of the hot fragments: the same helpers as the Django templates'
    ``bunco_tags``."""
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
