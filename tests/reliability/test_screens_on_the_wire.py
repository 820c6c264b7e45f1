"""Screens on the wire, against the real server in its own process, through a bare socket:
a screen that stops reading costs a bounded amount of memory (bunco/runtime/backlog.py; stock
Twisted would keep every frame for it), and a big frame goes compressed to a screen that
offers permessage-deflate (bunco/runtime/wire.py)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import sys
import time
import uuid
import zlib
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from bench.management.commands.livebench import SETUP_SCRIPT, Server, bench_env, run_checked
from tests.waiting import wait_until
from tests.wsframes import masked

TABLES = 150  # a TV snapshot of ~240 KB


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class RawScreen:
    """A websocket client on a bare socket with a tiny receive buffer, so that when it stops
    reading, the server's side fills at once."""

    def __init__(self, base: str, path: str, extensions: str = "") -> None:
        host, port = base.split("//")[1].split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             f"Sec-WebSocket-Version: 13\r\nOrigin: {base}\r\n"
             + (f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else "")
             + "\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.head = head.decode("latin-1").lower()
        self.wire: list[tuple[int, int]] = []  # (first byte, bytes on the wire) per frame

    def send(self, text: str) -> None:
        self.sock.sendall(masked(text.encode()))

    def _need(self, n: int) -> None:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk

    def frame(self) -> tuple[int, bytes]:
        """The next whole frame: (opcode, payload); a frame the server sent mangled or cut
        fails here."""
        self._need(2)
        first, second = self.buffer[0], self.buffer[1]
        assert first & 0x80, "a fragmented frame"
        length, at = second & 0x7F, 2
        if length == 126:
            self._need(4)
            length, at = struct.unpack("!H", self.buffer[2:4])[0], 4
        elif length == 127:
            self._need(10)
            length, at = struct.unpack("!Q", self.buffer[2:10])[0], 10
        self._need(at + length)
        payload, self.buffer = self.buffer[at:at + length], self.buffer[at + length:]
        self.wire.append((first, at + length))
        if first & 0x40:  # compressed on its own (the server keeps no context)
            payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
        return first & 0x0F, payload

    def text(self) -> str:
        while True:
            opcode, payload = self.frame()
            if opcode == 1:
                return payload.decode("utf-8")  # whole UTF-8: bytes of frames never mixed


@pytest.fixture
def big_room(tmp_path):
    env = bench_env(tmp_path)
    # The pages' files as the start command leaves them (collected once per run).
    (tmp_path / "static").symlink_to(settings.STATIC_ROOT, target_is_directory=True)
    env["BUNCO_SCREEN_BEHIND_CLOSE"] = "4"
    run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    night = json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, str(TABLES)], env,
                                   "night setup").strip().splitlines()[-1])
    server = Server(tmp_path / "server", env)
    server.start()
    yield server, night
    server.stop()


def tap(server: Server, token: str, number: int, pos: int) -> int:
    """A roll at a table; the night's seq it made."""
    with httpx.Client(trust_env=False, timeout=10) as http:
        http.get(f"{server.base}/t/{token}/")
        answer = http.post(f"{server.base}/t/{token}/roll/",
                           data={"key": str(uuid.uuid4()), "set": 1, "round": 1,
                                 "table": number, "pos": pos, "quick": "miss"},
                           headers={"X-CSRFToken": http.cookies.get("csrftoken") or ""})
        assert answer.status_code == 200, answer.text
        return answer.json()["seq"]


def stall(server: Server, screen: RawScreen, seconds: float) -> tuple[int, int]:
    """The screen asks for a snapshot four times a second for ``seconds`` and reads nothing;
    what it asked for (bytes) and how much the server grew meanwhile."""
    size = len(screen.text())  # its first snapshot: every one is about this size
    before = rss(server.proc.pid)
    asked = 0
    for _ in range(int(seconds * 4)):
        screen.send('{"type": "sync"}')
        asked += size
        time.sleep(0.25)  # its pace (within its share of messages): the input
    return asked, rss(server.proc.pid) - before


@pytest.mark.tuned("backlog")
def test_a_screen_that_stops_reading_is_bounded_and_catches_up_in_order(big_room):
    server, night = big_room
    screen = RawScreen(server.base, f"/ws/tv/{night['tv']}/")
    asked, grew = stall(server, screen, 4.0)
    seq = tap(server, night["tables"]["7"], 7, 0)  # made while the TV reads nothing
    # It reads again: every frame whole and in order, then the roll it missed.
    shown = f'id="table-7" class="table-live phase-playing" data-seq="{seq}"'
    last = ""
    deadline = time.monotonic() + 10
    while shown not in last:
        assert time.monotonic() < deadline, "the screen never got the roll it missed"
        last = screen.text()
    print(f"\nslow screen: asked for {asked / 1e6:.1f} MB of snapshots without reading; "
          f"the server grew {grew / 1e6:.1f} MB")
    assert asked > 3_000_000
    assert grew < asked / 3, f"the server kept {grew} bytes for a screen that read nothing"


@pytest.mark.tuned("backlog")
def test_a_screen_that_never_reads_again_is_disconnected(big_room):
    server, night = big_room
    screen = RawScreen(server.base, f"/ws/tv/{night['tv']}/")
    stall(server, screen, 4.0)

    def dropped() -> bool:  # still saying something, at its pace, and reading nothing
        try:
            screen.send('{"type": "ping"}')
        except OSError:
            return True
        return False

    # BUNCO_SCREEN_BEHIND_CLOSE=4 s after it fell behind
    wait_until(dropped, "the server dropping the screen that reads nothing", every=0.25)
    screen.sock.settimeout(3)
    with pytest.raises(ConnectionError):  # reset or closed; a timeout means still kept open
        while True:
            screen.frame()
    assert server.alive()


@pytest.mark.tuned("deflate")
def test_a_big_frame_goes_compressed_and_a_small_one_as_it_is(big_room):
    server, night = big_room
    screen = RawScreen(server.base, f"/ws/tv/{night['tv']}/",
                       "permessage-deflate; client_max_window_bits")
    assert "sec-websocket-extensions: permessage-deflate" in screen.head
    snapshot = screen.text()
    (first, on_wire), = screen.wire
    assert first & 0x40 and 'id="table-150"' in snapshot
    seq = tap(server, night["tables"]["3"], 3, 0)
    while f'data-seq="{seq}"' not in (pushed := screen.text()):
        pass
    print(f"\nTV snapshot at {TABLES} tables: {len(snapshot.encode()) / 1e3:.0f} KB of HTML, "
          f"{on_wire / 1e3:.0f} KB on the wire; a tap's push {len(pushed)} bytes")
    assert on_wire < len(snapshot.encode()) / 5
    assert not screen.wire[-1][0] & 0x40  # a tap's table: small, sent as it is
    plain = RawScreen(server.base, f"/ws/tv/{night['tv']}/")  # offers nothing: plain frames
    assert plain.text() and not plain.wire[0][0] & 0x40


def test_a_screens_messages_are_read_however_they_arrive(big_room):
    """Whole in one read (read in one step), cut across two reads, in two fragments, two in
    one read: each is answered, in order; text that is not UTF-8 ends the connection, as
    autobahn ends it."""
    server, night = big_room
    screen = RawScreen(server.base, f"/ws/table/{night['tables']['2']}/")
    assert "table-2" in screen.text()  # its snapshot
    ping = b'{"type":"ping"}'

    def answered(times=1):
        for _ in range(times):
            assert json.loads(screen.text()) == {"type": "pong"}

    screen.sock.sendall(masked(ping))
    answered()
    frame = masked(ping)
    screen.sock.sendall(frame[:3])
    # The rest a moment later, to be read apart (the input: a machine too slow to read the
    # first part alone makes this the whole message's case, never a failure).
    time.sleep(0.2)
    screen.sock.sendall(frame[3:])
    answered()
    screen.sock.sendall(masked(ping[:5], first=0x01) + masked(ping[5:], first=0x80))
    answered()
    screen.sock.sendall(masked(ping) + masked(b'{"type":"sync"}'))
    answered()
    assert "table-2" in screen.text()  # a sync saying no seq: a snapshot, after the pong
    screen.sock.sendall(masked(b'{"type":"\xff"}'))
    with pytest.raises(ConnectionError):  # dropped, as autobahn drops it (no answer)
        screen.frame()
