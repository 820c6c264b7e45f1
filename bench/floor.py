"""The floor of ``manage.py loadtest``: the least a server could do for the same room.

A minimal relay written with the ``websockets`` library, in its own process, one asyncio loop:
it accepts the same websocket clients on the same paths (each gets a one-line snapshot, a
phone its table's fragment too), takes the same tap over a table's own socket or a player's
phone's (answered with an ``ack`` frame of the app's shape: its key, the seq, where the table's
next tap goes) or as an HTTP form post to ``/t/<link>/`` or ``/p/<player>/`` on a plain asyncio
HTTP server (no parsing beyond the request line, headers and body length; no database, no
templates, no checks), numbers it and broadcasts one frame of the app's size to the same
screens the app pushes a tap to: the table's device and phones, every TV and the host. Each
table frame opens as the app's fragment does (its position, and the pad's buttons the app's
round showed: ``room["pad"]``), so the load test's phones tap the same mix at the floor. The
host's bell and its take-back go to every screen, each kind getting frames of the sizes the app
sent it: the one that brought the banner, then what followed it for the same event. A form
post's answer carries a fragment of the app's size too. Like the app, it says
``{"type": "here"}`` to every screen once every ``heard_every`` seconds (spread over five
ticks).

    python -m bench.floor CONFIG.json

CONFIG: {"host", "ws_port", "http_port", "origin", "room": {"tables": {n: token},
"players": [{"token", "table"}], "tv", "night", "pad": {"quick", "keeps"}}, "sizes": {"tap",
"answer", "device", "phone", "tv", "host", and each kind's "_rest"}, "heard_every"}. It prints
"ready" when both ports listen.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

HERE = '{"type": "here"}'


class Relay:
    def __init__(self, config: dict):
        room, self.sizes = config["room"], config["sizes"]
        self.table_of_link = {token: int(n) for n, token in room["tables"].items()}
        self.table_of_player = {p["token"]: p["table"] for p in room["players"]}
        self.tv_token, self.night = room["tv"], room["night"]
        self.tables: dict[int, set[ServerConnection]] = defaultdict(set)
        self.kinds: dict[str, set[ServerConnection]] = defaultdict(set)
        self.watchers: set[ServerConnection] = set()  # TVs and the host
        self.seq = 0
        self.positions: dict[int, int] = defaultdict(int)  # each table's next tap
        self.pad = room.get("pad") or {"quick": "miss", "keeps": ""}
        self.bell = False  # rung: the tables finish their turn, as the app's say

    def fragment(self, number: int) -> str:
        """The opening of table ``number``'s fragment, as the app's (what a phone reads)."""
        keeps = "" if self.bell else f' data-keeps="{self.pad["keeps"]}"'
        return (f'<section id="table-{number}" class="table-live phase-'
                f'{"finishing" if self.bell else "playing"}" data-seq="{self.seq}" '
                f'data-set="1" data-round="1" data-pos="{self.positions[number]}" '
                f'data-can-roll="1" data-quick="{self.pad["quick"]}"{keeps}>')

    @staticmethod
    def padded(opening: str, size: int) -> str:
        return opening + "x" * max(0, size - len(opening) - 10) + "</section>"

    async def screen(self, ws: ServerConnection) -> None:
        parts = ws.request.path.strip("/").split("/")  # ws, kind, token
        kind, token = (parts[1], parts[2]) if len(parts) == 3 else ("", "")
        number = self.table_of_link.get(token) if kind == "table" else (
            self.table_of_player.get(token) if kind == "player" else None)
        if kind == "table" and number is not None:
            where, name = self.tables[number], "device"
        elif kind == "player" and number is not None:
            where, name = self.tables[number], "phone"
        elif kind == "tv" and token == self.tv_token:
            where, name = self.watchers, "tv"
        elif kind == "host" and token == str(self.night):
            where, name = self.watchers, "host"
        else:
            await ws.close(4404)
            return
        where.add(ws)
        self.kinds[name].add(ws)
        try:
            table = self.fragment(number) + "</section>" if number is not None else ""
            await ws.send(f'<header id="banner" data-seq="{self.seq}"></header>{table}')
            with contextlib.suppress(ConnectionClosed):
                async for message in ws:  # a sync is read and let be
                    if number is not None:
                        await self.socket_tap(ws, number, message)
        finally:
            where.discard(ws)
            self.kinds[name].discard(ws)

    async def heartbeat(self, every: float) -> None:
        tick = 0
        while True:
            await asyncio.sleep(every / 5)
            tick += 1
            screens = {ws for kind in self.kinds.values() for ws in kind}
            broadcast({ws for ws in screens if id(ws) // 16 % 5 == tick % 5}, HERE)

    def tap(self, number: int | None) -> dict:
        """A tap at table ``number``: numbered and broadcast; the decision."""
        if number is None:
            return {"ok": False, "error": "this link is not for tonight"}
        self.seq += 1
        self.positions[number] += 1
        frame = self.padded(self.fragment(number), self.sizes["tap"])
        broadcast(self.tables[number] | self.watchers, frame)
        return {"ok": True, "recorded": self.seq, "seq": self.seq,
                "at": {"set": 1, "round": 1, "table": number, "pos": self.positions[number]}}

    async def socket_tap(self, ws: ServerConnection, number: int, message) -> None:
        """A message on a phone's socket (a table's or a player's): a tap at its table is
        answered with its ack (no table in it: the push brings it, as the app's)."""
        try:
            content = json.loads(message)
        except ValueError:
            return
        if not isinstance(content, dict) or content.get("type") != "tap":
            return
        fields = content.get("fields")
        key = fields.get("key") if isinstance(fields, dict) else None
        await ws.send(json.dumps({"type": "ack", "key": key, "status": 200,
                                  **self.tap(number)}))

    def room(self, bell: bool) -> None:
        self.seq += 1
        self.bell = bell
        rung = "1" if bell else ""
        opening = f'<header id="banner" data-seq="{self.seq}" data-bell-rung="{rung}">'
        for kind, screens in self.kinds.items():
            broadcast(screens, self.padded(opening, self.sizes.get(kind, 2000)))
        # Then what the app sends after the banner for the same event (its tables), if any:
        # a phone's, its own table's fragment (now finishing, or playing again).
        for kind, screens in self.kinds.items():
            size = self.sizes.get(f"{kind}_rest")
            if not size:
                continue
            if kind not in ("device", "phone"):
                broadcast(screens, self.padded(f'<section id="rest" data-seq="{self.seq}">',
                                               size))
                continue
            for number, at_table in self.tables.items():
                broadcast(at_table & screens, self.padded(self.fragment(number), size))

    async def http(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path = lines[0].split(" ")[:2]
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                if length:
                    await reader.readexactly(length)
                status, body, kind = "200 OK", b"ok", "text/plain"
                parts = path.strip("/").split("/")
                if method == "POST" and len(parts) == 3 and parts[0] in ("t", "p"):
                    number = (self.table_of_link if parts[0] == "t"
                              else self.table_of_player).get(parts[1])
                    answer = {**self.tap(number),
                              "html": self.padded("<section>", self.sizes["answer"])}
                    body, kind = json.dumps(answer).encode(), "application/json"
                elif method == "POST" and parts[-1] in ("bell", "void"):
                    self.room(bell=parts[-1] == "bell")
                    status, body = "302 Found", b""
                writer.write(f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: "
                             f"{len(body)}\r\n\r\n".encode() + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()


async def run(config: dict) -> None:
    relay = Relay(config)
    http = await asyncio.start_server(relay.http, config["host"], config["http_port"],
                                      backlog=1024)
    async with serve(relay.screen, config["host"], config["ws_port"], compression=None,
                     ping_interval=None, origins=[config["origin"]], backlog=1024), http:
        print("ready", flush=True)
        await relay.heartbeat(config.get("heard_every", 25))


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        asyncio.run(run(json.load(f)))
