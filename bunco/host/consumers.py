"""The host's websocket: every table's fragment and the host's room-wide display."""

from bunco import broadcast, groups
from bunco.consumers import ScreenConsumer
from bunco.host.auth import SESSION_KEY
from bunco.models import Night


class HostConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        session = self.scope.get("session")
        if session is None or not session.get(SESSION_KEY):
            return False
        self.night_id = self.scope["url_route"]["kwargs"]["night_id"]
        return Night.objects.filter(pk=self.night_id).exists()

    def initial_groups(self) -> list[str]:
        return [groups.host(self.night_id)]

    def snapshot(self, night, state) -> str:
        return broadcast.host_snapshot(night, state)
