"""Every screen reads at a glance, in Chromium: the phones (a table's and a guest's), the
host's night page and the TV, at a phone's, a laptop's and a TV's size (the TV at 1080p and
720p, for 3, 10 and 40 tables): nothing wider than the screen, no text outside it or cut
off, and every TV panel wholly on the screen. Screenshots go to test-artifacts/."""

import random
from pathlib import Path

from bunco.models import TableLink
from bunco.night import services
from scoring import sample_names
from tests.fit import PHONE_SIZES, PROBLEMS_FN, ROOM_TABLES, TV_PANELS, TV_SIZES
from tests.playing import play_round, roll

from .base import HOST_SECRET, BrowserTestCase, in_thread

SHOTS = Path("test-artifacts")


def room(tables: int):
    """A night of ``tables`` tables in its second round: the races, the standings and a
    table's rolls all have something to show."""
    def setup():
        night = services.night_create(name=f"Fit {tables}", rules_id="babz",
                                      entry_fee_cents=1000,
                                      player_names=sample_names(4 * tables))
        services.night_seat(night=night, rng=random.Random(5))
        play_round(night)
        services.round_start(night=night)
        roll(night, 1, quick="mini")
        roll(night, 1, quick="miss")
        return night

    return in_thread(setup)


def said(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{shot}: {problem}" for shot, problems in found.items()
                     for problem in problems)


class ScreensFit(BrowserTestCase):

    def look(self, context, path: str, shot: str, panels=()) -> list[str]:
        """Open ``path`` (its socket open, its scripts run), save a screenshot, and say what
        does not read at a glance."""
        page = context.new_page()
        page.goto(f"{self.live_server_url}{path}")
        page.wait_for_function("document.readyState === 'complete' && !!(window.bunco && "
                               "window.bunco.open)")
        # Every card opened ("How we play tonight", "My scorecard"): what it shows fits too.
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"fit-{shot}.png"), full_page=not panels)
        problems = page.evaluate(PROBLEMS_FN, list(panels))
        page.close()
        return problems

    def test_the_tv_fits_its_panels_at_every_room_size(self):
        found = {}
        for tables in ROOM_TABLES:
            night = room(tables)
            for when in ("playing", "between-rounds"):  # the tables, then the next seats
                if when != "playing":
                    in_thread(lambda night=night: play_round(night, start=False))
                for width, height in TV_SIZES:
                    context = self.browser.new_context(
                        viewport={"width": width, "height": height})
                    shot = f"tv-{tables}-tables-{when}-{width}x{height}"
                    found[shot] = self.look(context, f"/tv/{night.tv_token}/", shot, TV_PANELS)
                    context.close()
        assert not any(found.values()), said(found)

    def test_the_phones_and_the_hosts_page_fit_every_screen(self):
        night = room(10)
        table = TableLink.objects.get(night=night, number=1)
        guest = night.players.order_by("pk").first()
        found = {}
        for width, height in PHONE_SIZES:
            context = self.browser.new_context(viewport={"width": width, "height": height})
            size = f"{width}x{height}"
            found[f"table-{size}"] = self.look(context, f"/t/{table.token}/", f"table-{size}")
            found[f"guest-{size}"] = self.look(context, f"/p/{guest.token}/", f"guest-{size}")
            context.new_page().goto(f"{self.live_server_url}/host/{HOST_SECRET}/")
            found[f"host-{size}"] = self.look(context, f"/host/nights/{night.pk}/",
                                              f"host-{size}")
            context.close()
        assert not any(found.values()), said(found)
