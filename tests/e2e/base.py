"""A live Daphne server plus the system Chromium, shared by the browser tests."""

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import SyncToAsync
from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.test import override_settings
from playwright.sync_api import expect, sync_playwright

from tests.screens import PATIENCE

from .conftest import CHROMIUM, CHROMIUM_ARGS, PolicyFreeBrowser

# The host's secret link, for every browser test (the live server process reads it too).
HOST_SECRET = "browser-tests-host-secret"
os.environ["BUNCO_HOST_SECRET"] = HOST_SECRET


# The "LAN address" every link and QR code is built from: reachable from the test's browser,
# and not the address (localhost) the host's browser opens, as at a party.
LAN_ADDRESS = "127.0.0.1"


def in_thread(work):
    """Run ``work`` (service calls) in another thread: Playwright's event loop owns this one,
    and the services push to the screens through async_to_sync. An error is raised here."""
    out, errors = [], []

    def run():
        try:
            out.append(work())
        except Exception as exc:  # surfaced in the test's own thread
            errors.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]
    return out[0] if out else None


class ForkedDaphne(DaphneProcess):
    """The live server, forked from the test process. A fork copies asgiref's one sync thread
    executor but not its thread: if an earlier test (a websocket consumer's database call) had
    started that thread, every request in the child would wait for it forever. The child
    starts its own."""

    def run(self):
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        super().run()


#: The live server looks at its nights' logs every WATCHED_EVERY seconds (a party's: every 30)
#: and asks their screens to sync: a change a test makes through services (another process
#: than the server, so no push) shows by then.
WATCHED_EVERY = 5


@pytest.mark.browser
@override_settings(LAN_ADDRESS=LAN_ADDRESS, PUBLIC_URL="", BUNCO_WATCH_EVERY=WATCHED_EVERY)
class BrowserTestCase(ChannelsLiveServerTestCase):
    # Static files as at a party: WhiteNoise, from the collected files, compressed.
    serve_static = False
    ProtocolServerProcess = ForkedDaphne

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls._pw = sync_playwright().start()
        cls.browser = PolicyFreeBrowser(
            cls._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS))

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls._pw.stop()
        super().tearDownClass()


#: How soon after a change on the screen a second tap reads as the same tap (live.js).
REACTION_MS = 600


def tap_like_a_person(page, button):
    """Tap a scorekeeping button the way a person does: the next tap comes once this one is
    answered *and* shows on the screen (the ack comes first, the table's push a moment
    later), and not quicker than a person reacts to what changed."""
    before = page.evaluate("(document.querySelector('.table-live') || {dataset: {}}).dataset.seq")
    button.click()
    page.wait_for_function("!document.body.classList.contains('pending')")
    page.wait_for_function(
        "seq => (document.querySelector('.table-live') || {dataset: {}}).dataset.seq !== seq",
        arg=before)
    # A person's pace (the test's input, not a wait for anything): a floor, which a busy
    # machine only lengthens, as it does the page's own clock.
    page.wait_for_timeout(REACTION_MS + 50)


#: htmx's own tries to connect again: the page's first four (0.3 s to 2.4 s apart), then one an
#: hour away, so that after four failed only the page's waking can connect it in a test's time.
LATER_TRIES_HELD = """(() => {
  const pages = htmx.config.wsReconnectDelay;
  htmx.config.wsReconnectDelay = retry => retry < 4 ? pages(retry) : 3600000;
})()"""
#: True once four of htmx's tries failed and the next is the held one.
FOUR_TRIES_FAILED = """(() => {
  const socket = document.querySelector("[ws-connect]")["htmx-internal-data"].webSocket;
  return socket.retryCount >= 4 && socket.socket.readyState === 3;
})()"""


CAUGHT_UP = """() => new Promise(done => {
  const heard = e => {
    let said = null;
    try { said = JSON.parse(e.detail.message); } catch (err) { return; }
    if (!said || said.type !== "pong") return;
    document.body.removeEventListener("htmx:wsBeforeMessage", heard);
    done(true);
  };
  document.body.addEventListener("htmx:wsBeforeMessage", heard);
  if (!window.bunco.send({type: "ping"})) done(false);
})"""


def pump_until(page, happened, what: str, patience: float = PATIENCE) -> None:
    """Wait for ``happened()``, something the test's own handlers of the page's events note
    (they run only while the test waits on the page, so this waits on it, in short steps)."""
    deadline = time.monotonic() + patience
    while not happened():
        assert time.monotonic() < deadline, f"never happened: {what}"
        page.wait_for_timeout(50)


def synced_until(page, locator, text: str, patience: float = PATIENCE) -> None:
    """A change the test made through services (another process than the server: nothing is
    pushed) reaches the page by its sync, as a page woken from sleep asks: asked again until
    ``locator`` shows ``text`` (the server reads the log again at most every LOOK_EVERY), not
    left to the server's next look at its logs (WATCHED_EVERY, a race with any wait)."""
    deadline = time.monotonic() + patience
    while True:
        page.evaluate("window.bunco.sync()")
        try:
            expect(locator).to_contain_text(text, timeout=1000)
            return
        except AssertionError:
            assert time.monotonic() < deadline, f"{text!r} never showed"


def caught_up(page) -> None:
    """Everything the server sent this page's socket so far has reached it: a ping said now
    is answered after it (the socket answers in order), and the page handles frames in order.
    Proves an absence without a guessed pause: what did not come by then was not sent."""
    page.wait_for_function("window.bunco && window.bunco.open")
    assert page.evaluate(CAUGHT_UP), "the page's socket closed"
