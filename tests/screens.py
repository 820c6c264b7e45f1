"""A screen's websocket in a test, patient as a test on a busy machine must be: it waits for
what it expects (a connection, a frame) up to ``PATIENCE`` seconds, which only a failing test
ever uses up, and tells that nothing was sent by asking, not by a short wait."""

import json

from channels.testing import WebsocketCommunicator

#: How long a test waits for a frame it expects: an event's wait, never the test's pace.
PATIENCE = 20
PONG = json.dumps({"type": "pong"})


class Screen(WebsocketCommunicator):
    async def connect(self, timeout=PATIENCE):
        return await super().connect(timeout=timeout)

    async def receive_from(self, timeout=PATIENCE):
        return await super().receive_from(timeout=timeout)

    async def receive_json_from(self, timeout=PATIENCE):
        return await super().receive_json_from(timeout=timeout)

    async def told_nothing(self) -> bool:
        """Nothing was sent to this screen in answer to what it said before: a ping said now
        is answered first (a socket answers its messages in order)."""
        await self.send_json_to({"type": "ping"})
        said = await self.receive_json_from()
        assert said == {"type": "pong"}, said
        return True

    async def said_until(self, wanted) -> list[str]:
        """Every frame up to the first that ``wanted(frame)`` (with a shared layer, or the
        stock dispatch, pushes and a ping's answer come by different queues: a wait for the
        push itself, not for a pong, is the event then)."""
        got = [await self.receive_from()]
        while not wanted(got[-1]):
            got.append(await self.receive_from())
        return got

    async def said_so_far(self) -> list[str]:
        """Every frame sent to this screen before a ping said now is answered (in order)."""
        await self.send_json_to({"type": "ping"})
        got = []
        while (frame := await self.receive_from()) != PONG:
            got.append(frame)
        return got
