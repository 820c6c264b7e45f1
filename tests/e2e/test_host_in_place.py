"""The host's commands answer in place: on a long night page she adds a player, fixes a name,
seats the room, swaps two seats and starts the round, and the page never reloads under her
(the parts a command changed are swapped in where they are; the live parts come over the
socket). With JavaScript off the same forms still work, a page load each."""

import os
from pathlib import Path

from playwright.sync_api import expect

from bunco.night import services
from scoring import sample_names

from .base import HOST_SECRET, BrowserTestCase, in_thread

LAPTOP = {"viewport": {"width": 1280, "height": 720}}
ARTIFACTS = Path(os.environ.get("BUNCO_TEST_ARTIFACTS", "test-artifacts"))


class HostCommandsInPlace(BrowserTestCase):

    def open_night(self, context):
        night = in_thread(lambda: services.night_create(
            name="In place", rules_id="babz", player_names=sample_names(11)))
        page = context.new_page()
        page.goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
        page.goto(f"{self.live_server_url}/host/nights/{night.pk}/")
        return night, page

    def seated_night(self, context):
        """A night opened on the host's page and seated there (the swap form shows)."""
        night, page = self.open_night(context)
        page.get_by_role("button", name="Seat everyone").click()
        expect(page.get_by_text("Swap two seats")).to_be_visible()
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
        expect(box).to_have_value("Zelda Quinn")  # what she typed is still there to fix
        expect(page.get_by_test_id("here-count")).to_have_text("(12)")
        assert page.evaluate("window.sameLoad") is True

        # Seating changes the page's whole layout: the page is drawn again.
        page.get_by_role("button", name="Seat everyone").click()
        expect(page.get_by_text("Swap two seats")).to_be_visible()
        assert page.evaluate("window.sameLoad") is None
        page.evaluate("window.sameLoad = true")
        first, second = page.get_by_label("First player"), page.get_by_label("Second player")
        first.select_option(label="Zelda Quinn")
        other = next(name for name in second.locator("option").all_inner_texts()[1:]
                     if name != "Zelda Quinn")  # seated in a random order
        second.select_option(label=other)
        with page.expect_response(lambda r: r.url.endswith("/swap/")):
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

    def test_what_the_host_typed_elsewhere_survives_a_commands_answer(self):
        context = self.browser.new_context(**LAPTOP)
        night, page = self.seated_night(context)
        a, b, c = (p.name for p in night.players.order_by("name")[:3])
        # Half-filled, not sent: a swap's first pick, a late arrival's name, another name's fix
        # (the caret left inside it).
        first = page.get_by_label("First player")
        first.select_option(label=c)
        late = page.get_by_placeholder("Late arrival's name")
        late.fill("Walk In")
        b_box = page.get_by_label(f"Name of {b}")
        b_box.fill(f"{b} Junior")
        b_box.evaluate("e => { e.focus(); e.setSelectionRange(2, 2); }")
        # Meanwhile a fix of another name is sent; its answer draws the players and the swap
        # again (the caret stays where it was: the form is sent from the page).
        with page.expect_response(lambda r: r.url.endswith("/rename/")):
            page.get_by_label(f"Name of {a}").evaluate(
                "e => { e.value = e.value + ' Senior'; e.form.requestSubmit(); }")
        expect(page.get_by_label(f"Name of {a} Senior")).to_have_value(f"{a} Senior")
        expect(b_box).to_have_value(f"{b} Junior")
        expect(late).to_have_value("Walk In")
        expect(first).to_have_value(c)
        assert page.evaluate("[document.activeElement.getAttribute('aria-label'),"
                             " document.activeElement.selectionStart]") == [f"Name of {b}", 2]
        # What she kept is sent as she left it.
        b_box.locator("xpath=..").get_by_role("button", name="Fix name").click()
        expect(page.get_by_label(f"Name of {b} Junior")).to_be_visible()
        expect(late).to_have_value("Walk In")
        # A refused command: its form keeps her text, also through the next part drawn again.
        late.fill(c)
        with page.expect_response(lambda r: r.url.endswith("/arrive/")):
            page.get_by_role("button", name="Takes a ghost's chair").click()
        expect(page.locator("#host-messages .error")).to_be_visible()
        expect(late).to_have_value(c)
        with page.expect_response(lambda r: r.url.endswith("/rename/")):
            page.get_by_label(f"Name of {a} Senior").evaluate(
                "e => { e.value = 'Al'; e.form.requestSubmit(); }")
        expect(page.get_by_label("Name of Al")).to_be_visible()
        expect(late).to_have_value(c)
        context.close()

    def test_a_refusal_far_below_the_messages_is_said_where_she_is(self):
        context = self.browser.new_context(**LAPTOP)
        night, page = self.seated_night(context)
        name = night.players.order_by("name").first().name
        first = page.get_by_label("First player")
        first.scroll_into_view_if_needed()
        first.select_option(label=name)
        page.get_by_label("Second player").select_option(label=name)
        page.get_by_role("button", name="Swap", exact=True).click()
        expect(page.locator("#host-messages")).to_contain_text("pick two different")
        assert not page.locator("#host-messages").is_visible() or page.evaluate(
            "document.getElementById('host-messages').getBoundingClientRect().bottom < 0")
        toast = page.locator("#toast")
        expect(toast).to_contain_text("pick two different seated people to swap")
        box = toast.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["viewport"]["height"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "host-refusal-below.png"))
        expect(first).to_have_value(name)  # nothing lost: her picks are still there to fix
        context.close()

    def test_the_hosts_pages_fit_her_phone(self):
        """The host runs the night from a laptop, but may glance at it on her phone: no page
        is wider than the phone (a wide table scrolls in its own box)."""
        context = self.browser.new_context(viewport={"width": 360, "height": 740})
        night, page = self.open_night(context)
        for path in ("", "rules/", "awards/"):
            page.goto(f"{self.live_server_url}/host/nights/{night.pk}/{path}")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
        page.goto(f"{self.live_server_url}/host/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
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
