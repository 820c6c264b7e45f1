"""The start command (`manage.py serve`, which `make run` and `bunco` run) prints the host link
(with its secret), the LAN address and a QR code. The port is tried before anything is
printed, a laptop on no network yet is told how phones will reach it, the QR code prints on a
console that has no block characters, and the host page opens in the browser once the server
answers. The QR code is read as a phone
would read it from the window, on a dark terminal and on a light one. The server itself is not
started here."""

import io
import socket
import threading
from io import StringIO
from unittest import mock

import pytest
import segno
from django.core.management import call_command
from django.test import override_settings

from bunco import laptop, limits
from bunco.host.auth import host_secret
from bunco.management.commands import serve
from bunco.version import version
from tests.e2e.qr import read_terminal_qr
from tests.waiting import wait_until


@override_settings(LAN_ADDRESS="192.168.1.23", LAN_FOUND=True, PUBLIC_URL="")
def test_serve_prints_the_host_link_and_the_join_address_then_runs_daphne():
    """Both links are on the LAN address (a host who opens theirs shows QR codes that work
    from a guest's phone); the QR code is the guests' address, which leads to tonight's
    "find your seat"."""
    out = StringIO()
    with (mock.patch("bunco.management.commands.serve.CommandLineInterface") as cli,
          mock.patch("bunco.management.commands.serve.port_problem", return_value=None),
          mock.patch("bunco.management.commands.serve.leave_the_database_whole") as whole,
          mock.patch("bunco.management.commands.serve.call_command") as collect):
        call_command("serve", "--port", "8123", stdout=out)
    text = out.getvalue()
    assert f"Host (keep this link to yourself): http://192.168.1.23:8123/host/{host_secret()}/" \
        in text
    assert "localhost" not in text
    assert "Phones on the Wi-Fi: http://192.168.1.23:8123/\n" in text
    assert read_terminal_qr(text, "dark") == "http://192.168.1.23:8123/"  # the guests' address
    assert collect.call_args.args == ("collectstatic",)
    args = cli.return_value.run.call_args.args[0]
    assert args[:4] == ["--bind", "0.0.0.0", "--port", "8123"]
    # a quiet page sends nothing: Daphne pings it every two minutes, and a dead one is closed
    # half a minute after the ping goes unanswered
    ping = int(args[args.index("--ping-interval") + 1])
    pong = int(args[args.index("--ping-timeout") + 1])
    assert (ping, pong) == (limits.PING_EVERY, limits.PONG_WAIT) == (120, 30)
    # once Daphne has stopped, the night's file is made whole
    assert whole.call_count == 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def started(monkeypatch, settings, tmp_path):
    """What the command would have served: the arguments Daphne was given (none if it was
    not started), and whether the static files were collected."""
    settings.DATA_DIR = tmp_path  # this test's own host link
    settings.PUBLIC_URL = ""
    calls = {"daphne": [], "collected": False, "made_whole": 0}

    class Daphne:
        def run(self, args):
            calls["daphne"].append(args)
            if calls.get("then"):
                calls["then"](args)

    def collect(name, **options):
        assert name == "collectstatic"
        calls["collected"] = True

    monkeypatch.setattr(serve, "CommandLineInterface", Daphne)
    monkeypatch.setattr(serve, "leave_the_database_whole",
                        lambda: calls.__setitem__("made_whole", calls["made_whole"] + 1))
    monkeypatch.setattr(serve, "call_command", collect)
    return calls


def run(port, bind="127.0.0.1", stdout=None, **options):
    out, err = stdout or io.StringIO(), io.StringIO()
    call_command("serve", port=port, bind=bind, stdout=out, stderr=err, **options)
    return out, err


def test_on_the_wifi_it_prints_the_host_link_the_phones_address_and_a_qr_code(
        started, settings):
    settings.LAN_FOUND, settings.LAN_ADDRESS = True, "192.168.1.23"
    port = free_port()
    out, err = run(port)
    text = out.getvalue()
    assert f"Bunco {version()} is running." in text  # what to quote when asking for help
    assert f"Host (keep this link to yourself): http://192.168.1.23:{port}/host/" in text
    assert f"Phones on the Wi-Fi: http://192.168.1.23:{port}/\n" in text
    assert "\u2588" in text  # the compact QR code
    assert read_terminal_qr(text, "light") == f"http://192.168.1.23:{port}/"
    assert started["collected"]
    assert started["daphne"] == [["--bind", "127.0.0.1", "--port", str(port),
                                  "--ping-interval", "120", "--ping-timeout", "30",
                                  "bunco.asgi:application"]]


def test_a_busy_port_is_one_sentence_and_no_link_before_anything_else(started):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out, err = io.StringIO(), io.StringIO()
        with pytest.raises(SystemExit) as stopped:
            call_command("serve", port=port, bind="127.0.0.1", stdout=out, stderr=err)
    assert stopped.value.code == 1
    assert out.getvalue() == ""
    assert err.getvalue().strip().startswith(f"Bunco cannot start: port {port} is already")
    assert "http" not in err.getvalue() and err.getvalue().count("\n") == 1
    assert started["daphne"] == [] and not started["collected"]


def test_without_a_network_the_host_is_served_on_localhost_and_told_how_phones_will_join(
        started, settings):
    settings.LAN_FOUND, settings.LAN_ADDRESS = False, "127.0.0.1"
    port = free_port()
    out, _ = run(port, bind="0.0.0.0")
    text = out.getvalue()
    assert "for this laptop only: it is not on a network yet." in text
    assert f"Host, on this laptop (keep this link to yourself): http://localhost:{port}/host/" \
        in text
    assert "connect this laptop to the party's Wi-Fi, then stop Bunco (Ctrl+C) and start it " \
           "again" in text
    assert "Phones on the Wi-Fi" not in text and "\u2588" not in text  # no link, no QR code
    assert text.count("http") == 1 and text.isascii()
    assert started["daphne"]  # still serving, for the host


def test_a_console_without_block_characters_gets_an_ascii_qr_code(started, settings):
    """A Windows console writing to a file or a pipe is cp1252: nothing it cannot encode is
    written (the stream is strict), and the QR code is drawn with ANSI colours and spaces, which
    read on a dark terminal and on a light one."""
    settings.LAN_FOUND, settings.LAN_ADDRESS = True, "192.168.1.23"
    raw = io.BytesIO()
    console = io.TextIOWrapper(raw, encoding="cp1252", errors="strict", write_through=True)
    run(free_port(), stdout=console)
    console.flush()
    text = raw.getvalue().decode("cp1252")
    assert "Phones on the Wi-Fi: http://192.168.1.23:" in text
    assert "\x1b[107m  " in text and "\x1b[40m  " in text  # white and black, two spaces each
    assert text.isascii()
    for terminal in ("dark", "light"):
        assert read_terminal_qr(text, terminal).startswith("http://192.168.1.23:")


@pytest.mark.parametrize("blocks", [True, False], ids=["block characters", "ASCII"])
@pytest.mark.parametrize("terminal", ["dark", "light"])
def test_the_qr_code_scans_on_a_dark_and_on_a_light_terminal(blocks, terminal):
    """Both of the code's colours are its own (black on white, in a white quiet zone of 4
    modules), so a light terminal (macOS Terminal's default) does not show it inverted."""
    url = "http://192.168.100.200:8000/"
    text = serve.draw_qr(serve.qr_modules(url), blocks=blocks)
    assert read_terminal_qr(text, terminal) == url
    lines = text.splitlines()
    width = len(serve.qr_modules(url)[0])
    assert width == 4 + segno.make(url, error="m").symbol_size(border=0)[0] + 4
    # every line sets its colours first and puts the terminal's back after it
    assert all(line.startswith("\x1b[") and line.endswith(serve.RESET) for line in lines)


def test_a_qr_code_drawn_in_the_terminals_own_colours_would_not_scan_on_a_light_one():
    """What the code was drawn with before (segno's drawing, in the terminal's colours): it
    reads on a dark terminal, and a light one shows it inverted. The reading above tells
    them apart."""
    old = StringIO()
    segno.make("http://192.168.1.23:8000/", error="m").terminal(out=old, compact=True, border=2)
    assert read_terminal_qr(old.getvalue(), "dark") == "http://192.168.1.23:8000/"
    assert read_terminal_qr(old.getvalue(), "light") is None


def test_can_print_knows_the_consoles_encoding():
    assert serve.can_print(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), serve.QR_BLOCKS)
    assert not serve.can_print(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"),
                               serve.QR_BLOCKS)
    assert serve.can_print(io.StringIO(), serve.QR_BLOCKS)


def test_the_host_page_opens_once_the_server_answers(started, settings, monkeypatch):
    settings.LAN_FOUND, settings.LAN_ADDRESS = True, "127.0.0.1"
    opened, listening = [], threading.Event()
    done = threading.Event()

    def browser(url):
        assert listening.is_set(), "opened before the server answered"
        opened.append(url)
        done.set()
        return True

    def serve_a_while(args):
        with socket.socket() as server:
            server.bind(("127.0.0.1", int(args[3])))
            server.listen()
            listening.set()
            assert done.wait(10)

    monkeypatch.setattr(laptop, "open_in_browser", browser)
    started["then"] = serve_a_while
    port = free_port()
    run(port, browser=True, no_qr=True)
    assert opened == [f"http://127.0.0.1:{port}/host/{host_secret()}/"]


def test_with_no_phone_after_the_delay_the_terminal_says_what_is_in_the_way(
        started, settings, monkeypatch):
    """The room check's word in the terminal: no phone reached the laptop by the delay, so the
    start command's window names the likely causes on this system and their fixes."""
    from bunco.laptop import roomcheck

    settings.LAN_FOUND = True
    monkeypatch.setenv("BUNCO_ROOMCHECK_AFTER", "0.2")
    monkeypatch.setattr(roomcheck, "reached", lambda: (0, None))
    monkeypatch.setattr(roomcheck, "push_card", lambda: None)
    out = io.StringIO()
    started["then"] = lambda args: wait_until(  # Daphne serving until the word is out
        lambda: "Fix:" in out.getvalue(), "the room check's word in the terminal")
    run(free_port(), stdout=out, no_qr=True)
    assert "No phone has reached this laptop" in out.getvalue()
    assert "Fix:" in out.getvalue()
