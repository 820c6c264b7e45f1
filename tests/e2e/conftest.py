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


class PolicyFreeBrowser:
    """Chromium whose new pages skip the Content-Security-Policy unless asked to keep it
    (``bypass_csp=False``): Playwright's ``wait_for_function`` runs its test's expression with
    eval, which the policy forbids. tests/e2e/test_csp.py keeps the policy and waits without
    it."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_page(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


def launch(pw, *args):
    """The system Chromium, its pages skipping the policy (``PolicyFreeBrowser``)."""
    return PolicyFreeBrowser(pw.chromium.launch(executable_path=CHROMIUM,
                                                args=[*CHROMIUM_ARGS, *args]))


def pytest_collection_modifyitems(items):
    """Everything here drives a real browser: ``-m "not e2e"`` (or ``"not browser"``) leaves
    the whole folder out for a quick run."""
    import pytest

    for item in items:
        if "/tests/e2e/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.browser)
