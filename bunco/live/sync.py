"""A screen's sync, decided: pure, with the clock's reading and the policy passed in.

Every fragment a screen shows carries ``data-seq``, the seq of the last event that changed it.
A sync says what the screen shows (fragment id -> data-seq, and its tables in compact form);
the verdict is what the screen is sent: nothing (``CURRENT``), a snapshot, a reload (it shows
more than the log holds: the night went back to an older copy), or ``ASK``: this process
cannot tell, the database must (``bunco/live/consumers.py`` gathers what is needed, asks, and
acts on the verdict). Nothing here reads the database, the layer or the clock itself.

What makes it more than a comparison:

- **On its way is not missed.** A change pushed less than ``settle_seconds`` ago may still be
  on its way to the screen (a bell's 2,000 frames): not missed (``Pushes``). Nor is anything
  no newer than what was already written to the screen (``sent``), on the party's own layer,
  which loses nothing.
- **Looking again.** Every ``rejoin_every``-th sync of a screen, and the first after the
  shared layer failed, joins its groups again (a restarted Redis has none) and asks the
  database rather than this process's fold (``rejoin_due``, ``ask_due``).
- **One process on SQLite** reads the log's last seq for its syncs at most every
  ``look_every`` seconds while its fold stays as it was (``Looks``): another process's entry
  is seen a sync later at worst.
"""

from __future__ import annotations

import enum
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bunco.night.events import Kind

#: A sync lists the fragments a screen shows by id (a phone: two or three; the TV: its
#: room-wide parts) and its tables in compact form, one seq per table (the TV at 500 tables:
#: ~2.5 KB, well inside a message's 8 KB), so an up-to-date screen of any size costs a lookup
#: per fragment, not a snapshot.
MAX_SHOWN, MAX_TABLES = 64, 2000
#: The fragments of calls for the host: the host's list, a phone's button. Not the log's.
CALL_PARTS = ("host-calls", "call-host")
#: Fragments that change with the seats, results and standings only (``versions.seats``).
SEATS_PARTS = frozenset({"me", "tv-room", "tv-standings", "host-room"})


@dataclass(frozen=True)
class Policy:
    #: One process on SQLite: seconds a read of the log's last seq serves the syncs.
    look_every: float = 0.5
    #: A screen joins its groups again (and asks the database) every this many syncs.
    rejoin_every: int = 6
    #: A change pushed this long ago has reached every screen that reads.
    settle_seconds: float = 2.0


POLICY = Policy()


class Verdict(enum.Enum):
    CURRENT = "current"  # nothing to send
    SNAPSHOT = "snapshot"  # behind: the screen is drawn afresh
    RELOAD = "reload"  # ahead of the log: only a reload shows the night as it is
    ASK = "ask"  # this process cannot tell: ask the database


class Versions(Protocol):
    room: int
    seats: int

    def table(self, number: int) -> int: ...


class Fold(Protocol):
    """What the sync reads of a night's fold (``bunco.night.fold.LiveNight``)."""

    seq: int
    versions: Versions


@dataclass
class Counters:
    """One screen's syncs: how many, and ``failures`` (the shared layer's count of failures)
    when it last joined its groups (-1: a join failed) and last asked the database."""

    syncs: int = 0
    checks: int = 0
    joined_at: int = -1
    checked_at: int = 0


def parts(content: dict) -> tuple[dict, list] | None:
    """A sync's fragments (id -> data-seq) and tables in compact form, or None from an older
    page that says only the last seq it saw (or a sync too big to look at piece by piece)."""
    shows, tables = content.get("shows"), content.get("tables", [])
    if isinstance(shows, dict) and len(shows) <= MAX_SHOWN and isinstance(tables, list) \
            and len(tables) <= MAX_TABLES:
        return shows, tables
    return None


def split_calls(shows: dict) -> tuple[dict, dict]:
    """A sync's fragments as (the calls for the host, the rest): the calls are not the log's,
    so they are compared apart, before the log's seqs."""
    calls = {k: v for k, v in shows.items() if k in CALL_PARTS}
    return calls, {k: v for k, v in shows.items() if k not in CALL_PARTS}


def looks_again(count: int, at: int, failures: int, policy: Policy = POLICY) -> bool:
    """Whether the ``count``-th sync looks again (joins its groups, asks the database): every
    ``rejoin_every``-th does, and the first since the layer failed after ``at``."""
    return count % policy.rejoin_every == 0 or at != failures


def rejoin_due(screen: Counters, shared: bool, failures: int, policy: Policy = POLICY) -> bool:
    """A sync counted; whether it joins the screen's groups again first (a shared layer only:
    the party's own loses nothing)."""
    if not shared:
        return False
    screen.syncs += 1
    return looks_again(screen.syncs, screen.joined_at, failures, policy)


def ask_due(screen: Counters, failures: int, policy: Policy = POLICY) -> bool:
    """A sync looked at; whether it asks the database rather than this process's fold."""
    screen.checks += 1
    return looks_again(screen.checks, screen.checked_at, failures, policy)


def bunco_seq(state) -> int:
    """The seq of the TV's bunco part: the room's, a take-back's, the bunco it celebrates."""
    void = state.latest((Kind.VOID,))
    seq = max(state.versions.room, void.seq if void else 0)
    bunco = state.last_bunco
    if bunco is None or state.room is None or bunco not in state.rolls:
        return seq
    return max(seq, bunco.seq)


def expected_seq(state: Fold, element: str) -> int:
    """The seq of the last event that changed ``element`` (a fragment's id)."""
    number = element[6:]
    if element.startswith("table-") and number.isascii() and number.isdigit() \
            and len(number) <= 6:  # bounded before it is parsed
        return state.versions.table(int(number))
    if element == "tv-bunco":
        return bunco_seq(state)
    if element in SEATS_PARTS:
        return state.versions.seats
    return state.versions.room


def stale(state: Fold, shows: dict, tables: list | None = None,
          settled: int | None = None, sent: int = 0) -> bool:
    """Whether a screen showing these fragments (id -> data-seq) is behind the night;
    ``tables`` is the compact form for a screen of many tables: the data-seq it shows of
    table 1, 2, ... (0 where it shows none). A fragment whose last change is newer than
    ``settled`` (``Pushes.settled``) is on its way to the screen, not missed; so is one whose
    change is no newer than ``sent``, the newest seq already written to the screen."""
    limit = settled if settled is not None else state.seq
    for element, seq in shows.items():
        if not isinstance(seq, int):
            return True
        wanted = expected_seq(state, str(element))
        if seq < wanted <= limit and wanted > sent:
            return True
    for number, seq in enumerate(tables or (), start=1):
        if not isinstance(seq, int):
            return True
        if seq:
            wanted = state.versions.table(number)
            if seq < wanted <= limit and wanted > sent:
                return True
    return False


def ahead(last_seq: int, shows: dict, tables: list | None = None) -> bool:
    """Whether a screen shows entries the night's log does not have: the night was opened
    again from a file (or a snapshot) older than what the screen last saw."""
    seqs = [*shows.values(), *(tables or ())]
    return any(isinstance(seq, int) and seq > last_seq for seq in seqs)


def verdict(state: Fold, last_seq: int, shows: dict, tables: list, *,
            calls_late: bool | None, settled: int | None, sent: int,
            if_ahead: Verdict = Verdict.RELOAD) -> Verdict:
    """What a screen showing ``shows`` (the calls taken out) and ``tables`` is sent, against
    ``state``, the fold as of the log's ``last_seq``. ``calls_late``: whether its calls for the
    host are behind (None: unknown here). ``if_ahead``: what showing more than ``last_seq``
    means (a reload; or, for another worker's fold that may be behind, ask)."""
    if calls_late is None:
        return Verdict.ASK
    if calls_late:
        return Verdict.SNAPSHOT
    if ahead(last_seq, shows, tables):
        return if_ahead
    if stale(state, shows, tables, settled, sent):
        return Verdict.SNAPSHOT
    return Verdict.CURRENT


def by_seq(seq, last_seq: int | None) -> Verdict:
    """An older page's sync, which says only the last seq it saw (``last_seq`` None: the
    night is gone)."""
    if last_seq is None or (isinstance(seq, int) and seq >= last_seq):
        return Verdict.CURRENT
    return Verdict.SNAPSHOT


class Pushes(defaultdict):
    """When this process handed out each night's pushes (after each commit): night ->
    (when, seq) in order, appended by the pusher (``timeline[night].append((now, seq))``)."""

    def __init__(self) -> None:
        super().__init__(deque)
        self.last: dict[int, int] = {}  # night -> the newest seq settled so far

    def settled(self, night_id: int, now: float, policy: Policy = POLICY) -> int | None:
        """The night's newest change pushed at least ``settle_seconds`` before ``now``; None
        when none was pushed lately (every change counts as settled)."""
        recent = self.get(night_id)
        if not recent:
            return None
        limit = now - policy.settle_seconds
        while recent and recent[0][0] <= limit:
            self.last[night_id] = recent.popleft()[1]
        if not recent:  # all of them out: so is anything written elsewhere since
            return None
        return self.last.get(night_id, 0)


class Looks:
    """One process on SQLite: the log's last seq of each night as last read, shared by the
    syncs of ``look_every`` seconds while the fold stays as it was."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[float, int | None]] = {}

    def fold_is_current(self, night_id: int, fold_seq: int, now: float,
                        read: Callable[[], int | None], policy: Policy = POLICY) -> bool:
        """Whether a fold at ``fold_seq`` has every entry logged; ``read()`` reads the log's
        last seq when the last read is older than ``look_every`` or from another fold."""
        seen = self._seen.get(night_id)
        if seen is None or seen[1] != fold_seq or now - seen[0] > policy.look_every:
            seen = self._seen[night_id] = (now, read())
        return fold_seq == seen[1]
