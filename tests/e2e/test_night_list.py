"""The host's list of nights in a real Chromium: an old night archived (off the list, under
"Archived nights", back again), and nights deleted after a page naming them asks, a night in
play only with one more tick; the night's file is in the backups folder first."""

import tempfile
from pathlib import Path

from django.test import override_settings
from playwright.sync_api import expect

from bunco.models import Night
from bunco.night import services
from scoring import sample_names
from tests.playing import play_round

from .base import HOST_SECRET, BrowserTestCase, in_thread

BACKUPS = Path(tempfile.mkdtemp(prefix="bunco-deleted-"))
LAPTOP = {"width": 1280, "height": 900}


@override_settings(BUNCO_BACKUP_DIR=BACKUPS)
class NightList(BrowserTestCase):

    def test_archive_and_delete_from_the_list(self):
        def nights():
            old = services.night_create(name="January Bunco", rules_id="babz",
                                        player_names=sample_names(8))
            live = services.night_create(name="March Bunco", rules_id="babz",
                                         player_names=sample_names(8))
            services.night_seat(night=live)
            play_round(live)
            return old, live

        old, live = in_thread(nights)
        host = self.browser.new_context(viewport=LAPTOP).new_page()
        host.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        listed = host.get_by_test_id("nights")
        expect(listed).to_contain_text("January Bunco")

        # Archived: off the list, under "Archived nights", and back again.
        host.get_by_role("button", name="Archive January Bunco").click()
        expect(host.get_by_text("“January Bunco” is archived")).to_be_visible()
        expect(listed).not_to_contain_text("January Bunco")
        host.get_by_role("link", name="Archived nights (1)").click()
        expect(host.get_by_test_id("archived")).to_contain_text("January Bunco")
        host.get_by_role("button", name="un-archive").click()
        expect(host.get_by_text("“January Bunco” is back on your list")).to_be_visible()
        expect(host.get_by_test_id("nights")).to_contain_text("January Bunco")

        # Deleted after a page that names it; its file saved first.
        host.get_by_role("link", name="Delete January Bunco").click()
        expect(host.locator("h1")).to_have_text("Delete “January Bunco”?")
        expect(host.get_by_test_id("live-warning")).to_have_count(0)
        host.get_by_role("button", name="Delete “January Bunco”").click()
        expect(host.get_by_text("“January Bunco” is deleted")).to_be_visible()
        expect(host.get_by_test_id("nights")).not_to_contain_text("January Bunco")
        assert not Night.objects.filter(pk=old.pk).exists()
        assert len(list(BACKUPS.glob("deleted-night-*-january-bunco-*.json"))) == 1

        # A night in play: the page warns, and without the tick nothing is deleted.
        host.get_by_role("link", name="Delete March Bunco").click()
        expect(host.get_by_test_id("live-warning")).to_contain_text("being played now")
        host.get_by_role("button", name="Delete “March Bunco”").click()
        expect(host.locator("h1")).to_have_text("Delete “March Bunco”?")  # still asking
        assert Night.objects.filter(pk=live.pk).exists()
        host.get_by_label("Yes, delete it while it is being played").check()
        host.get_by_role("button", name="Delete “March Bunco”").click()
        expect(host.get_by_text("“March Bunco” is deleted")).to_be_visible()
        assert not Night.objects.filter(pk=live.pk).exists()
