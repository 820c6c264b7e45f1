"""The phones' websockets: a table's own device, and a player's phone that follows its owner
from table to table."""

import logging

from channels.db import database_sync_to_async
from django.db import DatabaseError

from bunco import limits
from bunco.laptop import disk
from bunco.live import broadcast, groups, screens
from bunco.live.consumers import ScreenConsumer
from bunco.night import devices, services
from bunco.night.cache import live_state
from bunco.night.selectors import night_by_id
from bunco.night.tap_reads import player_by_token, table_link_by_token
from tables.gone import unknown_or_gone
from tables.tap import (
    NOT_YOURS,
    Answer,
    player_tap_answer,
    refusal,
    saved_or_kept,
    tap,
)

MAX_FIELDS = 12
SERVER_ERROR = "The app had a problem (error 500); your tap is kept and will be sent again"
CANNOT_CALL = "The laptop cannot save right now: wave to the host instead"
log = logging.getLogger(__name__)


class Taps:
    """Taps sent over the screen's websocket: the same fields, checks and answers as the form
    post, without an HTTP request per tap. The answer is an ``ack`` frame with the tap's key;
    a recorded tap's table comes with the push every screen of the table gets (``tables.tap``)."""

    async def on_tap(self, content) -> None:
        fields, action = content.get("fields"), content.get("action")
        if (not isinstance(fields, dict) or len(fields) > MAX_FIELDS
                or not isinstance(action, str)
                or not all(isinstance(v, str | int) for v in fields.values())):
            await self.send_json({"type": "ack", "key": None, "status": 400, "ok": False,
                                  "refused": True,
                                  "error": "that tap did not make sense; reload the page"})
            return
        if not limits.TAPS.take(self.token):  # the link's share, over every connection
            await self.retry_later(fields.get("key"))
            return
        try:
            answer = await database_sync_to_async(saved_or_kept)(
                self.night_id, self.run_tap, action, fields)
        except Exception:
            # Not a decision of the game (the database restarting, a bug): the socket stays
            # open and the phone keeps the tap and sends it again with the same key.
            log.exception("tap failed")
            answer = Answer(500, {"ok": False, "error": SERVER_ERROR})
        # The decision only: a recorded tap's table comes with the push every screen of the
        # table gets; after any other answer the phone syncs if it is behind.
        await self.send_json({"type": "ack", "key": fields.get("key"),
                              "status": answer.status, **answer.body})


class Calls:
    """"Call the host" from a table's phone: one call per table waiting (pressing twice is
    one call). The phone that pressed is answered with its button as it now stands (a
    refusal in words on it); every phone of the table and the host get the push."""

    async def on_call(self, content) -> None:
        html = await database_sync_to_async(self.run_call_or_say)()
        await self.send(text_data=html)

    def run_call_or_say(self) -> str:
        try:
            return self.run_call()
        except (DatabaseError, OSError) as exc:
            if not disk.is_disk_error(exc):
                raise
            disk.data_failed(exc, self.night_id)
            return screens.call_host_html(self.night_id, self.call_table(), note=CANNOT_CALL)

    def run_call(self) -> str:
        table = self.call_table()
        if table is None:
            return screens.call_host_html(self.night_id, None)
        night = night_by_id(self.night_id)
        if night is None:  # deleted meanwhile
            return screens.call_host_html(self.night_id, None)
        try:
            services.host_call(night=night, table=table, by=self.caller())
        except services.CommandRefused as exc:
            return screens.call_host_html(self.night_id, table, note=str(exc))
        return screens.call_host_html(self.night_id, table)

    def calls_behind(self, shows: dict, state=None) -> bool | None:
        # Not equal, rather than older: a guest's phone that moved to another table shows the
        # last table's call until a snapshot brings this one's.
        table, seq = self.call_table(state), shows.get("call-host")
        if table is None:
            return False
        known = screens.calls_seq(self.night_id, table, cached=state is not None)
        return None if known is None else seq != known


class PhoneSocket:
    """A phone's own messages (a tap, a call for the host); the rest are every screen's."""

    async def receive_json(self, content, **kwargs) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "tap":
            await self.on_tap(content)
        elif kind == "call":
            await self.on_call(content)
        else:
            await super().receive_json(content, **kwargs)


class TableConsumer(PhoneSocket, Taps, Calls, ScreenConsumer):

    def call_table(self, state=None) -> int:
        return self.link.number

    def caller(self) -> str:
        return f"table {self.link.number}'s phone"

    def resolve(self) -> bool:
        self.link = table_link_by_token(self.scope["url_route"]["kwargs"]["token"])
        if self.link is None:
            self.night_id, self.token = 0, ""
            return False
        self.night_id, self.token = self.link.night_id, self.link.token
        return True

    def initial_groups(self) -> list[str]:
        return [groups.table(self.night_id, self.link.number)]

    def snapshot(self, night, state) -> str:
        return (broadcast.table_snapshot(state, self.link.number)
                + screens.call_host_html(night.pk, self.link.number))

    def run_tap(self, action: str, fields: dict) -> Answer:
        # The night as this link read it on connecting: the runner reads what a command needs
        # under the night's lock (its last seq; the rules are the log's), so no read per tap.
        return tap(self.link.night, self.link.number, action, f"table {self.link.number}", fields,
                   device=True)


class PlayerConsumer(PhoneSocket, Taps, Calls, ScreenConsumer):
    """A player's own phone: it follows its owner from table to table."""

    def call_table(self, state=None) -> int | None:
        """The table the player sits at: the table this phone follows (its group, moved at
        every rotation), with no search of the room; on a shared layer, which may have lost a
        rotation's push, the database's word unless ``state`` (this process's fold) is
        given."""
        if state is not None or not groups.shared_layer():
            return groups.table_number(self.table_group)
        night = night_by_id(self.night_id)
        where = live_state(night).seat_of(self.player.name) if night else None
        return where[0] if where else None

    def caller(self) -> str:
        return f"{self.player.name}'s phone"

    def resolve(self) -> bool:
        self.player = player_by_token(self.scope["url_route"]["kwargs"]["token"])
        if self.player is None or not devices.may_use(self.player, self.scope.get("cookies")):
            return False
        self.night_id = self.player.night_id
        self.night = self.player.night  # this process's one instance of it (tap_reads)
        self.token = self.player.token
        where = live_state(self.night).seat_of(self.player.name)
        self.table_group = groups.table(self.night_id, where[0]) if where else None
        return True

    def initial_groups(self) -> list[str]:
        out = [groups.player(self.player.pk)]
        return out + [self.table_group] if self.table_group else out

    def snapshot(self, night, state) -> str:
        self.player.refresh_from_db()
        where = state.seat_of(self.player.name)
        return (broadcast.player_snapshot(state, self.player.name, self.player.left_early)
                + screens.call_host_html(night.pk, where[0] if where else None))

    def run_tap(self, action: str, fields: dict) -> Answer:
        player = player_by_token(self.token, self.night)  # its night as on connecting
        if player is None or player.night is None:
            return unknown_or_gone(self.token)
        if not devices.may_use(player, self.scope.get("cookies")):
            # The host released this phone's player and another phone picked it since.
            return refusal(NOT_YOURS.format(name=player.name), 403)
        return player_tap_answer(player, action, fields)

    async def player_update(self, event) -> None:
        # Rotation: move this phone to its owner's new table group (no database needed).
        new = event.get("table_group")
        if new != self.table_group:
            if self.table_group:
                await self.leave(self.table_group)
            if new:
                await self.join(new)
            self.table_group = new
        self.forwarded = max(self.forwarded, event.get("seq") or 0)
        await self.send(text_data=event["html"])
