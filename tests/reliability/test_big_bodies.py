"""A body bigger than any form of the app, sent to the real server over a real socket: refused
as it arrives (by the length it declares, or by what has come in when it declares none), the
refusal read by the client while it is still sending, and the server's memory and open files
growing by less than the limit's worth (a body sent whole to Twisted is kept whole first)."""

from __future__ import annotations

import json
import os
import select
import socket
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from bench.server import HOST, Server, bench_env, run_checked
from bunco import inputs

CHUNK = b"a" * (1024 * 1024)
#: What a client streams at most: three times the limit, never the end of the body.
SENT_AT_MOST = 3 * inputs.MAX_BODY


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bodies")
    env = bench_env(folder)
    (folder / "tmp").mkdir()
    env["TMPDIR"] = str(folder / "tmp")
    (folder / "static").symlink_to(settings.STATIC_ROOT, target_is_directory=True)
    run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    server = Server(folder / "server", env)
    server.start()
    yield server
    server.stop()


def kept(pid: int) -> int:
    """The bytes the server holds: its memory and every regular file it has open (a
    temporary file is open and unlinked)."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(next(line.split()[1] for line in status.splitlines()
                   if line.startswith("VmRSS:"))) * 1024
    files = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            stat = os.stat(fd)
        except OSError:
            continue
        if stat.st_mode & 0o170000 == 0o100000:
            files += stat.st_size
    return rss + files


class Peak(threading.Thread):
    """The most the server holds, looked at every few milliseconds while a body is sent."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.most, self.done = pid, kept(pid), threading.Event()

    def run(self):
        while not self.done.wait(0.01):
            self.most = max(self.most, kept(self.pid))


def send_big(server: Server, head: str, framed) -> tuple[bytes, int, int]:
    """The server's answer to a POST of ``head``'s headers and a body streamed after them
    (each MB framed by ``framed``) until the answer can be read; with how many body bytes
    were sent before it and the most the server held beyond what it held before."""
    before = kept(server.proc.pid)
    peak = Peak(server.proc.pid)
    peak.start()
    sent = 0
    with socket.create_connection((HOST, server.port), timeout=20) as sock:
        sock.sendall(f"POST /t/nobody/roll/ HTTP/1.1\r\nHost: {HOST}\r\n{head}\r\n".encode())
        try:
            while sent < SENT_AT_MOST and not select.select([sock], [], [], 0)[0]:
                sock.sendall(framed(CHUNK))
                sent += len(CHUNK)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        deadline = time.monotonic() + 20
        while b"}" not in answer and time.monotonic() < deadline:
            part = sock.recv(65536)
            if not part:
                break
            answer += part
    peak.done.set()
    peak.join()
    return answer, sent, peak.most - before


def refusal(answer: bytes) -> dict:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"application/json" in head  # a tap's path: the phone's outbox reads JSON
    return json.loads(body)


def test_a_body_declaring_a_terabyte_is_refused_at_once(server):
    answer, sent, grew = send_big(server, "Content-Length: 1000000000000\r\n", lambda c: c)
    assert "at most 21 MB" in refusal(answer)["error"]
    assert sent < inputs.MAX_BODY  # answered before the client had sent the limit's worth
    assert grew < inputs.MAX_BODY


def test_a_body_with_no_length_is_cut_off_once_past_the_limit(server):
    answer, sent, grew = send_big(server, "Transfer-Encoding: chunked\r\n",
                                  lambda c: b"%x\r\n%s\r\n" % (len(c), c))
    assert "at most 21 MB" in refusal(answer)["error"]
    assert sent < SENT_AT_MOST  # the answer came while the body was still coming
    assert grew < inputs.MAX_BODY


def test_the_server_serves_on_after_refusing_big_bodies(server):
    send_big(server, "Content-Length: 1000000000000\r\n", lambda c: c)
    with httpx.Client(trust_env=False, timeout=5) as client:
        assert client.get(f"{server.base}/healthz").status_code == 200
    assert not [line for line in server.problems() if "Traceback" in line]
