"""The table device's websocket: the table's live tally, turn and bell."""

from bunco import broadcast, groups
from bunco.consumers import ScreenConsumer
from bunco.models import Night
from bunco.selectors import live_state, table_link_by_token


class TableConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        self.link = table_link_by_token(self.scope["url_route"]["kwargs"]["token"])
        self.night_id = self.link.night_id if self.link else 0
        return self.link is not None

    def initial_groups(self) -> list[str]:
        return [groups.table(self.night_id, self.link.number)]

    def snapshot(self) -> str:
        night = Night.objects.get(pk=self.night_id)
        return broadcast.table_snapshot(night, live_state(night), self.link.number)
