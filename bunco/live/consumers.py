"""What every live screen's websocket does, whatever its face: a snapshot on connect, a resync
when the screen says it is behind, and group handlers that only forward text rendered once for
everyone. Each face subclasses ``ScreenConsumer`` for its own screen."""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import JsonWebsocketConsumer
from django.db import DatabaseError

from bunco import buckets, clock, limits
from bunco.live import broadcast, groups, reports, sync
from bunco.live.sync import Verdict
from bunco.night import services
from bunco.night.cache import current_fold, folds, live_state
from bunco.night.selectors import logged_seq_here, night_by_id
from bunco.runtime import layers
from bunco.runtime.consumer import NOT_UNDERSTOOD, decode, screen_consumer_base
from bunco.runtime.watch import watch

_looks = sync.Looks()  # one process on SQLite: the log's last seq, read for many syncs
log = logging.getLogger(__name__)


def _small_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99


class PingConsumer(JsonWebsocketConsumer):
    """Answers a ping, so a screen (and a test) can tell its websocket is really connected."""

    def connect(self) -> None:
        self.accept()
        if reports.reached(self.scope):
            reports.card_changed()  # on the sync thread: this consumer is a sync one

    def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        content, error = decode(text_data, bytes_data)
        if error:
            self.send_json({"type": "error", "message": error})
        else:
            self.receive_json(content)

    def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            self.send_json({"type": "pong"})
        else:
            self.send_json({"type": "error", "message": "unknown message"})


class ScreenConsumer(screen_consumer_base()):
    """Shared behaviour of every live screen.

    A screen outlives a restart of Redis or PostgreSQL without its page doing anything: a
    read from the channel layer that fails is tried again (``runtime.consumer``), the screen's
    groups are joined again at its next sync once the layer has failed (``rejoin``), and a
    message the database cannot answer now is left for the next sync."""

    night_id: int
    #: ``layers.failures`` when this screen last joined all its groups (-1: a join failed).
    joined_at = -1
    syncs = 0
    checks = 0  # syncs looked at: every ``policy.rejoin_every``-th asks the database
    checked_at = 0  # ``layers.failures`` when the database was last asked
    policy = sync.POLICY

    async def connect(self) -> None:
        if reports.reached(self.scope):  # a phone reached the laptop (the room check)
            await database_sync_to_async(reports.card_changed)()
        self.joined: list[str] = []
        self.bucket = buckets.Bucket(limits.WS_RATE, limits.WS_BURST)
        self.refused = 0
        try:
            found = await database_sync_to_async(self.resolve)()
        except DatabaseError as exc:  # the database restarting: the page connects again
            log.warning("a screen could not connect: %r", exc)
            await self.close(code=1011)
            return
        if not found:
            await self.close(code=4404)
            return
        self.joined_at = self.checked_at = layers.failures
        for group in self.initial_groups():
            await self.join(group)
        await self.accept()
        self.take_pushes_directly(True)  # the party's layer: straight to this socket
        self.said = clock.monotonic()  # accepted: it has heard from the server just now
        watch.add(self)
        try:
            await self.send_snapshot()
        except DatabaseError as exc:
            log.warning("a screen's snapshot failed: %r", exc)
            await self.close(code=1011)

    async def join(self, group: str) -> None:
        """Join ``group``; if the layer is away, the screen is still served and joins at its
        next sync."""
        self.joined.append(group)
        groups.join(group)
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except layers.LAYER_ERRORS as exc:
            layers.failed("join", exc)
            self.joined_at = -1

    async def leave(self, group: str) -> None:
        self.joined.remove(group)
        groups.leave(group)
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except layers.LAYER_ERRORS as exc:  # a member left behind expires with its channel
            layers.failed("leave", exc)

    async def rejoin(self) -> None:
        """Join this screen's groups again: the shared layer may have lost them (it failed in
        this process since they were joined, or a minute has passed: ``sync.rejoin_due``).
        Joining is idempotent, and a sync that finds the screen behind sends it what it
        missed."""
        seen = layers.failures
        try:
            for group in self.joined:
                await self.channel_layer.group_add(group, self.channel_name)
        except layers.LAYER_ERRORS as exc:  # still away: the next sync tries again
            layers.failed("join", exc)
            self.joined_at = -1
            return
        self.joined_at = seen

    async def disconnect(self, code) -> None:
        watch.remove(self)
        self.take_pushes_directly(False)
        for group in list(getattr(self, "joined", [])):
            await self.leave(group)

    async def receive_json(self, content, **kwargs) -> None:
        """What every screen says: a ping, the clock's zero, a sync. A face's consumer handles
        its own messages (a tap, a call, an answer) and hands the rest down to this."""
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":  # a screen just woken asks whether this socket still reaches us
            await self.send_json({"type": "pong"})
            if "net" in content:
                await self.note_net(content["net"])
            return
        if kind == "clock":
            await self.on_clock(content)
            return
        if kind != "sync":
            await self.send_json({"type": "error", "message": "unknown message"})
            return
        if "net" in content:
            await self.note_net(content["net"])
        await self.on_sync(content)

    async def on_sync(self, content: dict) -> None:
        """What the screen shows, gathered; what it is sent, decided by ``sync``: this
        process's fold answers on the loop, the database once a minute and at the first sync
        after the shared layer failed. With several workers, another worker's entries reach
        the screen through the shared layer; one process on SQLite checks first that its fold
        has every entry logged (a night written by another process, a command or a test,
        reaches its screens only by their syncs)."""
        shared, parts = groups.shared_layer(), sync.parts(content)
        if sync.rejoin_due(self, shared, layers.failures, self.policy):
            await self.rejoin()  # before looking behind: what it missed meanwhile is sent now
        if parts is None:  # an older page: it says only the last seq it saw
            verdict = await database_sync_to_async(self.by_seq)(content.get("seq"))
        else:
            ask = sync.ask_due(self, layers.failures, self.policy)
            verdict = (Verdict.ASK if ask or not (shared or self.fold_is_current())
                       else self.verdict_here(*parts, shared))
            if verdict is Verdict.ASK:
                self.checked_at = layers.failures
                verdict = await database_sync_to_async(self.verdict_from_log)(*parts, shared)
        if verdict is Verdict.RELOAD:  # the night went back to an older copy: draw anew
            await self.send_json({"type": "reload"})
        elif verdict is Verdict.SNAPSHOT:
            await self.send_snapshot()

    async def on_clock(self, content: dict) -> None:
        """The screen's countdown reached zero: the horn, or the next round by itself. Any
        screen may say so; the night's clock decides (``services.clock_due``)."""
        what, set_number, round_number = (content.get("what"), content.get("set"),
                                          content.get("round"))
        if (what not in ("horn", "next") or not _small_int(round_number)
                or not (set_number is None or _small_int(set_number))):
            await self.send_json({"type": "clock", "ok": False, "error": NOT_UNDERSTOOD})
            return
        error = await database_sync_to_async(self.run_clock)(what, set_number, round_number)
        await self.send_json({"type": "clock", "ok": error is None,
                              **({"error": error} if error else {})})

    def run_clock(self, what: str, set_number, round_number) -> str | None:
        night = night_by_id(self.night_id)
        if night is None:
            return "this night is gone"
        try:
            services.clock_due(night=night, what=what, set_number=set_number,
                               round_number=round_number)
        except services.CommandRefused as exc:
            return str(exc)
        return None

    def verdict_from_log(self, shows: dict, tables: list, shared: bool) -> Verdict:
        """The verdict against the night as its log has it (on the sync thread)."""
        found = current_fold(self.night_id)
        if found is None:
            return Verdict.CURRENT
        state, last_seq = found
        calls, shown = sync.split_calls(shows)
        late = False
        if calls:
            # One process: the calls as it last read them (every call is made through it, and
            # it reads them again after each); several workers: the database's.
            late = None if shared else self.calls_behind(calls, state=True)
            if late is None:
                late = self.calls_behind(calls)
        # On the party's own layer nothing forwarded is lost on the way: what was written to
        # the screen counts as shown. A shared layer may drop a push: strict there.
        return sync.verdict(state, last_seq, shown, tables, calls_late=late,
                            settled=self.settled(), sent=0 if shared else self.forwarded)

    def settled(self) -> int | None:
        return broadcast.timeline.settled(self.night_id, clock.monotonic(), self.policy)

    async def note_net(self, net) -> None:
        """A phone at a table says how its connection fares (its reconnects, a round trip):
        the host sees the tables whose phones struggle (the room check's, ``reports.net``)."""
        html = reports.net(self.night_id, self.joined, self.scope["path"], net)
        if html is None:
            return
        try:
            await self.channel_layer.group_send(groups.host(self.night_id),
                                                {"type": "screen.update", "seq": 0,
                                                 "html": html})
        except layers.LAYER_ERRORS as exc:  # the host sees it at the next change or reload
            layers.failed("push", exc)

    def calls_behind(self, shows: dict, state=None) -> bool | None:
        """Whether the calls for the host this screen shows (id -> data-seq) are behind: the
        calls are not in the log, so the fold cannot say (see ``screens.calls_seq``). With
        ``state`` (this process's fold), from what this process last read of them, or None
        if it has not."""
        return False

    def fold_is_current(self) -> bool:
        """One process on SQLite: whether this process's fold has every entry logged, by any
        process (a command, a test), read on the loop without a trip to the sync thread
        (``sync.Looks``: the syncs of a moment share the read)."""
        state = folds.get(self.night_id)
        return state is not None and _looks.fold_is_current(
            self.night_id, state.seq, clock.monotonic(),
            lambda: logged_seq_here(self.night_id), self.policy)

    def verdict_here(self, shows: dict, tables: list, shared: bool) -> Verdict:
        """The verdict against this process's own fold of the night, on the loop, with no
        trip to the database: what 2,000 screens syncing every 10 s mostly cost. ``ASK`` when
        this process has no fold of the night or it is moving on right now. Pushes still in
        the screen's queue, or on their way (``sync.Pushes``), are not missed; another
        worker's entries wait for the minute's database look."""
        if self.pushes_queued():
            return Verdict.CURRENT  # its pushes wait in its queue: on their way, not missed
        state, lock = folds.get(self.night_id), folds.lock(self.night_id)
        if state is None or not lock.acquire(blocking=False):
            return Verdict.ASK
        try:
            calls, shown = sync.split_calls(shows)
            late = self.calls_behind(calls, state) if calls else False
            # Ahead: the night opened again from an older copy; or, with several workers,
            # this one's fold behind the others' entries: the database tells which.
            return sync.verdict(state, state.seq, shown, tables, calls_late=late,
                                settled=self.settled(), sent=self.forwarded,
                                if_ahead=Verdict.ASK if shared else Verdict.RELOAD)
        finally:
            lock.release()

    def by_seq(self, seq) -> Verdict:
        night = night_by_id(self.night_id)
        return sync.by_seq(seq, night.last_seq if night else None)

    async def send_snapshot(self) -> None:
        await self.send(text_data=await database_sync_to_async(self.render_snapshot)())

    def render_snapshot(self) -> str:
        night = night_by_id(self.night_id)
        if night is None:
            return ""
        state = live_state(night)
        self.forwarded = max(self.forwarded, state.seq)
        return self.snapshot(night, state)

    # Subclasses: resolve() finds the screen's night from its token (True if valid),
    # initial_groups() lists its groups, snapshot(night, state) renders its live parts.
