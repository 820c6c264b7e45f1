"""The host's list of nights: archiving an old night, bringing it back, deleting one.

None of these is a change of the night's game, so none is an event of its log: archiving moves
the night off the main list (it stays in the season), and deleting takes the log with it, after
the night's file (``bunco/night/document.py``, what "Download the night" saves) is saved by
the laptop into the backups folder (``hooks.keep``), where ``Open a saved night`` brings it
back.
"""

from __future__ import annotations

from pathlib import Path

from django.db import transaction
from django.utils import timezone

from bunco.models import Night, Person
from bunco.night import hooks
from bunco.night.cache import folds
from bunco.night.services.runner import CommandRefused


def night_archive(*, night: Night, archived: bool = True) -> Night:
    """Off the main list (under "Archived"), or back on it. An archived night still counts in
    the season; guests scanning the start code are no longer sent to it."""
    with transaction.atomic():
        night.archived_at = timezone.now() if archived else None
        Night.objects.filter(pk=night.pk).update(archived_at=night.archived_at)
    return night


def night_in_play(night: Night) -> bool:
    """Seated and not ended: phones may be scoring it right now."""
    return night.status == Night.Status.PLAYING


def night_delete(*, night: Night, live_confirmed: bool = False) -> Path:
    """Delete a night and everything of it (players, table links, the log), after saving its
    file into the backups folder (returned). A night in play is deleted only when the host
    said so (``live_confirmed``). A person left with no night is removed too."""
    night.refresh_from_db()
    if night_in_play(night) and not live_confirmed:
        raise CommandRefused(f"“{night.name}” is being played now: tick “Yes, delete it while "
                             "it is being played” to delete it anyway")
    saved = hooks.keep(night)
    with folds.lock(night.pk):
        with transaction.atomic():
            people = set(night.players.exclude(person=None).values_list("person_id", flat=True))
            night.delete()
            Person.objects.filter(pk__in=people, players__isnull=True).delete()
        folds.drop(night.pk)
    return saved
