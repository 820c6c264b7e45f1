"""Start a built app as a host would and check it works, before anything is published:

1. from an empty folder, with an empty home and a data folder of its own (BUNCO_DATA_DIR),
   start it (``--no-browser --no-qr``, on a free port of 127.0.0.1) and wait for its first page;
2. sign in with the host link it prints and open the demo night, start round 1;
3. open table 1's websocket, tap one roll ("1 hit"), read the game's answer and the table's
   push with the roll in it;
4. stop it as the host does (Ctrl+C: SIGINT to its process group; on Windows Ctrl+Break to
   its console group), and check it ended with 0, printed no traceback, wrote nothing in the
   folder it was started from, and left the night in its data folder's database, the roll
   counted once and the write-ahead log folded in.

    python deploy/release/smoke.py dist/release/bunco-0.1.0-linux-x86_64    # or: make smoke
    python deploy/release/smoke.py dist/release/bunco-0.1.0-macos-arm64.zip  # Bunco.app inside

It needs `websockets` (pip install -c constraints.txt websockets). Exit 0: it works.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from websockets.sync.client import connect

WAIT = 120  # seconds for the first start (an unpacked single file, a fresh data folder)


class Failed(Exception):
    """What went wrong, in a sentence."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def executable(artefact: Path, work: Path) -> Path:
    """The program to start: the file itself, or the app inside a macOS zip."""
    if artefact.suffix != ".zip":
        if os.name == "posix":
            artefact.chmod(artefact.stat().st_mode | 0o111)
        return artefact
    unpacked = work / "unpacked"
    unpacked.mkdir()
    # ditto keeps the bundle's links and permissions (macOS); unzip elsewhere
    tool = ["ditto", "-x", "-k"] if sys.platform == "darwin" else ["unzip", "-q", "-d"]
    command = [*tool, artefact, unpacked] if tool[0] == "ditto" else [*tool, unpacked, artefact]
    subprocess.run([str(c) for c in command], check=True)
    found = list(unpacked.glob("*.app/Contents/MacOS/bunco"))
    if not found:
        raise Failed(f"{artefact.name} holds no *.app/Contents/MacOS/bunco")
    return found[0]


def a_hosts_environment(home: Path, data: Path) -> dict:
    """A host's fresh account: an empty home (each system's names for it), none of this
    machine's Bunco or Python settings, and the app's data folder given."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BUNCO_", "DJANGO_", "XDG_", "PYTHON", "VIRTUAL_ENV"))
           and k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(HOME=str(home), USERPROFILE=str(home), APPDATA=str(home / "AppData" / "Roaming"),
               LOCALAPPDATA=str(home / "AppData" / "Local"), XDG_DATA_HOME=str(home / "data"),
               BUNCO_DATA_DIR=str(data), BUNCO_LAN_ADDRESS="127.0.0.1")
    return env


def start(program: Path, cwd: Path, env: dict, port: int, out: Path) -> subprocess.Popen:
    """In a process group of its own, as a terminal runs it, so Ctrl+C reaches all of it."""
    kwargs = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt"
              else {"start_new_session": True})
    with open(out, "wb") as stream:
        return subprocess.Popen(
            [str(program), "--no-browser", "--no-qr", "--port", str(port), "--bind", "127.0.0.1"],
            cwd=cwd, env=env, stdout=stream, stderr=subprocess.STDOUT, **kwargs)


def wait_for(out: Path, pattern: str, server: subprocess.Popen, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = out.read_text(errors="replace")
        if found := re.search(pattern, text):
            return found.group(1)
        if server.poll() is not None:
            raise Failed(f"the app stopped ({server.returncode}):\n{text}")
        time.sleep(0.1)
    raise Failed(f"the app printed no {pattern!r} in {seconds:.0f} s:\n{out.read_text()}")


def wait_for_first_page(base: str, server: subprocess.Popen) -> float:
    started, deadline = time.monotonic(), time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise Failed(f"the app stopped ({server.returncode}) before its first page")
        with contextlib.suppress(OSError), urllib.request.urlopen(base + "/", timeout=2) as page:
            if page.status == 200:
                return time.monotonic() - started
        time.sleep(0.1)
    raise Failed(f"no first page in {WAIT} s")


class Browser:
    """The host's browser: cookies kept, forms posted with their CSRF token."""

    def __init__(self, base: str):
        self.base, self.jar = base, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, url: str) -> tuple[str, str]:
        with self.opener.open(urllib.parse.urljoin(self.base, url), timeout=15) as page:
            return page.geturl(), page.read().decode()

    def post(self, path: str, fields: dict) -> tuple[str, str]:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        request = urllib.request.Request(urllib.parse.urljoin(self.base, path), data=body,
                                         headers={"Referer": self.base + "/"})
        with self.opener.open(request, timeout=15) as page:
            return page.geturl(), page.read().decode()


def open_the_demo_night(base: str, host_link: str) -> str:
    """Signs in, opens the demo night, starts round 1; returns table 1's token."""
    browser = Browser(base)
    browser.get(host_link)
    night_url, page = browser.post("/host/demo/", {})
    night = re.search(r"/host/nights/(\d+)/", night_url)
    if not night:
        raise Failed(f"the demo night did not open (at {night_url})")
    browser.post(f"/host/nights/{night.group(1)}/start/",
                 {"set": "1", "round": "1", "key": str(uuid.uuid4())})
    _, page = browser.get(night_url)
    tables = re.findall(r'href="[^"]*/t/([\w-]+)/"', page)
    if not tables:
        raise Failed("the night's page links no table")
    return tables[0]


def tap_once(base: str, table: str) -> dict:
    """Table 1's websocket: one roll tapped, its answer and the push with it read."""
    address = base.replace("http://", "ws://") + f"/ws/table/{table}/"
    with connect(address, origin=base, open_timeout=15) as socket_:
        shown = ""
        while 'id="table-1"' not in shown:
            shown += socket_.recv(timeout=15)
        section = re.search(r'<section id="table-1"[^>]*>', shown).group(0)
        at = dict(re.findall(r'data-(set|round|table|pos|seq)="(\d*)"', section))
        key = str(uuid.uuid4())
        socket_.send(json.dumps({"type": "tap", "action": "roll", "fields": {
            "key": key, "set": at["set"], "round": at["round"], "table": at["table"],
            "pos": at["pos"], "quick": "hit1"}}))
        ack, pushed = None, None
        while ack is None or pushed is None:
            frame = socket_.recv(timeout=15)
            if frame.startswith("{"):
                message = json.loads(frame)
                if message.get("type") == "ack" and message.get("key") == key:
                    ack = message
            elif (seq := re.search(r'id="table-1"[^>]*data-seq="(\d+)"', frame)) \
                    and int(seq.group(1)) > int(at["seq"]):
                pushed = frame
        if not ack.get("ok") or not ack.get("recorded"):
            raise Failed(f"the tap was not recorded: {ack}")
        return ack


def stop(server: subprocess.Popen) -> int:
    """Ctrl+C, as the host presses it (Ctrl+Break on Windows: the console group's Ctrl+C
    cannot be sent to another group)."""
    if os.name == "nt":
        server.send_signal(signal.CTRL_BREAK_EVENT)
    else:
        os.killpg(server.pid, signal.SIGINT)
    try:
        return server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        raise Failed("Ctrl+C did not stop the app in 60 s") from None


def check_the_data_folder(data: Path, cwd: Path) -> None:
    database = data / "bunco.sqlite3"
    if not database.is_file():
        raise Failed(f"no database in the data folder {data}: {sorted(data.iterdir())}")
    wal = database.with_name(database.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        raise Failed("the database's write-ahead log was not folded in")
    with contextlib.closing(sqlite3.connect(database)) as db:
        nights = db.execute("SELECT count(*) FROM bunco_night").fetchone()[0]
        rolls = db.execute("SELECT count(*) FROM tables_scoreevent WHERE kind = 'roll'") \
            .fetchone()[0]
    if (nights, rolls) != (1, 1):
        raise Failed(f"the data folder holds {nights} night(s) and {rolls} roll(s), not 1 and 1")
    if left := sorted(p.name for p in cwd.iterdir()):
        raise Failed(f"the app wrote in the folder it was started from: {left}")


def smoke(artefact: Path, work: Path) -> str:
    program = executable(artefact.resolve(), work)
    home, cwd, data, out = work / "home", work / "empty", work / "data", work / "app.out"
    for folder in (home, cwd):
        folder.mkdir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(program, cwd, a_hosts_environment(home, data), port, out)
    try:
        first = wait_for_first_page(base, server)
        host_link = wait_for(out, r"Host \(keep this link to yourself\): (\S+)", server, 30)
        version = wait_for(out, r"(?m)^Bunco (\S+) is running", server, 5)
        ack = tap_once(base, open_the_demo_night(base, host_link))
    finally:
        code = stop(server) if server.poll() is None else server.returncode
    text = out.read_text(errors="replace")
    if code != 0 or "Traceback" in text:
        raise Failed(f"Ctrl+C ended the app with {code}:\n{text}")
    check_the_data_folder(data, cwd)
    return (f"{artefact.name}: Bunco {version}, first page in {first:.1f} s, a tap recorded as "
            f"entry {ack['recorded']} and pushed, stopped cleanly, the night in its data folder")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("artefact", type=Path, help="the built app: a file, or a macOS zip")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bunco-smoke-") as work:
        try:
            print(smoke(args.artefact, Path(work)))
        except Failed as failure:
            print(f"smoke check failed: {failure}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
