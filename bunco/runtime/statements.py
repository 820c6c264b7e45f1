"""A command's three statements compiled once (``BUNCO_STOCK=statements``: the ORM's).

Every command reads its night's ``last_seq`` under the night's lock, appends one log row and
moves the night on (``bunco/night/services/runner.py``). The ORM compiles each statement anew
every time; here they are written once, as the ORM writes them, each value prepared by its
field as ``save()`` prepares it. ``bunco/apps.py`` hands them to the runner at start;
tests/bunco/test_statements.py checks that both ways write the same rows and refuse the same
races.

They lean on the ORM doing nothing more for these models than this: the log's model has no
``save()`` of its own, no ``pre_save``/``post_save`` receiver (the compiled insert sends no
signal) and no column the database fills; the fields prepare values by ``pre_save`` and
``get_db_prep_save``; the database says whether an insert returns its id. If any of that is
not so at start: one warning, and the runner keeps the ORM's own way.
"""

from __future__ import annotations

import logging

from django.db import connection
from django.db.models import Field, Model, signals

from bunco.runtime import stock

log = logging.getLogger(__name__)


class Statements:
    """The log row's insert and the night's move, compiled for the models ``events`` (the
    log) and ``nights`` (its ``last_seq``)."""

    def __init__(self, events: type[Model], nights: type[Model]):
        quote = connection.ops.quote_name
        self.nights = nights
        self.fields = [f for f in events._meta.concrete_fields if not f.primary_key]
        columns = ", ".join(quote(f.column) for f in self.fields)  # one is "table"
        places = ", ".join(["%s"] * len(self.fields))
        self.insert = f"INSERT INTO {quote(events._meta.db_table)} ({columns}) VALUES ({places})"
        self.returning = f"{self.insert} RETURNING {quote(events._meta.pk.column)}"
        self.update = (f"UPDATE {quote(nights._meta.db_table)} SET {quote('last_seq')} = %s "
                       f"WHERE {quote(nights._meta.pk.column)} = %s AND {quote('last_seq')} = %s")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        self.select = (f"SELECT {quote('last_seq')} FROM {quote(nights._meta.db_table)} "
                       f"WHERE {quote(nights._meta.pk.column)} = %s{lock}")

    def locked(self, night_id: int) -> int | None:
        """The night's ``last_seq`` read under its row's lock (where the database has one)."""
        with connection.cursor() as cursor:
            cursor.execute(self.select, [night_id])
            found = cursor.fetchone()
        return None if found is None else found[0]

    def append(self, row: Model) -> Model:
        """``row`` appended to the log, each value prepared by its field as ``save()`` does."""
        values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in self.fields]
        with connection.cursor() as cursor:
            if connection.features.can_return_columns_from_insert:
                cursor.execute(self.returning, values)
                row.pk = cursor.fetchone()[0]
            else:
                cursor.execute(self.insert, values)
                row.pk = cursor.lastrowid
        row._state.adding, row._state.db = False, connection.alias
        return row

    def moved_on(self, night_id: int, seq: int, columns: dict) -> bool:
        """The night's row moved to ``seq``, if it was at seq - 1. A command that moves other
        columns too (a few a night) goes the ORM's way."""
        if columns.keys() != {"last_seq"}:
            moved = self.nights.objects.filter(pk=night_id, last_seq=seq - 1).update(**columns)
            return bool(moved)
        with connection.cursor() as cursor:
            cursor.execute(self.update, [seq, night_id, seq - 1])
            return cursor.rowcount == 1


def missing(events: type[Model], nights: type[Model]) -> list[str]:
    """What the compiled statements lean on that is not so (nothing: they write as the ORM
    would)."""
    gaps = []
    if events.save is not Model.save:
        gaps.append(f"{events.__name__} has a save() of its own")
    gaps += [f"a {signal} receiver for {events.__name__}"
             for signal, sent in (("pre_save", signals.pre_save), ("post_save", signals.post_save))
             if sent.has_listeners(events)]
    if any(f.db_returning for f in events._meta.concrete_fields if not f.primary_key):
        gaps.append(f"a column of {events.__name__} the database fills")
    gaps += [f"Field.{name}" for name in ("pre_save", "get_db_prep_save")
             if not callable(getattr(Field, name, None))]
    gaps += [f"the database's {name}" for name, on in (
        ("can_return_columns_from_insert", connection.features),
        ("has_select_for_update", connection.features), ("quote_name", connection.ops))
        if not hasattr(on, name)]
    if not any(f.name == "last_seq" for f in nights._meta.concrete_fields):
        gaps.append(f"{nights.__name__}.last_seq")
    return gaps


def install(events: type[Model], nights: type[Model]) -> Statements | None:
    """The statements this process writes with, or None for the ORM's own: ``BUNCO_STOCK``
    leaves them stock, or something they lean on is missing (one warning names it)."""
    if stock("statements"):
        return None
    gaps = missing(events, nights)
    if gaps:
        log.warning("the log's writes run the ORM's way (compiled statements left out): %s",
                    "; ".join(gaps))
        return None
    return Statements(events, nights)
