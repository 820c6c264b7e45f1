"""The room check on a real LAN: the real server in its own process, listening on every
address with a LAN address of its own (a veth pair to a network namespace), and a phone in
that namespace. The host's page shows the phone that reached it and her own check; with a
firewall rule that drops the phone, it shows the failure and, after the (short) delay, what is
in the way on this system and the fix. The terminal's word is the same, read from the system.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time

import httpx
from django.conf import settings

from bench.server import free_port, prepared_env
from bunco.management.commands.serve import daphne_options
from tests.netns import firewall_dropping, phone_on_the_lan
from tests.waiting import wait_until

AFTER = 3  # seconds without a phone before the advice shows (a party's: three minutes)


@contextlib.contextmanager
def real_server(tmp_path, lan_address: str):
    env = prepared_env(tmp_path / "data")
    env.update(BUNCO_LAN_ADDRESS=lan_address, BUNCO_ROOMCHECK_AFTER=str(AFTER),
               BUNCO_ALLOWED_HOSTS=f"127.0.0.1,{lan_address}")
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "0.0.0.0", "-p", str(port),
             *daphne_options(), "bunco.asgi:application"],
            cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL)
    try:
        host = httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=5)
        def answers() -> bool:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                return host.get("/").status_code < 500
            return False

        wait_until(answers, "the server answering", patience=30)
        assert host.get(f"/host/{env['BUNCO_HOST_SECRET']}/").status_code in (200, 302)
        yield host, port, env
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def card(host: httpx.Client) -> str:
    page = host.get("/host/").text
    found = re.search(r'<section id="roomcheck".*?</section>', page, re.S)
    assert found, "the host's page shows no room check"
    return re.sub(r"\s+", " ", found.group(0))


def wait_for(host, needle: str) -> str:
    def shown() -> str | None:
        text = card(host)
        return text if needle in text else None

    return wait_until(shown, f"shown: {needle!r}")


def test_a_phone_on_the_lan_reaches_the_laptop_and_the_host_sees_it(tmp_path):
    with phone_on_the_lan() as phone, real_server(tmp_path, phone.laptop) as (host, port, _):
        assert "No phone has reached this laptop yet." in card(host)
        home = phone.run("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                         "--max-time", "5", f"http://{phone.laptop}:{port}/")
        assert home.stdout == "200", home
        shown = card(host)
        assert "<b>1 phone reached this laptop</b>" in shown
        # her own check: the QR code's link, opened on the phone
        link = re.search(r'\?u=(/check/[^"]+)"', shown).group(1)
        opened = phone.run("curl", "-s", "--max-time", "5", f"http://{phone.laptop}:{port}{link}")
        assert "It worked: this phone reached the laptop." in opened.stdout
        assert "Your phone reached this laptop</b>; it is measuring" in card(host)
        # the laptop's own browser never counts as a phone
        with httpx.Client(trust_env=False) as laptop:
            laptop.get(f"http://{phone.laptop}:{port}/")
        assert "<b>1 phone reached" in card(host)
        # The delay running out is what is tested (a server in its own process, on the real
        # clock): past it, with a phone seen, no advice. A machine slow to run the server's
        # timer only makes this pass sooner than it should, never fail.
        time.sleep(AFTER + 0.5)
        assert 'data-testid="roomcheck-advice"' not in card(host)


def test_a_firewall_that_drops_the_phone_shows_the_failure_and_its_advice(tmp_path):
    with phone_on_the_lan() as phone, real_server(tmp_path, phone.laptop) as (host, port, _), \
            firewall_dropping(phone, port):
        tried = phone.run("curl", "-s", "-o", "/dev/null", "--max-time", "2",
                          f"http://{phone.laptop}:{port}/")
        assert tried.returncode != 0  # the phone cannot get through
        shown = wait_for(host, f"drops connections to port {port}")
        assert "No phone has reached this laptop yet." in shown
        assert f"No phone has reached this laptop in {AFTER} seconds." in shown
        assert "guest Wi-Fi" in shown and "Fix:" in shown
        assert "Traceback" not in shown


def test_the_terminal_says_what_is_in_the_way_on_this_system(tmp_path):
    """What the start command prints when no phone came: read from this machine's firewall."""
    with phone_on_the_lan() as phone, firewall_dropping(phone, 8123):
        env = prepared_env(tmp_path / "data")
        env.update(BUNCO_LAN_ADDRESS=phone.laptop)
        printed = subprocess.run(
            [sys.executable, "-c", "import django, sys; django.setup(); "
             "from bunco.laptop import roomcheck; "
             "roomcheck.watch_terminal(sys.stdout.write, 0.5, port=8123).join(30)"],
            cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60)
    assert printed.stdout.startswith("No phone has reached this laptop"), printed
    assert "drops connections to port 8123" in printed.stdout
    assert "Traceback" not in printed.stdout + printed.stderr
