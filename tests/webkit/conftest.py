import os
import select
import shutil
import subprocess

import pytest

# The host's page runs in Chromium through Playwright (tests/e2e), whose sync API keeps an
# event loop in the test thread; the test database is only touched from that thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
NEEDS = "sudo apt-get install -y webkit2gtk-driver xvfb"


def pytest_collection_modifyitems(items):
    """Everything here drives WebKit: ``-m "not webkit"`` (or ``"not browser"``) leaves it out."""
    for item in items:
        if "/tests/webkit/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.webkit)
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def x_display():
    """An X display of this test process's own, for WebKit's windows: Xvfb picks a free display
    number and says which (-displayfd), so two test workers never share one. Stopped after the
    run. WebKit or Xvfb missing fails the tests (they are never skipped)."""
    missing = [path for path in (WEBKIT_DRIVER, MINIBROWSER) if not os.access(path, os.X_OK)]
    if not shutil.which("Xvfb"):
        missing.append("Xvfb")
    if missing:
        pytest.fail(f"The WebKit browser tests need {', '.join(missing)}: {NEEDS}",
                    pytrace=False)
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "2048x1280x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n") and select.select([read], [], [], 15)[0]:
        chunk = os.read(read, 16)
        if not chunk:
            break
        number += chunk
    os.close(read)
    if not number.strip().isdigit():
        xvfb.kill()
        xvfb.wait()
        pytest.fail(f"Xvfb did not start a display for the WebKit browser tests: {NEEDS}",
                    pytrace=False)
    yield f":{number.decode().strip()}"
    xvfb.terminate()
    xvfb.wait(timeout=10)
