"""What the other layers do when a night is written: registered once at start-up.

The night layer writes and folds; it draws no screen, pushes nothing and keeps no copy. The
live layer registers drawing and pushing what a command changed, the laptop keeping the
night's copy and the database's snapshot (``bunco/apps.py`` runs both registrations when Django
starts: the server, the ``bunco`` and ``manage.py`` commands and the tests alike). The runner
hands each what it wrote (``Written``); they run in the order they were registered, each
after the write's commit (``transaction.on_commit``), except the drawing, which runs under
the night's lock before the runner answers (a tap's answer reuses its table's fragment).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from django.db import transaction

from bunco.models import Night, ScoreEvent
from bunco.night.fold import Event, Kind, LiveNight


@dataclass
class Written:
    """One command's write: the night, its event and log row, the fold after it, whether it
    closed a round; ``frames``: what the drawing made of it (None when nothing draws)."""

    night: Night
    event: Event
    row: ScoreEvent
    state: LiveNight
    closed_round: bool
    frames: Any = None

    @property
    def ends(self) -> bool:
        """A round closed or the night ended: a copy is written whole, a snapshot taken."""
        return self.closed_round or self.event.kind == Kind.NIGHT_ENDED


_draw: Callable[[Night, LiveNight, Event], Any] | None = None
_after_write: list[Callable[[Written], None]] = []
_after_call: list[Callable[[Night, int], None]] = []
_after_open: list[Callable[[Night], None]] = []
_keep: Callable[[Night], Path] | None = None


def _add(hooks: list, hook: Callable) -> None:
    if hook not in hooks:  # registering twice (Django set up again) runs it once
        hooks.append(hook)


def draw_with(draw: Callable[[Night, LiveNight, Event], Any]) -> None:
    """What draws the frames of a write (``draw(night, state after, event)``), under the
    night's lock (the live layer's)."""
    global _draw
    _draw = draw


def after_write(hook: Callable[[Written], None]) -> None:
    """``hook(written)`` after every command's commit."""
    _add(_after_write, hook)


def after_call(hook: Callable[[Night, int], None]) -> None:
    """``hook(night, table)`` once a table's call for the host was made or answered."""
    _add(_after_call, hook)


def after_open(hook: Callable[[Night], None]) -> None:
    """``hook(night)`` once a night was opened from its file (written whole)."""
    _add(_after_open, hook)


def keep_with(keep: Callable[[Night], Path]) -> None:
    """What saves a night's file before it is deleted, saying where (the laptop's)."""
    global _keep
    _keep = keep


def written(done: Written) -> None:
    """A command was written: its frames drawn now (``done.frames``), the hooks run after
    its commit."""
    if _draw is not None:
        done.frames = _draw(done.night, done.state, done.event)
    for hook in _after_write:
        transaction.on_commit(partial(hook, done))


def call_changed(night: Night, table: int) -> None:
    for hook in _after_call:
        hook(night, table)


def opened(night: Night) -> None:
    for hook in _after_open:
        hook(night)


def keep(night: Night) -> Path:
    """The night's file saved (before it is deleted), and where."""
    if _keep is None:
        raise RuntimeError("nothing keeps a night's file: bunco/apps.py registers the laptop's")
    return _keep(night)
