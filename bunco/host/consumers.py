"""The host's websocket: every table's fragment and the host's room-wide display."""

from bunco import broadcast, groups
from bunco.consumers import ScreenConsumer
from bunco.host.auth import session_is_host
from bunco.models import Night


class HostConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        if not session_is_host(self.scope.get("session")):
            return False
        self.night_id = self.scope["url_route"]["kwargs"]["night_id"]
        return Night.objects.filter(pk=self.night_id).exists()

    def initial_groups(self) -> list[str]:
        return [groups.host(self.night_id)]

    def snapshot(self, night, state) -> str:
        return broadcast.host_snapshot(night, state)
