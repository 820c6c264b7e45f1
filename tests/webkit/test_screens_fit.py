"""Every screen reads at a glance in WebKit too (Safari's engine, an iPhone's and an iPad's):
the phones, the host's night page and the TV at the sizes tests/e2e/test_screens_fit.py looks
at in Chromium, with the same check (tests/fit.py). Screenshots go to test-artifacts/."""

from bunco.models import TableLink
from tests.e2e.base import HOST_SECRET, LAN_ADDRESS, in_thread
from tests.e2e.test_screens_fit import SHOTS, room, said
from tests.fit import PHONE_SIZES, PROBLEMS, ROOM_TABLES, TV_PANELS, TV_SIZES
from tests.playing import play_round

from .base import WebKitTestCase, wait

#: A page's copy in a frame of the size given, over the page, at the window's top left.
FRAME = """
const frame = document.createElement("iframe");
frame.id = frame.name = "fit-frame";
frame.style.cssText = `position: fixed; top: 0; left: 0; border: 0; z-index: 2147483647;
  width: ${arguments[1]}px; height: ${arguments[2]}px`;
frame.srcdoc = arguments[0];
document.body.appendChild(frame);
"""


class ScreensFitInWebKit(WebKitTestCase):

    def sized(self, driver, width: int, height: int) -> bool:
        """The page's own viewport at ``width`` x ``height`` (the window is a little larger:
        its frame, any bar the browser draws); False where the window cannot get that narrow
        (MiniBrowser's toolbar keeps it 447 px or wider)."""
        driver.set_window_size(width, height)
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
        return driver.execute_script(f"return window.innerWidth === {width} && "
                                     f"window.innerHeight === {height}")

    def look(self, driver, path: str, shot: str, size: tuple[int, int],
             panels=()) -> list[str]:
        """Open ``path`` at ``size`` (its scripts run, its socket open), save a screenshot
        and say what does not read at a glance. Narrower than the window can be, the page
        is drawn in a frame of that size: the same page, its own copy (``srcdoc``, so
        the page's refusal to be framed by another site does not apply), and a real
        viewport of that width for its layout."""
        driver.switch_to.default_content()
        driver.get(f"http://{LAN_ADDRESS}:{self._port}{path}")
        loaded = ("return document.readyState === 'complete' && !!(window.bunco && "
                  "window.bunco.open)")
        wait(driver, loaded, f"{path} loaded, its socket open")
        if not self.sized(driver, *size):
            page = driver.execute_script("return fetch(location.href).then(r => r.text())")
            driver.execute_script(FRAME, page, *size)
            driver.switch_to.frame("fit-frame")
            wait(driver, loaded, f"{path} loaded in a {size} frame, its socket open")
        driver.execute_script("document.querySelectorAll('details').forEach(d => { "
                              "d.open = true; })")
        SHOTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"webkit-{shot}.png"))
        return driver.execute_script(PROBLEMS, list(panels))

    def test_every_screen_fits_in_webkit(self):
        night = room(10)
        table = TableLink.objects.get(night=night, number=1)
        guest = night.players.order_by("pk").first()
        driver = self.phone(f"http://{LAN_ADDRESS}:{self._port}/host/{HOST_SECRET}/")
        found = {}
        for size in PHONE_SIZES:
            at = "x".join(map(str, size))
            for shot, path in ((f"table-{at}", f"/t/{table.token}/"),
                               (f"guest-{at}", f"/p/{guest.token}/"),
                               (f"host-{at}", f"/host/nights/{night.pk}/")):
                found[shot] = self.look(driver, path, shot, size)
        for tables in ROOM_TABLES:
            tv = night if tables == 10 else room(tables)
            for when in ("playing", "between-rounds"):  # the tables, then the next seats
                if when != "playing":
                    in_thread(lambda tv=tv: play_round(tv, start=False))
                for size in TV_SIZES:
                    shot = f"tv-{tables}-tables-{when}-{'x'.join(map(str, size))}"
                    found[shot] = self.look(driver, f"/tv/{tv.tv_token}/", shot, size,
                                            TV_PANELS)
        assert not any(found.values()), said(found)
