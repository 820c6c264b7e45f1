import os

# Playwright's sync API runs an event loop in the test thread; the Django test database is
# only touched from that same thread, so Django's async-safety guard can stand down here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    """Everything here drives a real browser: ``-m "not e2e"`` (or ``"not browser"``) leaves
    the whole folder out for a quick run."""
    import pytest

    for item in items:
        if "/tests/e2e/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.browser)
