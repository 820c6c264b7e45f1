"""Phones in WebKit (Safari's engine: every browser on an iPhone uses it), driven through
Selenium and WebKitGTK's WebDriver, against the live Daphne server of the browser tests. The
host's page, where a test needs it, is Chromium's (tests/e2e)."""

import contextlib
import os
import socket
import threading
import time
import warnings

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.e2e.base import BrowserTestCase

from .conftest import MINIBROWSER, NEEDS, WEBKIT_DRIVER

# A phone's answer is a push away; changes made by services in the test process (not through
# a page) reach it once the server sees them in the log (every 5 s: tests.e2e.base.WATCHED_EVERY).
WAIT = 10
SYNC = 15


class WebKitTestCase(BrowserTestCase):

    @pytest.fixture(autouse=True)
    def _display(self, x_display):
        self.display = x_display

    def phone(self, url):
        """A phone's browser, WebKit in its own window on this process's display, at ``url``
        with its websocket open. Closed after the test."""
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = webdriver.WebKitGTKService(  # its own free port
            executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": self.display})
        try:
            with warnings.catch_warnings():  # Selenium's own use of its connection settings
                warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
                driver = webdriver.WebKitGTK(options=options, service=service)
        except WebDriverException as exc:
            pytest.fail(f"WebKit did not start ({exc.msg}): {NEEDS}", pytrace=False)
        self.addCleanup(driver.quit)
        driver.set_window_size(400, 800)
        driver.get(url)
        return driver

    def tap(self, driver, label):
        """Tap a button of the scorekeeper's pad, at a person's pace (the next tap a second
        later, well past the 600 ms a person takes to react to the screen)."""
        def button(d):
            found = [b for b in d.find_elements(By.CSS_SELECTOR, ".pad .quick button")
                     if b.is_displayed() and b.text.strip() == label]
            return found[0] if found else False
        wait(driver, button, f"a {label!r} button on the pad").click()
        time.sleep(1)  # a person's pace (the input; a floor)


def wait(driver, condition, what, timeout=WAIT):
    """What ``condition`` (a function of the driver, or a script returning it) gives once true."""
    check = condition if callable(condition) else (lambda d: d.execute_script(condition))
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(check)
    except TimeoutException:
        raise AssertionError(f"after {timeout} s, still no {what}") from None


def text(driver, css):
    """The text ``css`` shows (all of its matches'), as a person reads it."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText)", css)


def shows(driver, css, expected, timeout=WAIT):
    """Wait until ``css`` shows ``expected`` (a piece of its text; a list: every match's text,
    exactly); fail with what it shows instead."""
    def now(d):
        shown = text(d, css)
        if isinstance(expected, list):
            return [s.strip() for s in shown] == expected
        return any(expected in s for s in shown)
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(now)
    except TimeoutException:
        raise AssertionError(f"{css} shows {text(driver, css)!r}, not {expected!r}") from None


def connected(driver, timeout=WAIT):
    wait(driver, "return !!(window.bunco && window.bunco.open)", "open websocket", timeout)


class Wire:
    """The Wi-Fi between the phones and the live server, as a TCP relay the test can cut: every
    connection through it drops and new ones are refused until it is restored, on the same
    port. The page really loses the server (its websocket closes, its posts fail)."""

    def __init__(self, server_port):
        self.server = ("127.0.0.1", server_port)
        self.port = 0
        self.lock = threading.Lock()
        self.conns = set()
        self.listener = None
        self.restore()

    def restore(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self):
        self._close(self.listener)
        with self.lock:
            conns, self.conns = self.conns, set()
        for conn in conns:
            self._close(conn)

    def _accept(self, listener):
        while True:
            try:
                phone, _ = listener.accept()
            except OSError:  # cut
                return
            try:
                server = socket.create_connection(self.server)
            except OSError:
                self._close(phone)
                continue
            with self.lock:
                self.conns |= {phone, server}
            for src, dst in ((phone, server), (server, phone)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src, dst):
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for conn in (src, dst):
            self._close(conn)

    @staticmethod
    def _close(conn):
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RDWR)
        conn.close()
