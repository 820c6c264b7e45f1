"""The host's websocket: every table's fragment, the host's room-wide display, and the calls
of tables for the host, which the host answers here."""

from channels.db import database_sync_to_async

from bunco.host.auth import session_is_host
from bunco.laptop import roomcheck
from bunco.live import groups, room_frames, screens
from bunco.live.consumers import ScreenConsumer
from bunco.models import Night
from bunco.night import services
from bunco.night.selectors import night_by_id

#: The night id of the dashboard's socket: no night, only the room check.
DASHBOARD = 0


class HostConsumer(ScreenConsumer):
    async def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "answer":
            await self.on_answer(content)
        else:
            await super().receive_json(content, **kwargs)

    def resolve(self) -> bool:
        if not session_is_host(self.scope.get("session")):
            return False
        self.night_id = self.scope["url_route"]["kwargs"]["night_id"]
        return self.night_id == DASHBOARD or Night.objects.filter(pk=self.night_id).exists()

    def initial_groups(self) -> list[str]:
        if self.night_id == DASHBOARD:
            return [roomcheck.GROUP]
        return [groups.host(self.night_id), roomcheck.GROUP]

    def render_snapshot(self) -> str:
        if self.night_id == DASHBOARD:
            return roomcheck.card_html()
        return super().render_snapshot()

    def snapshot(self, night, state) -> str:
        return (room_frames.host_snapshot(night, state) + screens.host_calls_html(night.pk)
                + roomcheck.card_html() + roomcheck.weak_html(night.pk))

    def calls_behind(self, shows: dict, state=None) -> bool | None:
        seq, known = shows.get("host-calls"), screens.calls_seq(self.night_id,
                                                               cached=state is not None)
        return None if known is None else not isinstance(seq, int) or seq < known

    async def on_answer(self, content: dict) -> None:
        """"On my way" or "Dismiss" on a table's call: the push brings every host page the
        new list; a refusal is answered to this page only."""
        call, answer = content.get("call"), content.get("answer")
        if isinstance(call, str) and call.isascii() and call.isdigit() and len(call) <= 12:
            call = int(call)
        if not isinstance(call, int) or isinstance(call, bool) or not isinstance(answer, str):
            await self.send_json({"type": "error", "message": "that answer did not make sense"})
            return
        error = await database_sync_to_async(self.run_answer)(call, answer)
        if error:
            await self.send_json({"type": "error", "message": error})

    def run_answer(self, call: int, answer: str) -> str | None:
        night = night_by_id(self.night_id)
        if night is None:
            return "this night is gone"
        try:
            services.host_call_answer(night=night, call_id=call, answer=answer)
        except services.CommandRefused as exc:
            return str(exc)
        return None
