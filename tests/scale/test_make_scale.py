"""``make scale`` (deploy/scale.py up): two workers behind nginx over HTTPS, as docs/deploy.md
lays out a server. Through the proxy: the health check, a page, the host's sign-in with secure
cookies, a TV's websocket and a tap from a phone's https page, TV-code guesses with forged
addresses limited as one client; then Ctrl+C stops everything."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from bunco import limits
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "var" / "scale" / "logs"  # deploy/processes.py: each process's output


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class Stack:
    """deploy/scale.py up in a child process, its output collected line by line."""

    def __init__(self, env: dict, port: int, http_port: int) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "deploy/scale.py", "up", "--workers", "2", "--port", str(port),
             "--http-port", str(http_port)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, text: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.output:
            assert self.proc.poll() is None, f"deploy/scale.py up stopped:\n{self.output}"
            assert time.monotonic() < deadline, f"no {text!r} in:\n{self.output}"
            time.sleep(0.1)


def guesses_are_limited_as_one_client(public: str) -> None:
    """60 TV-code guesses through nginx, each with a new forged X-Forwarded-For and a new
    night cookie (nginx spreads them over both workers): limited as one client, for both
    workers together (their counts are shared in Redis), as 10 at once and then one every 2 s.
    Before, all 60 went through."""
    logs = [LOGS / f"worker-{n}.log" for n in (1, 2)]
    seen = [log.stat().st_size if log.exists() else 0 for log in logs]
    window = limits.TV_CODES.window
    if time.time() % window > window - 8:  # all 60 inside one of the counts' windows
        time.sleep(window - time.time() % window + 0.1)
    statuses = []
    with httpx.Client(verify=False, trust_env=False, timeout=10) as script:
        for i in range(60):
            script.cookies.clear()
            answer = script.get(f"{public}/tv/", params={"code": f"{7000 + i}"}, headers={
                "X-Forwarded-For": f"10.{i}.{i * 3 % 250}.{i + 1}",
                "Cookie": f"bunco_night={i}"})
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                assert "Too many tries" in answer.text
    assert statuses[:10] == [404] * 10, statuses  # "no night has that code"
    assert statuses[10:] == [429] * 50, statuses
    served = [log.read_bytes()[start:].count(b"code=70") for log, start in zip(logs, seen,
                                                                             strict=True)]
    assert all(served), f"nginx sent every guess to one worker: {served}"


def test_make_scale_serves_through_nginx_and_stops_on_ctrl_c(shared_stack):
    night = services.demo_night_create()
    services.round_start(night=night)
    claim = services.claim_for(live_state(night), 2)
    table = TableLink.objects.get(night=night, number=2).token
    port, http_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BUNCO_") and k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DATABASE_URL=shared_stack["DATABASE_URL"], REDIS_URL=shared_stack["REDIS_URL"])
    stack = Stack(env, port, http_port)
    try:
        stack.wait_for("Press Ctrl+C to stop.", 90)
        public = f"https://localhost:{port}"
        assert f"Phones: {public}/" in stack.output
        host_link = re.search(r"Host \(keep this link to yourself\): (\S+)", stack.output)[1]
        workers = [int(p) for p in re.findall(r"127\.0\.0\.1:(\d+)", stack.output)]
        assert len(workers) == 2

        with httpx.Client(verify=False, trust_env=False, timeout=10) as browser:
            health = browser.get(f"{public}/healthz")
            assert health.status_code == 200 and health.json()["ok"] is True
            assert "no-store" in health.headers["cache-control"]
            plain = browser.get(f"http://localhost:{http_port}/tv/")
            assert plain.status_code == 301 and plain.headers["location"] == f"{public}/tv/"
            page = browser.get(f"{public}/tv/")
            assert page.status_code == 200 and "strict-transport-security" in page.headers
            signed_in = browser.get(host_link, follow_redirects=True)
            assert signed_in.status_code == 200 and "Try a demo night" in signed_in.text
            assert "secure" in signed_in.history[0].headers["set-cookie"].lower()

        async def tv_sees_a_tap() -> None:
            insecure = ssl.create_default_context()
            insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
            async with connect(f"wss://localhost:{port}/ws/tv/{night.tv_token}/",
                               origin=public, ssl=insecure, proxy=None) as tv:
                await asyncio.wait_for(tv.recv(), 10)
                async with httpx.AsyncClient(base_url=public, verify=False, trust_env=False,
                                             timeout=10) as phone:
                    assert (await phone.get(f"/t/{table}/")).status_code == 200
                    answer = await phone.post(
                        f"/t/{table}/roll/",
                        data={"key": str(uuid.uuid4()), "set": claim.set_number,
                              "round": claim.round_number, "table": 2,
                              "pos": claim.position, "quick": "hit1"},
                        headers={"X-CSRFToken": phone.cookies["csrftoken"],
                                 "Origin": public, "Referer": f"{public}/t/{table}/"})
                assert answer.status_code == 200, answer.text  # not a CSRF 403
                seq = answer.json()["recorded"]
                while True:
                    message = await asyncio.wait_for(tv.recv(), 10)
                    if 'id="table-2"' in message and f'<li data-seq="{seq}"' in message:
                        return

        asyncio.run(tv_sees_a_tap())
        guesses_are_limited_as_one_client(public)
    finally:
        stack.proc.send_signal(signal.SIGINT)  # Ctrl+C
        code = stack.proc.wait(30)
    assert code == 0, stack.output
    assert stack.output.rstrip().endswith("Stopped.")
    assert not [p for p in (port, http_port, *workers) if listening(p)]
