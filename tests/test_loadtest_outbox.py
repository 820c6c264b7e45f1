"""The load test's table outbox (``bench/outbox.py``) against a fake server, the phones that tap
and the floor relay's taps: every tap counts exactly once, as the page's outbox counts it."""

import json

from tests.waiting import until


class FakeTable:
    """One table as the server keeps it, before every roll counted once: its position and the
    keys in its log. A tap whose key is in the log gets its first answer ("Already recorded"
    with its seq); a new key for a position already passed is swallowed as "duplicate"; a
    position ahead of the table is refused. ``quirks``, one per request in turn, change an
    answer: "busy" (429, nothing done), "refuse" (a game refusal), "500 after commit" and
    "timeout after commit" (the tap is written but its answer lost); with an asyncio.Event, as
    ``(event, quirk)``, the request waits for it first. Taps come as form posts (the object
    is an httpx transport's handler) or over the table's socket (``socket``, a websockets
    server's handler), each written down in ``over``; over the socket, "no ack after commit"
    and "close after commit" write the tap and answer nothing (closing the socket)."""

    def __init__(self, *quirks):
        self.pos = self.seq = 0
        self.log: dict[str, int] = {}
        self.sent: list[tuple[str, int]] = []  # (key, pos) of every request, in order
        self.over: list[str] = []  # how each came: "http" or "socket"
        self.syncs = 0  # syncs the table's screen sent on its socket
        self.quirks = list(quirks)

    def html(self) -> str:
        return (f'<section id="table-2" class="table-live" data-pos="{self.pos}" '
                f'data-seq="{self.seq}">')

    def answer(self, key: str, pos: int, quirk) -> tuple[int, dict]:
        status, body = self.decide(key, pos, quirk)
        return status, {**body, "at": {"set": 1, "round": 1, "table": 2, "pos": self.pos}}

    def decide(self, key: str, pos: int, quirk) -> tuple[int, dict]:
        body = {"html": self.html(), "seq": self.seq}
        if key in self.log:
            return 200, {"ok": True, "recorded": self.log[key], "message": "Already recorded",
                         **body}
        if quirk == "refuse":
            return 409, {"ok": False, "refused": True, "error": "that table has finished", **body}
        if pos < self.pos:
            return 200, {"ok": True, "duplicate": True,
                         "message": "Already recorded: the table has moved on since that tap",
                         **body}
        if pos > self.pos:
            return 409, {"ok": False, "error": "this screen is ahead of the table; reload the "
                                               "page", **body}
        self.seq += 1
        self.pos += 1
        self.log[key] = self.seq
        return 200, {"ok": True, "recorded": self.seq, "seq": self.seq, "html": self.html()}

    async def __call__(self, request):
        from urllib.parse import parse_qsl

        import httpx

        fields = dict(parse_qsl(request.content.decode()))
        quirk = await self.received(fields, "http")
        if quirk == "busy":
            return httpx.Response(429, json={"ok": False, "retry": True, "error": "busy"})
        status, body = self.answer(fields["key"], int(fields["pos"]), quirk)
        if quirk == "500 after commit":
            return httpx.Response(500, text="<h1>Server Error (500)</h1>")
        if quirk == "timeout after commit":
            raise httpx.ReadTimeout("no answer", request=request)
        return httpx.Response(status, json=body)

    async def received(self, fields: dict, over: str):
        """A tap arrived: written down; its quirk, once any gate it waits for is open."""
        self.sent.append((fields["key"], int(fields["pos"])))
        self.over.append(over)
        quirk = self.quirks.pop(0) if self.quirks else None
        if isinstance(quirk, tuple):
            gate, quirk = quirk
            await gate.wait()
        return quirk

    async def socket(self, ws) -> None:
        """The table's own screen's socket: a tap is answered with an ack frame, as the app's
        (the decision, no table: the push brings it)."""
        async for message in ws:
            content = json.loads(message)
            if content.get("type") == "sync":
                self.syncs += 1
            if content.get("type") != "tap" or content.get("action") != "roll":
                continue
            fields = content["fields"]
            quirk = await self.received(fields, "socket")
            if quirk == "busy":
                await ws.send(json.dumps({"type": "ack", "key": fields["key"], "status": 429,
                                          "ok": False, "retry": True, "error": "slow down"}))
                continue
            status, body = self.answer(fields["key"], int(fields["pos"]), quirk)
            if quirk == "close after commit":
                await ws.close()
                return
            if quirk != "no ack after commit":
                body.pop("html", None)
                await ws.send(json.dumps({"type": "ack", "key": fields["key"],
                                          "status": status, **body}))


def _outbox(server: FakeTable, monkeypatch, device=None):
    """A table's outbox (table 2) posting to ``server`` (over ``device`` while it is open),
    its retries made quick."""
    import httpx

    from bench import outbox

    monkeypatch.setattr(outbox, "RETRY_FIRST", 0.01)
    monkeypatch.setattr(outbox, "NETWORK_RETRY", 0.01)
    tally = outbox.Tally()
    http = httpx.AsyncClient(base_url="http://fake", transport=httpx.MockTransport(server))
    return outbox.Table(2, "token", 0, tally, http, "x", device), tally


def test_taps_made_while_one_is_kept_name_the_positions_after_it(monkeypatch):
    import asyncio
    import time

    gate = asyncio.Event()
    server = FakeTable((gate, "busy"), "busy")  # the first tap waits, then is "busy" twice

    async def main():
        table, tally = _outbox(server, monkeypatch)
        first = table.make(time.time())
        await until(lambda: len(server.sent) == 1)  # on its way, not answered
        behind = [table.make(time.time()), table.make(time.time())]
        gate.set()
        await table.done()
        return [first, *behind], tally

    intents, tally = asyncio.run(main())
    assert [i.pos for i in intents] == [0, 1, 2]
    assert len({i.key for i in intents}) == 3
    # The first sent three times with its key and position, then each behind it once.
    assert server.sent == [(intents[0].key, 0)] * 3 + [(intents[1].key, 1), (intents[2].key, 2)]
    assert [i[3] for i in tally.intents] == ["recorded"] * 3
    assert set(server.log) == {i.key for i in intents} and server.pos == 3
    assert len(tally.busy_answers) == 2 and tally.already == 0


def test_a_refused_tap_moves_the_taps_behind_it_down_one(monkeypatch):
    import asyncio
    import time

    gate = asyncio.Event()
    server = FakeTable("busy", "busy", None, (gate, "refuse"))  # the second waits, is refused

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time())]
        await table.done()  # recorded at 0 after two "busy" answers
        intents.append(table.make(time.time()))  # names 1
        await until(lambda: len(server.sent) == 4)  # on its way, not answered
        intents += [table.make(time.time()), table.make(time.time())]  # 2 and 3 ...
        gate.set()
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    assert [pos for _, pos in server.sent] == [0, 0, 0, 1, 1, 2]  # ... sent as 1 and 2
    assert [i[3] for i in tally.intents] == ["recorded", "refused", "recorded", "recorded"]
    assert server.pos == 3 and set(server.log) == {intents[0].key, *(i.key for i in intents[2:])}
    assert dict(tally.refused) == {"that table has finished": 1}


def test_a_tap_given_up_before_it_was_sent_moves_the_taps_behind_it_down_one(monkeypatch):
    import asyncio
    import time

    from bench import outbox

    monkeypatch.setattr(outbox, "GIVE_UP_SECONDS", 5.0)
    server = FakeTable()

    async def main():
        table, tally = _outbox(server, monkeypatch)
        late = table.make(time.time() - 10)  # its slot long gone: given up, never sent
        behind = table.make(time.time())  # made while it waited: names 1
        await table.done()
        return late, behind, tally

    late, behind, tally = asyncio.run(main())
    assert server.sent == [(behind.key, 0)]
    assert [i[3] for i in tally.intents] == ["gave up", "recorded"]


def test_a_tap_whose_answer_is_lost_is_sent_again_and_the_next_is_not_swallowed(monkeypatch):
    import asyncio
    import time

    from bench.analysis import counted

    # The first tap is written but answered 500; the second written but its answer never
    # comes. A client that gives up on a 500 (or names the position the table last showed
    # while a tap is unanswered) sends the next tap for a passed position: "duplicate".
    server = FakeTable("500 after commit", None, "timeout after commit")

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time()) for _ in range(3)]
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    keys = [i.key for i in intents]
    assert server.sent == [(keys[0], 0), (keys[0], 0), (keys[1], 1), (keys[1], 1), (keys[2], 2)]
    assert [i[3] for i in tally.intents] == ["already", "already", "recorded"]
    assert tally.resent_5xx == 1 and dict(tally.errors) == {"ReadTimeout": 1}
    assert [seq for _, seq, _, _ in tally.accepted] == [1, 2, 3]  # each measured once
    assert counted(tally.intents, set(server.log)) == {
        "intents": 3, "recorded": 3, "already_answers": 2, "merged_taps": 0,
        "refused_taps": 0, "refused_by_race": 0, "lost_taps": 0, "lost_taps_first": []}


def test_a_tap_swallowed_as_already_recorded_is_a_merged_tap(monkeypatch):
    import asyncio
    import time

    from bench.analysis import counted

    gate = asyncio.Event()
    server = FakeTable((gate, None))

    async def main():
        table, tally = _outbox(server, monkeypatch)
        intents = [table.make(time.time()) for _ in range(2)]  # 0 and 1
        await until(lambda: server.sent)  # the first on its way, not answered
        server.answer("another-phone", 0, None)  # another phone's tap takes position 0
        gate.set()
        await table.done()
        return intents, tally

    intents, tally = asyncio.run(main())
    # Position 0 had passed: the first is answered "duplicate" and never written; the second
    # (position 1) is recorded.
    assert [i[3] for i in tally.intents] == ["duplicate", "recorded"]
    got = counted(tally.intents, set(server.log))
    assert (got["merged_taps"], got["lost_taps"], got["recorded"]) == (1, 1, 1)
    assert got["lost_taps_first"] == [
        "table 2 pos 0: duplicate (Already recorded: the table has moved on since that tap)"]


def test_a_table_taps_over_its_open_socket_as_the_page_does_and_posts_once_it_closes(
        monkeypatch):
    """As the page's outbox: while the table's own socket is open every tap goes over it (not
    one form post), answered by an ack with its key, and goes again with the same key after a
    "busy" ack or no ack at all; the socket closing on an unanswered tap sends that tap and the
    next as form posts. An "already recorded" ack (no table in it) makes the screen sync.
    Every tap counts once."""
    import asyncio
    import time

    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    from bench import outbox
    from bench.analysis import counted
    from bench.loadclient import listen

    monkeypatch.setattr(outbox, "ACK_SECONDS", 0.3)
    server = FakeTable(None, "busy", None, "no ack after commit", None, "close after commit")

    async def main():
        async with serve(server.socket, "127.0.0.1", 0) as relay:
            port = relay.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}/ws/table/token/") as ws:
                device = outbox.Device(ws, {"table-2": 0})
                heard = asyncio.create_task(listen(ws, [], [], [], [0.0], device.shown, device))
                table, tally = _outbox(server, monkeypatch, device)
                intents = [table.make(time.time()) for _ in range(5)]
                await table.done()
                heard.cancel()
        return intents, tally

    intents, tally = asyncio.run(main())
    keys = [i.key for i in intents]
    assert server.over == ["socket"] * 6 + ["http"] * 2
    assert server.sent == [(keys[0], 0), (keys[1], 1), (keys[1], 1), (keys[2], 2), (keys[2], 2),
                           (keys[3], 3), (keys[3], 3), (keys[4], 4)]
    assert [i[3] for i in tally.intents] == ["recorded", "recorded", "already", "already",
                                             "recorded"]
    assert dict(tally.sent_over) == {"socket": 6, "http": 2}
    assert dict(tally.errors) == {"no ack": 1, "socket closed": 1}
    assert len(tally.busy_answers) == 1 and server.syncs == 1
    assert [seq for _, seq, _, _ in tally.accepted] == [1, 2, 3, 4, 5]
    got = counted(tally.intents, set(server.log))
    assert (got["recorded"], got["merged_taps"], got["lost_taps"]) == (5, 0, 0)


def test_each_tables_own_screen_and_its_players_phones_tap_and_read_their_table():
    from bench.loadclient import Plan, ScreenSpec, devices_of, scorekeeping
    from bench.outbox import Table, Tally

    screens = [ScreenSpec("/ws/tv/v/", "tv"), ScreenSpec("/ws/table/a/", "device", 2),
               ScreenSpec("/ws/player/p/", "phone", 2), ScreenSpec("/ws/table/b/", "device", 3)]
    snapshot = (b'<header id="banner" data-seq="4"></header><section id="table-2" '
                b'class="table-live phase-playing" data-seq="4" data-pos="4" '
                b'data-can-roll="1" data-quick="miss hit1">')
    got = [("tv", 0, {}, 0, b""), ("device 2", 0, {}, 0, snapshot),
           ("phone 2", 0, {}, 0, snapshot), None]
    shown = [{}, {"table-2": 4}, {}, {}]

    def plan(tap_over):
        return Plan(ws_bases=[], http_bases=[], screens=screens, tables={2: "a", 3: "b"},
                    slots=[], tap_over=tap_over)

    for way in ("socket", "http"):  # over "http" too the screens show the table
        devices = devices_of(plan(way), got, shown)
        assert sorted(devices) == [1, 2] and devices[1].ws == "device 2"
        assert devices[1].shown is shown[1]
        # Each posts to its own page's address, and shows the table as its snapshot drew it.
        assert (devices[1].posts, devices[2].posts) == ("/t/a/", "/p/p/")
        assert devices[2].view["data-pos"] == "4" and devices[2].view["data-quick"] == "miss hit1"
    tables = {n: Table(n, token, 0, Tally(), None) for n, token in {2: "a", 3: "b"}.items()}
    keepers = scorekeeping(plan("socket"), devices, tables)
    assert keepers[2].by is devices[1] and keepers[2].phones == [devices[2]]
    # Table 3's screen never connected: it posts, as the page does while its socket is closed.
    assert keepers[3].by is None and tables[3].device is None


def test_the_floor_takes_a_tap_over_a_tables_or_a_players_socket_and_answers_with_an_ack():
    """As the app: a tap over the table's own socket or a player's phone's is answered with
    an ack, and its table's frame opens as the app's fragment (where the table is, the pad's
    buttons), so the load test's phones tap the same mix at the floor."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    from bench.floor import Relay
    from bench.rolls import table_view

    relay = Relay({"room": {"tables": {"2": "t2"}, "players": [{"token": "p", "table": 2}],
                            "tv": "v", "night": 1, "pad": {"quick": "miss hit1", "keeps": "hit1"}},
                   "sizes": {"tap": 300, "answer": 300}})

    def tap(key, pos):
        return json.dumps({"type": "tap", "action": "roll", "fields": {
            "quick": "hit1", "key": key, "set": "1", "round": "1", "table": "2", "pos": pos}})

    async def main():
        async with serve(relay.screen, "127.0.0.1", 0) as server:
            base = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            async with connect(f"{base}/ws/table/t2/") as device, \
                    connect(f"{base}/ws/player/p/") as phone, connect(f"{base}/ws/tv/v/") as tv:
                snapshot = await phone.recv()
                await device.recv()
                await tv.recv()  # the snapshots
                await device.send(json.dumps({"type": "sync", "shows": {}, "tables": []}))
                await device.send(tap("k1", "0"))
                pushed, ack = await device.recv(), json.loads(await device.recv())
                assert await tv.recv() == pushed and await phone.recv() == pushed
                await phone.send(tap("k2", "1"))
                await phone.recv()  # its push
                return snapshot, pushed, ack, json.loads(await phone.recv())

    snapshot, pushed, ack, phones = asyncio.run(main())
    assert table_view(snapshot.encode(), 2)["data-pos"] == "0"
    view = table_view(pushed.encode(), 2)
    assert (view["data-seq"], view["data-pos"], view["data-can-roll"]) == ("1", "1", "1")
    assert (view["data-quick"], view["data-keeps"]) == ("miss hit1", "hit1")
    assert ack == {"type": "ack", "key": "k1", "status": 200, "ok": True, "recorded": 1,
                   "seq": 1, "at": {"set": 1, "round": 1, "table": 2, "pos": 1}}
    assert phones["key"] == "k2" and phones["at"]["pos"] == 2
