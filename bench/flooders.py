"""The floods of ``manage.py floodbench``, each in a process of its own (spawned: nothing of
Django is imported here, so the child starts without the app's settings)."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import httpx


def flood(base: str, token: str, connections: int, stop, counts) -> None:
    """A script on one link: each connection posts again the moment it is answered."""
    statuses: Counter = Counter()
    lock = threading.Lock()

    def hammer() -> None:
        with httpx.Client(base_url=base, trust_env=False, timeout=30) as http:
            http.get(f"/t/{token}/")
            csrf = http.cookies.get("csrftoken") or ""
            while not stop.is_set():
                try:
                    code = http.post(f"/t/{token}/roll/", headers={"X-CSRFToken": csrf}, data={
                        "key": str(uuid.uuid4()), "set": 1, "round": 1, "table": 5,
                        "pos": 0, "quick": "miss"}).status_code
                except httpx.HTTPError:
                    code = 0
                with lock:
                    statuses[code] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=hammer) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts.update({str(k): v for k, v in statuses.items()})
    counts["seconds"] = time.monotonic() - started


def reconnect_flood(base: str, token: str, connections: int, stop, counts) -> None:
    """A script on one link's websocket: each of ``connections`` opens it again the moment
    it is refused (a page from another origin is refused at the handshake, as a link cut off
    for flooding is)."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus, WebSocketException

    url = base.replace("http://", "ws://") + f"/ws/table/{token}/"
    statuses: Counter = Counter()

    async def hammer() -> None:
        while not stop.is_set():
            try:
                async with connect(url, origin="http://elsewhere.example", open_timeout=30):
                    statuses["opened"] += 1
            except InvalidStatus as exc:
                statuses[exc.response.status_code] += 1
            except (OSError, WebSocketException, TimeoutError):
                statuses[0] += 1

    async def run() -> None:
        await asyncio.gather(*(hammer() for _ in range(connections)))

    started = time.monotonic()
    asyncio.run(run())
    counts.update({str(k): v for k, v in statuses.items()})
    counts["seconds"] = time.monotonic() - started
