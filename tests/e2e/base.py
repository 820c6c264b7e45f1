"""A live Daphne server plus the system Chromium, shared by the browser tests."""

import os

import pytest
from channels.testing import ChannelsLiveServerTestCase
from playwright.sync_api import sync_playwright

from .conftest import CHROMIUM, CHROMIUM_ARGS

# The host's secret link, for every browser test (the live server process reads it too).
HOST_SECRET = "browser-tests-host-secret"
os.environ["BUNCO_HOST_SECRET"] = HOST_SECRET


@pytest.mark.browser
class BrowserTestCase(ChannelsLiveServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls._pw = sync_playwright().start()
        cls.browser = cls._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls._pw.stop()
        super().tearDownClass()
