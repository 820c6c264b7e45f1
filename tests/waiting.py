"""Waiting for an event in a test: a condition looked at until it holds, up to ``PATIENCE``
seconds (which only a failing test uses up), never a pause of a length guessed to be enough."""

import asyncio
import time

from tests.screens import PATIENCE


async def until(happened, what: str = "", patience: float = PATIENCE) -> None:
    """Wait on the event loop for ``happened()`` to be true."""
    async with asyncio.timeout(patience):
        while not happened():
            await asyncio.sleep(0.01)


def wait_until(happened, what: str = "", patience: float = PATIENCE, every: float = 0.01):
    """Wait (in a thread of the test's own) for ``happened()`` to be true, looking ``every``
    seconds (where looking costs the server something); its value."""
    deadline = time.monotonic() + patience
    while not (value := happened()):
        assert time.monotonic() < deadline, f"never happened: {what or happened}"
        time.sleep(every)
    return value
