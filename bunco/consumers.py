"""Websocket consumers: one per screen kind. On connect a screen gets a full snapshot; a
screen that asks "sync" with an older sequence number gets a fresh one. Group handlers only
forward text that was rendered once for everyone."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, JsonWebsocketConsumer

from bunco import broadcast, groups, host, screens
from bunco.models import Night
from bunco.selectors import live_state, night_by_tv_token, player_by_token


class PingConsumer(JsonWebsocketConsumer):
    """Answers a ping, so a screen (and a test) can tell its websocket is really connected."""

    def connect(self) -> None:
        self.accept()

    def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            self.send_json({"type": "pong"})
        else:
            self.send_json({"type": "error", "message": "unknown message"})


class ScreenConsumer(AsyncJsonWebsocketConsumer):
    """Shared behaviour of every live screen."""

    night_id: int

    async def connect(self) -> None:
        found = await database_sync_to_async(self.resolve)()
        if not found:
            await self.close(code=4404)
            return
        for group in self.groups_to_join():
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    async def disconnect(self, code) -> None:
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    def groups_to_join(self) -> list[str]:
        self.joined = self.initial_groups()
        return self.joined

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") != "sync":
            await self.send_json({"type": "error", "message": "unknown message"})
            return
        seq = content.get("seq")
        last = await database_sync_to_async(self.last_seq)()
        if not isinstance(seq, int) or seq < last:
            await self.send_snapshot()

    async def send_snapshot(self) -> None:
        await self.send(text_data=await database_sync_to_async(self.snapshot)())

    def last_seq(self) -> int:
        return Night.objects.values_list("last_seq", flat=True).get(pk=self.night_id)

    async def screen_update(self, event) -> None:
        await self.send(text_data=event["html"])

    # Subclasses: resolve() finds the screen's night from its token (True if valid),
    # initial_groups() lists its groups, snapshot() renders the whole live part of the screen.


class TvConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        self.night = night_by_tv_token(self.scope["url_route"]["kwargs"]["token"])
        self.night_id = self.night.pk if self.night else 0
        return self.night is not None

    def initial_groups(self) -> list[str]:
        return [groups.tv(self.night_id)]

    def snapshot(self) -> str:
        night = Night.objects.get(pk=self.night_id)
        return broadcast.tv_snapshot(night, live_state(night))


class HostConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        session = self.scope.get("session")
        if session is None or not session.get(host.SESSION_KEY):
            return False
        self.night_id = self.scope["url_route"]["kwargs"]["night_id"]
        return Night.objects.filter(pk=self.night_id).exists()

    def initial_groups(self) -> list[str]:
        return [groups.host(self.night_id)]

    def snapshot(self) -> str:
        return broadcast.host_snapshot(screens.host_board(Night.objects.get(pk=self.night_id)))


class PlayerConsumer(ScreenConsumer):
    """A player's own phone: it follows its owner from table to table."""

    def resolve(self) -> bool:
        self.player = player_by_token(self.scope["url_route"]["kwargs"]["token"])
        if self.player is None:
            return False
        self.night_id = self.player.night_id
        where = live_state(self.player.night).seat_of(self.player.name)
        self.table_group = groups.table(self.night_id, where[0]) if where else None
        return True

    def initial_groups(self) -> list[str]:
        out = [groups.player(self.player.pk)]
        return out + [self.table_group] if self.table_group else out

    def snapshot(self) -> str:
        night = Night.objects.get(pk=self.night_id)
        self.player.refresh_from_db()
        return broadcast.player_snapshot(night, live_state(night), self.player.name,
                                         self.player.left_early)

    async def player_update(self, event) -> None:
        # Rotation: move this phone to its owner's new table group (no database needed).
        new = event.get("table_group")
        if new != self.table_group:
            if self.table_group:
                await self.channel_layer.group_discard(self.table_group, self.channel_name)
                self.joined.remove(self.table_group)
            if new:
                await self.channel_layer.group_add(new, self.channel_name)
                self.joined.append(new)
            self.table_group = new
        await self.send(text_data=event["html"])
