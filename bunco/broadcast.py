"""Render once, send to many: after a change is committed, each screen kind's fragments are
rendered here and pushed to its Channels group. Group handlers only forward the text."""

from __future__ import annotations


def night_changed(night_id: int) -> None:
    """Placeholder until the screens are wired: nothing to push yet."""
