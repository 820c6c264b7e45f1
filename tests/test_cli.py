"""The `bunco` command an installed package gives (bunco/laptop/cli.py); tests/test_package.py
runs the real one from a built wheel."""

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bunco.laptop import cli
from tests.waiting import wait_until


@pytest.fixture
def commands(monkeypatch):
    """The management commands `bunco` runs, recorded instead of run."""
    ran = []
    monkeypatch.setattr("django.core.management.call_command",
                        lambda name, **options: ran.append((name, options)))
    return ran


def test_no_arguments_migrates_and_serves_on_port_8000_and_opens_the_browser(commands,
                                                                          monkeypatch):
    monkeypatch.setattr("bunco.laptop.lan.port_problem", lambda bind, port: None)
    assert cli.main([]) == 0
    assert commands == [
        ("migrate", {"interactive": False, "verbosity": 0}),
        ("serve", {"port": 8000, "bind": "0.0.0.0", "no_qr": False, "browser": True,
                   "copy_to": None}),
    ]


def test_the_options_are_the_serve_commands(commands):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert cli.main(["--port", str(port), "--bind", "127.0.0.1", "--no-qr",
                     "--no-browser", "--copy-to", "/media/stick/bunco"]) == 0
    assert commands[-1] == ("serve", {"port": port, "bind": "127.0.0.1", "no_qr": True,
                                      "browser": False, "copy_to": "/media/stick/bunco"})


def test_a_busy_port_stops_it_before_the_database_is_touched(commands, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["--port", str(port), "--bind", "127.0.0.1"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "http" not in err
    assert err.startswith(f"Bunco cannot start: port {port} is already in use")
    assert commands == []


def test_help_lists_the_other_commands(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for name in ("backup", "restore", "restore-night", "simulate", "--no-browser", "--no-qr",
                 "--port", "--copy-to"):
        assert name in out


@pytest.mark.django_db
def test_the_management_commands_run_by_name(capsys):
    assert cli.main(["simulate", "--rules", "babz", "--players", "8", "--seed", "3",
                     "--json"]) == 0
    night = json.loads(capsys.readouterr().out)
    assert night["seed"] == 3


def test_restore_list_runs_as_the_command_does(capsys, settings, tmp_path):
    from bunco.laptop import backup

    settings.BUNCO_BACKUP_DIR = tmp_path
    stem = (backup.database_file() or Path("bunco")).stem
    (tmp_path / f"{stem}-20250101-000000-000000000-manual.sqlite3").write_bytes(b"x" * 2048)
    assert cli.main(["restore", "--list"]) == 0
    assert "manual.sqlite3  (2 KiB)" in capsys.readouterr().out


def test_a_console_that_cannot_print_a_character_shows_it_escaped(monkeypatch):
    raw = io.BytesIO()
    console = io.TextIOWrapper(raw, encoding="cp1252", errors="strict")
    monkeypatch.setattr(sys, "stdout", console)
    cli._printable_streams()
    print("Zo\u00eb \u2192 table 2")
    console.flush()
    assert raw.getvalue().decode("cp1252").strip() == "Zo\u00eb \\u2192 table 2"


def test_a_backup_before_the_first_start_says_there_is_nothing_yet(monkeypatch, tmp_path,
                                                                     capsys):
    from bunco.laptop import backup

    monkeypatch.setattr(backup, "database_file", lambda: tmp_path / "bunco.sqlite3")
    with pytest.raises(SystemExit) as stopped:
        cli.main(["backup"])
    assert stopped.value.code == 1
    assert "there is no database to snapshot yet" in capsys.readouterr().err


def test_restore_night_is_the_restore_night_command(monkeypatch):
    ran = []
    monkeypatch.setattr("django.core.management.execute_from_command_line", ran.append)
    assert cli.main(["restore-night", "March-night.json"]) == 0
    assert ran == [["bunco", "restore_night", "March-night.json"]]


# -- the checkout's own `.venv/bin/bunco`, started from another folder -------------------------

def _checkout_bunco() -> Path:
    """The `bunco` script of the virtual environment these tests run in (make's .venv): an
    editable install of this checkout."""
    script = Path(sys.executable).with_name("bunco")
    assert script.is_file(), f"no bunco script next to {sys.executable}"
    return script


def _elsewhere_environment(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("BUNCO_", "DJANGO_", "PYTHON"))
           and k not in ("DATABASE_URL", "REDIS_URL", "DISPLAY", "WAYLAND_DISPLAY")}
    # Its own data folder: the checkout's var/ belongs to whoever runs it there.
    env.update(HOME=str(home), BUNCO_DATA_DIR=str(home / "data"),
               BUNCO_LAN_ADDRESS="127.0.0.1")
    return env


def test_the_checkouts_bunco_helps_from_any_folder(tmp_path):
    done = subprocess.run([str(_checkout_bunco()), "--help"], cwd=tmp_path, text=True,
                          capture_output=True, env=_elsewhere_environment(tmp_path),
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--no-browser" in done.stdout and "bunco restore" in done.stdout


@pytest.mark.parametrize("stop, ctrl_c", [
    ("SIGINT", signal.SIG_DFL), ("SIGHUP", signal.SIG_DFL), ("SIGTERM", signal.SIG_DFL),
    # started in the background by a script: Ctrl+C ignored, closing the terminal still stops it
    ("SIGHUP", signal.SIG_IGN), ("SIGTERM", signal.SIG_IGN),
], ids=["Ctrl+C", "terminal closed", "asked to stop", "background, terminal closed",
        "background, asked to stop"])
def test_the_checkouts_bunco_starts_the_night_from_any_folder(tmp_path, stop, ctrl_c):
    """`.venv/bin/bunco` from a folder outside the checkout: the checkout's load-test app
    (bench/) is not importable there, and the night starts without it. Ctrl+C, closing the
    terminal (SIGHUP) and a shutdown's SIGTERM all stop it cleanly, and leave the night's
    database file whole on its own (its write-ahead log folded in)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out_path = tmp_path / "bunco.out"
    with open(out_path, "w") as out:
        server = subprocess.Popen(
            [str(_checkout_bunco()), "--no-browser", "--no-qr", "--port", str(port),
             "--bind", "127.0.0.1"], cwd=tmp_path, env=_elsewhere_environment(tmp_path),
            stdout=out, stderr=subprocess.STDOUT,
            # Ctrl+C reaches it as from a terminal, or not as in the background (a test worker
            # may ignore SIGINT either way)
            preexec_fn=lambda: signal.signal(signal.SIGINT, ctrl_c))
    try:
        def started() -> bool:
            assert server.poll() is None, f"bunco stopped:\n{out_path.read_text()}"
            return "Press Ctrl+C to stop." in out_path.read_text()

        wait_until(started, "bunco started", patience=90)
        health = _answer(f"http://127.0.0.1:{port}/healthz")
        assert health.status == 200
    finally:
        server.send_signal(getattr(signal, stop))
        code = server.wait(timeout=30)
    text = out_path.read_text()
    assert code == 0, text
    assert "Traceback" not in text and f"http://127.0.0.1:{port}/host/" in text
    assert_whole(tmp_path / "data" / "bunco.sqlite3")


def assert_whole(database: Path) -> None:
    """The database file alone holds what was written (copied without its -wal file, as a
    host copying "the night's file" would)."""
    import sqlite3

    wal = database.with_name(database.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was not folded in"
    alone = database.with_name("copied-alone.sqlite3")
    alone.write_bytes(database.read_bytes())
    with contextlib.closing(sqlite3.connect(alone)) as db:
        applied = db.execute("SELECT count(*) FROM django_migrations WHERE app = 'bunco'")
        assert applied.fetchone()[0] > 0


def _answer(url: str):
    import urllib.request

    def answer():
        with contextlib.suppress(OSError):
            return urllib.request.urlopen(url, timeout=5)

    return wait_until(answer, f"an answer from {url}")


def test_closing_the_windows_console_stops_the_server_before_windows_ends_the_process(
        monkeypatch):
    """Windows ends a process as soon as its handler for the console's close event returns:
    the handler Bunco registers turns the event into Ctrl+C and returns only once the server
    has stopped. Ctrl+Break and Ctrl+C are left to Python's own handlers. (Windows itself is
    faked: its console calls are recorded.)"""
    import ctypes

    registered = []

    class Kernel32:
        def SetConsoleCtrlHandler(self, handler, add):  # noqa: N802 - Windows' name
            registered.append((handler, add))
            return 1

    monkeypatch.setattr(ctypes, "WINFUNCTYPE", lambda *types: lambda f: f, raising=False)
    monkeypatch.setattr(ctypes, "WinDLL", lambda name, **kw: Kernel32(), raising=False)
    monkeypatch.setattr(cli.sys, "platform", "win32")
    answers = []
    # Ctrl+C as a console gives it (Python's KeyboardInterrupt), whatever an earlier test in
    # this worker left as SIGINT's handler (an event loop's own one swallows the first).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), cli.closing_the_window_stops_it():
            on_event = registered[0][0]
            assert on_event(0) is False and on_event(1) is False  # Ctrl+C, Ctrl+Break
            closing = threading.Thread(target=lambda: answers.append(on_event(2)))
            closing.start()
            try:  # the server, running until Ctrl+C arrives
                wait_until(lambda: False, "Ctrl+C, from the console's close event")
            finally:
                assert answers == [], "the handler returned before the server stopped"
    finally:
        signal.signal(signal.SIGINT, previous)
    closing.join(5)
    assert answers == [True]
    assert registered[-1][1] is False  # the handler is taken away again
