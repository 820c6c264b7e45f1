"""The one way a command reaches the log, and what every command shares.

A night has one log and many writers at once (the host, every table, the desk, the clock,
other workers), so no command writes for itself: each says only what its event is, and
``run`` does the rest the same way for all of them. Under the night's own lock it catches
the fold up with the log, builds one event (refusing, with a message a guest can read, when it
does not fit), applies it to the fold, writes the log row and any projection rows in one short
transaction, and hands what it wrote to what the other layers registered (``hooks``: drawn
once, pushed and copied after the commit). A repeated idempotency key is answered with the
first acknowledgment, at any later time. A resend, a race between workers or a write that
fails is then handled once, here, and not per command.

A table's tap names the round, table and position its screen showed (``table.Claim``): a
screen that fell behind is answered ("already recorded") or refused by name, never believed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from bunco.models import Night, ScoreEvent
from bunco.night import hooks
from bunco.night.cache import caught_up, folds
from bunco.night.fold import Event, Kind, LiveNight
from bunco.night.versions import advance
from scoring import IllegalMove, RulesError


class CommandRefused(Exception):
    """A command that does not fit: the message is shown to the user as is. ``same``: the
    very roll another screen entered first (it counts once; entering it again would not)."""

    def __init__(self, message: str = "", same: bool = False):
        super().__init__(message)
        self.same = same


class SameRoll(IllegalMove):
    """A roll tapped for a position another screen took first, with the same roll."""


def _refused(exc: IllegalMove | RulesError) -> CommandRefused:
    """The game's own error, as the refusal its user reads."""
    return CommandRefused(str(exc), same=isinstance(exc, SameRoll))


def _refuse_on_domain_errors(func):
    """The game's own errors (``IllegalMove``, ``RulesError``) raised by a command become a
    refusal its user reads. Nothing else does: any other error, a plain ``ValueError``
    included, is a bug, and a guest told "invalid literal for int()" could do nothing with it;
    it stays an error (logged, answered as one)."""

    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (IllegalMove, RulesError) as exc:
            raise _refused(exc) from None

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


def _key(key: str | uuid.UUID | None) -> uuid.UUID:
    if key is None or key == "":
        return uuid.uuid4()
    try:
        return key if isinstance(key, uuid.UUID) else uuid.UUID(str(key))
    except ValueError:
        raise CommandRefused("this tap carried a broken id; reload the page") from None


@dataclass
class Ack:
    """A command's answer: the log row that records it; ``applied`` is False when the key was
    seen before (the row is the original one) or the tap was for a position already recorded
    (``duplicate``; then there is no row)."""

    row: ScoreEvent | None
    applied: bool
    state: LiveNight
    duplicate: bool = False
    message: str = ""
    frames: list = field(default_factory=list)


@dataclass(frozen=True)
class Command:
    """One thing asked of a night, as a typed value: its fields are what was asked. Who asked
    and the key that makes a resend harmless travel beside it (``run``).

    ``event`` is the command's one handler: it looks at the caught-up fold and returns the new
    event's fields (its ``data`` the kind's typed value, ``bunco/night/payloads/``), or an
    ``Ack`` to answer without writing, or raises ``IllegalMove`` (a refusal its user reads).
    ``write`` writes rows beside the log's, in its transaction."""

    def event(self, state: LiveNight) -> dict | Ack:
        raise NotImplementedError

    def write(self, night: Night, row: ScoreEvent) -> None:
        """Rows written in the log row's transaction (none, unless a command says so)."""


class _Raced(Exception):
    """The log moved under a command that held the night's lock: a writer that did not take
    it (SQLite has no row locks; another program on the database file)."""


#: Night columns that mirror the fold, written in the same transaction as the event.
def _projection(kind: str, state: LiveNight) -> dict:
    return Kind(kind).cls.projection(state)


def _locked_last_seq(night: Night) -> int:
    """Take the night's write lock for this transaction and read the log's last sequence
    number under it. On PostgreSQL a row lock on the night: another worker's command on the same
    night waits here until this one commits (one writer per night; other nights go on). On
    SQLite every write transaction already starts with the database's one write lock
    (``transaction_mode: IMMEDIATE`` in settings)."""
    found = _locked(night.pk)
    if found is None:
        raise CommandRefused("this night no longer exists")
    return found


def run(night: Night, command: Command, *, key=None, actor: str = "host") -> Ack:
    """Run one command against the night: the one runner every command goes through.

    Commands on one night are serialised: the process's lock on the night's fold, then, in
    the command's transaction, the database's lock on the night (``_locked_last_seq``), so
    workers racing for one night wait for each other instead of refusing. What was written
    goes to the hooks (``hooks.written``), outside the database's lock: drawn at once, pushed
    and copied after the commit."""
    key = _key(key)
    for _attempt in range(3):
        with folds.lock(night.pk):
            answer = None
            try:
                with transaction.atomic():
                    answer = _write(night, key, actor, command)
            except _Raced:
                continue  # the fold was dropped: read the log again
            except BaseException:
                if isinstance(answer, hooks.Written):  # written, but the commit failed
                    folds.drop(night.pk)
                raise
            if isinstance(answer, Ack):
                return answer
            folds.put(night.pk, answer.state)  # committed: the fold moves on
            hooks.written(answer)
            return Ack(answer.row, applied=True, state=answer.state, frames=answer.frames or [])
    raise RuntimeError(f"night {night.pk}'s log kept moving under its lock")


def _write(night: Night, key: uuid.UUID, actor: str, command: Command) -> Ack | hooks.Written:
    """The command's transaction, under the night's locks: an Ack to answer without writing,
    or what was written.

    The command decides on the fold as it is; the event is applied to it only once its row is
    in (a key already in the log fails there, the fold untouched), and a write that fails
    after that drops the fold, to be read from the log again: it is never rewound."""
    state = caught_up(night, known_seq=_locked_last_seq(night))
    # A resend of a command already in the log gets its first answer. The log is only asked
    # when the command would not be written anew (refused, or nothing to do) or the write
    # hits the key's unique constraint: a tap's common path costs no lookup.
    try:
        spec = command.event(state)
        if isinstance(spec, Ack):
            return _earlier(night, key) or spec
        event = Event(seq=state.seq + 1, actor=actor[:60], **spec)
        was_playing = state.room is not None
        with transaction.atomic():
            row, after = _append_and_apply(night, key, state, event, command)
    except (IllegalMove, RulesError, IntegrityError) as exc:
        # Refused, or this key is in the log already (the same tap through another door at
        # once): the fold is as it was.
        earlier = _earlier(night, key)
        if earlier is not None:
            return earlier
        if isinstance(exc, IntegrityError):
            raise
        raise _refused(exc) from None
    after.created_at = night.created_at
    return hooks.Written(night, event, row, after, was_playing and after.room is None)


def _append_and_apply(night: Night, key: uuid.UUID, state: LiveNight, event: Event,
                      command: Command) -> tuple[ScoreEvent, LiveNight]:
    """The event's row appended, then the event applied to the fold (``advance``: a refusal
    changes nothing), then the night's row moved on and the command's own rows written. A
    failure after the fold moved drops it (a take-back's new night leaves it as it was)."""
    row = _append(ScoreEvent(
        night_id=night.pk, seq=event.seq, key=key, kind=event.kind,
        table=event.table, set_number=event.set_number,
        round_number=event.round_number, player=event.player,
        ghost=event.ghost, position=event.position, data=event.data.to_data(),
        actor=event.actor,
    ))
    after = advance(state, event)
    try:
        columns = {"last_seq": event.seq, **_projection(event.kind, after)}
        if not _moved_on(night.pk, event.seq, columns):
            raise _Raced
        command.write(night, row)
    except BaseException:
        if after is state:  # moved in place: only the log can vouch for the night now
            folds.drop(night.pk)
        raise
    for name, value in columns.items():
        setattr(night, name, value)
    return row, after


def _saved(row: ScoreEvent) -> ScoreEvent:
    """``row`` appended to the log by the ORM's own ``save()``."""
    row.save(force_insert=True)
    return row


def _updated(night_id: int, seq: int, columns: dict) -> bool:
    """The night's row moved to ``seq`` (and its projection columns), if it was at seq - 1."""
    return bool(Night.objects.filter(pk=night_id, last_seq=seq - 1).update(**columns))


def _selected(night_id: int) -> int | None:
    """The night's ``last_seq`` read under its row's lock (none where the database has no
    ``FOR UPDATE``); None: no such night."""
    return (Night.objects.select_for_update().filter(pk=night_id)
            .values_list("last_seq", flat=True).first())


#: How a command locks its night and reads its last seq, appends its log row and moves its
#: night on: the ORM's own, unless ``write_with`` was given statements that do the same.
_locked, _append, _moved_on = _selected, _saved, _updated


def write_with(append: Callable[[ScoreEvent], ScoreEvent] | None = None,
               moved_on: Callable[[int, int, dict], bool] | None = None,
               locked: Callable[[int], int | None] | None = None) -> None:
    """How a command's log row is appended (``append(row)``), its night moved on
    (``moved_on(night_id, seq, columns)``: False if the night was not at seq - 1) and locked
    (``locked(night_id)``: its last seq, None if there is no such night): the ORM's own for
    any left None. The runtime's compiled statements (``bunco/runtime/statements.py``) are
    put in at start by ``bunco/apps.py``."""
    global _locked, _append, _moved_on
    _locked, _append, _moved_on = locked or _selected, append or _saved, moved_on or _updated


def _earlier(night: Night, key: uuid.UUID) -> Ack | None:
    row = ScoreEvent.objects.filter(night_id=night.pk, key=key).first()
    return Ack(row, applied=False, state=caught_up(night)) if row is not None else None


def event_ack(*, night: Night, key) -> Ack | None:
    """The acknowledgment of a command already in the log under ``key``, if any."""
    try:
        return _earlier(night, uuid.UUID(str(key)))
    except ValueError:
        return None


def where(state: LiveNight) -> dict:
    return {"set_number": state.set_number, "round_number": state.round_number}


def _when(text):
    try:
        return parse_datetime(text) if isinstance(text, str) else None
    except ValueError:
        return None
