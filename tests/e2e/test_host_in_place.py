"""The host's commands answer in place: on a long night page she adds a player, fixes a name,
seats the room, swaps two seats and starts the round, and the page never reloads under her
(the parts a command changed are swapped in where they are; the live parts come over the
socket). With JavaScript off the same forms still work, a page load each."""

from playwright.sync_api import expect

from bunco.night import services
from scoring import sample_names

from .base import HOST_SECRET, BrowserTestCase, in_thread

LAPTOP = {"viewport": {"width": 1280, "height": 720}}


class HostCommandsInPlace(BrowserTestCase):

    def open_night(self, context):
        night = in_thread(lambda: services.night_create(
            name="In place", rules_id="babz", player_names=sample_names(11)))
        page = context.new_page()
        page.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        page.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        return night, page

    def test_commands_change_the_page_where_they_are_without_a_reload(self):
        context = self.browser.new_context(**LAPTOP)
        night, page = self.open_night(context)
        page.evaluate("window.sameLoad = true")
        box = page.locator("textarea[name=players]")
        box.scroll_into_view_if_needed()
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        box.fill("Zelda Quinn")
        page.get_by_role("button", name="Add: they are here").click()
        expect(page.locator("#players .name", has_text="Zelda Quinn")).to_be_visible()
        expect(page.get_by_test_id("here-count")).to_have_text("(12)")
        assert page.evaluate("window.sameLoad") is True  # no reload
        assert abs(page.evaluate("window.scrollY") - scrolled) < 50  # her place kept
        assert box.input_value() == ""

        # A refusal is said in words, in place, and changes nothing.
        box.fill("Zelda Quinn")
        page.get_by_role("button", name="Add: they are here").click()
        expect(page.locator("#host-messages")).to_contain_text("already")
        expect(page.get_by_test_id("here-count")).to_have_text("(12)")
        assert page.evaluate("window.sameLoad") is True

        # Seating changes the page's whole layout: the page is drawn again.
        page.get_by_role("button", name="Seat everyone").click()
        expect(page.get_by_text("Swap two seats")).to_be_visible()
        assert page.evaluate("window.sameLoad") is None
        page.evaluate("window.sameLoad = true")
        first, second = page.get_by_label("First player"), page.get_by_label("Second player")
        first.select_option(label="Zelda Quinn")
        second.select_option(index=2)
        page.get_by_role("button", name="Swap", exact=True).click()
        expect(page.locator("#host-messages")).to_be_empty()
        expect(first).to_have_value("")  # the swap form drawn again, nothing preselected

        # Fixing a name: the players' list comes back with it; the page stays.
        rename = page.get_by_label("Name of Zelda Quinn")
        rename.fill("Zelda Q.")
        rename.locator("xpath=..").get_by_role("button", name="Fix name").click()
        expect(page.get_by_label("Name of Zelda Q.")).to_be_visible()

        # The round starts: the banner comes over the socket, the swap goes away in place.
        page.get_by_role("button", name="Ring the bell: start").click()
        expect(page.get_by_text("Swap two seats")).to_have_count(0)
        expect(page.locator("#banner")).to_have_attribute("data-phase", "playing")
        assert page.evaluate("window.sameLoad") is True
        context.close()

    def test_without_javascript_the_forms_still_work(self):
        context = self.browser.new_context(java_script_enabled=False, **LAPTOP)
        night, page = self.open_night(context)
        page.locator("textarea[name=players]").fill("Zelda Quinn")
        page.get_by_role("button", name="Add: they are here").click()
        expect(page.locator("#players .name", has_text="Zelda Quinn")).to_be_visible()
        page.get_by_role("button", name="Seat everyone").click()
        expect(page.get_by_text("Swap two seats")).to_be_visible()
        context.close()
