"""A table calls the host over ("Host, please come to table 4"), and the host answers.

A call is not an event of the night's log (it changes no score, seat or prize, and nothing
folds it): it is its own small row, ``HostCall``, written in one transaction; after the commit
the live layer pushes it to the host's page and the table's phones (``hooks.call_changed``).
Pressing twice is one call: a table has at most one call waiting (the database holds to it,
whichever worker writes).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from bunco.models import HostCall, Night
from bunco.night import hooks
from bunco.night.cache import live_state
from bunco.night.services.runner import CommandRefused

#: A call right after the host answered the last one is most likely the same press again.
CALL_AGAIN_AFTER = timedelta(seconds=10)


def host_call(*, night: Night, table: int, by: str, now=None) -> tuple[HostCall, bool]:
    """Table ``table`` calls the host. Returns the call and whether it is new: a table with
    a call waiting gets that call back, unchanged."""
    now = now or timezone.now()
    if not 1 <= table <= len(live_state(night).tables):
        raise CommandRefused(f"there is no table {table} tonight")
    try:
        with transaction.atomic():
            waiting = HostCall.objects.filter(night=night, table=table,
                                              answered_at__isnull=True).first()
            if waiting is not None:
                return waiting, False
            last = HostCall.objects.filter(night=night, table=table).order_by("-id").first()
            if last is not None and now - last.answered_at < CALL_AGAIN_AFTER:
                raise CommandRefused("The host answered your call a moment ago. Still need "
                                     "them? Call again in a few seconds.")
            call = HostCall.objects.create(night=night, table=table, by=by[:60],
                                           created_at=now, changed_at=now)
    except IntegrityError:  # another phone of the table called at the same instant
        return HostCall.objects.get(night=night, table=table, answered_at__isnull=True), False
    hooks.call_changed(night, table)
    return call, True


def host_call_answer(*, night: Night, call_id: int, answer: str, now=None) -> HostCall:
    """The host answers a call: "On my way" (``coming``) or ``dismissed``. Answering a call
    already answered changes nothing."""
    if answer not in HostCall.Answer.values:
        raise CommandRefused("answer a call with “On my way” or “Dismiss”")
    now = now or timezone.now()
    with transaction.atomic():
        call = HostCall.objects.select_for_update().filter(night=night, pk=call_id).first()
        if call is None:
            raise CommandRefused("that call is not one of tonight's")
        if call.answered_at is not None:
            return call
        call.answer, call.answered_at, call.changed_at = answer, now, now
        call.save(update_fields=["answer", "answered_at", "changed_at"])
    hooks.call_changed(night, call.table)
    return call
