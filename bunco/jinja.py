"""The Jinja2 environment of the hot fragments (templates/jinja2): the same helpers as the
Django templates' ``bunco_tags``."""

from functools import lru_cache

from jinja2 import Environment
from markupsafe import Markup

from bunco.templatetags.bunco_tags import die, icon


def none_blank(value):
    """What Django's ``default_if_none:''`` prints."""
    return "" if value is None else value


class Fragments(Environment):
    """``a.b`` on a dict reads its key first, as Django's templates do. Jinja's own lookup
    tries the attribute first, and a dict has none, so every ``t.number`` of a context built
    of dicts raised and caught an AttributeError: a third of a table's render."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=64)
def icon_of(name: str, label: str = "") -> Markup:
    """``icon`` as a filter (``"bell"|icon``), each icon's markup made once."""
    return Markup(icon(name, label))


def environment(**options) -> Environment:
    env = Fragments(**options)
    env.globals["die"] = die
    # The hot fragments call their helpers as filters: Jinja calls a filter directly, and a
    # global function through the template context's checks (a few microseconds each, a
    # dozen times a table, 100 tables a bell).
    env.filters.update(blank=none_blank, icon=icon_of)
    item = env.get_template("tables/_roll.html")

    @lru_cache(maxsize=8192)
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
