"""The phones' websockets: a table's own device, and a player's phone that follows its owner
from table to table."""

from bunco import broadcast, groups
from bunco.consumers import ScreenConsumer
from bunco.selectors import live_state, player_by_token, table_link_by_token


class TableConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        self.link = table_link_by_token(self.scope["url_route"]["kwargs"]["token"])
        self.night_id = self.link.night_id if self.link else 0
        return self.link is not None

    def initial_groups(self) -> list[str]:
        return [groups.table(self.night_id, self.link.number)]

    def snapshot(self, night, state) -> str:
        return broadcast.table_snapshot(state, self.link.number)


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

    def snapshot(self, night, state) -> str:
        self.player.refresh_from_db()
        return broadcast.player_snapshot(state, self.player.name, self.player.left_early)

    async def player_update(self, event) -> None:
        # Rotation: move this phone to its owner's new table group (no database needed).
        new = event.get("table_group")
        if new != self.table_group:
            if self.table_group:
                await self.leave(self.table_group)
            if new:
                await self.join(new)
            self.table_group = new
        await self.send(text_data=event["html"])
