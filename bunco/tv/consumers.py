"""The TV's websocket: read-only; every table's fragment and the room-wide parts."""

from bunco.live import groups, room_frames
from bunco.live.consumers import ScreenConsumer
from bunco.night.selectors import night_by_tv_token


class TvConsumer(ScreenConsumer):
    def resolve(self) -> bool:
        night = night_by_tv_token(self.scope["url_route"]["kwargs"]["token"])
        self.night_id = night.pk if night else 0
        return night is not None

    def initial_groups(self) -> list[str]:
        return [groups.tv(self.night_id)]

    def snapshot(self, night, state) -> str:
        return room_frames.tv_snapshot(night, state)
