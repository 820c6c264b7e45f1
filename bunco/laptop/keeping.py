"""What the laptop keeps of each night as it is written, registered with the night's hooks at
start-up (``bunco/night/hooks.py``, ``bunco/apps.py``): after every command its entries go to
the copy folder (the whole file at a round's or the night's end, with a snapshot of the
database then); a night opened from its file is copied whole; a night's file is saved into the
backups folder before the night is deleted."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.text import slugify

from bunco.laptop import backup, deleted, disk
from bunco.models import Night
from bunco.night import hooks


def after_write(done: hooks.Written) -> None:
    """After a command's commit: a snapshot at a round's or the night's end, and the copy."""
    if done.ends:
        backup.snapshot_soon(f"seq{done.event.seq}")
    if settings.BUNCO_COPY_TO or disk.FAILING:  # else a copy has nothing to do
        backup.copy_soon(done.night.pk, now=done.ends)


def opened(night: Night) -> None:
    """A night opened from its file: copied whole at once."""
    backup.copy_soon(night.pk, now=True)


def save_deleted(night: Night) -> Path:
    """The night's file, saved into the backups folder before the night is deleted; its
    links remembered, so its phones hear that it is gone (``deleted``)."""
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    name = slugify(night.name)[:40] or "night"
    target = backup.folder() / f"deleted-night-{night.pk}-{name}-{stamp}.json"
    partial = target.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8") as out:
        json.dump(backup.night_file(night), out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    partial.replace(target)
    deleted.remember([night.join_token, night.tv_token,
                      *night.players.values_list("token", flat=True),
                      *night.table_links.values_list("token", flat=True)])
    return target
