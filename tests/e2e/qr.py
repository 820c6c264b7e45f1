"""Reading the QR codes a page shows, as a phone's camera would: a screenshot of the image."""

import io

import zxingcpp
from PIL import Image
from playwright.sync_api import Error as PlaywrightError


def read_qr(locator) -> str:
    """The link in the QR code ``locator`` (an element on the page) shows. A part of the page
    a push swaps while it is read is read again, as the person would look again."""
    for _ in range(3):
        try:
            return _read(locator)
        except PlaywrightError as exc:
            if "not attached" not in str(exc):
                raise
    return _read(locator)


def _read(locator) -> str:
    locator.scroll_into_view_if_needed()
    # A page of many codes loads them one after another: read this one once it has loaded.
    locator.evaluate("img => img.complete && img.naturalWidth > 0 || new Promise(ok => "
                     "img.addEventListener('load', () => ok(true), {once: true}))")
    image = Image.open(io.BytesIO(locator.screenshot()))
    found = zxingcpp.read_barcodes(image)
    assert found, "no QR code could be read from the page"
    return found[0].text


# -- a QR code printed in a terminal, read as a phone pointed at the window would ---------------

#: A terminal's own colours (grey levels, 0 black to 255 white): the text and the background
#: it draws with when a program sets none. macOS Terminal's default is "light".
TERMINALS = {"dark": {"text": 204, "background": 20}, "light": {"text": 25, "background": 255}}
#: The 16 ANSI colours' grey levels (xterm's palette): 0-7 normal, 8-15 bright.
PALETTE = [0, 80, 90, 150, 60, 110, 140, 229, 127, 150, 170, 220, 120, 180, 210, 255]
CELL_WIDTH, CELL_HEIGHT = 6, 12  # pixels a character takes; a half block is half its height
MARGIN = 4  # character cells of the terminal's own background all around (its window)


def render_terminal(text: str, terminal: str) -> Image.Image:
    """What ``text`` looks like in a terminal whose colours are ``terminal``'s: its ANSI
    colours (SGR codes: 0, 7, 27, 30-37, 39, 40-47, 49, 90-97, 100-107) and its block
    characters (full, upper half, lower half) drawn in grey levels."""
    own = TERMINALS[terminal]
    rows = []
    for line in text.splitlines():
        fg, bg, reverse, cells, i = None, None, False, [], 0
        while i < len(line):
            if line.startswith("\x1b[", i):
                end = line.index("m", i)
                for code in (int(c) if c else 0 for c in line[i + 2:end].split(";")):
                    if code == 0:
                        fg, bg, reverse = None, None, False
                    elif code in (7, 27):
                        reverse = code == 7
                    elif 30 <= code <= 37 or 90 <= code <= 97:
                        fg = PALETTE[code % 10 + (8 if code >= 90 else 0)]
                    elif 40 <= code <= 47 or 100 <= code <= 107:
                        bg = PALETTE[code % 10 + (8 if code >= 100 else 0)]
                    elif code == 39:
                        fg = None
                    elif code == 49:
                        bg = None
                i = end + 1
                continue
            ink = own["text"] if fg is None else fg
            paper = own["background"] if bg is None else bg
            if reverse:
                ink, paper = paper, ink
            top, bottom = {"\u2588": (ink, ink), "\u2580": (ink, paper),
                           "\u2584": (paper, ink)}.get(line[i], (paper, paper))
            cells.append((top, bottom))
            i += 1
        rows.append(cells)
    width = max(len(cells) for cells in rows) + 2 * MARGIN
    image = Image.new("L", (width * CELL_WIDTH, (len(rows) + 2 * MARGIN) * CELL_HEIGHT),
                      own["background"])
    half = CELL_HEIGHT // 2
    for y, cells in enumerate(rows, start=MARGIN):
        for x, (top, bottom) in enumerate(cells, start=MARGIN):
            left = x * CELL_WIDTH
            image.paste(top, (left, y * CELL_HEIGHT, left + CELL_WIDTH, y * CELL_HEIGHT + half))
            image.paste(bottom, (left, y * CELL_HEIGHT + half, left + CELL_WIDTH,
                                 (y + 1) * CELL_HEIGHT))
    return image


def read_terminal_qr(text: str, terminal: str) -> str | None:
    """The link in the QR code ``text`` draws, as it shows in a ``terminal`` ("dark" or
    "light") terminal; None when it does not scan. Dark modules must show darker than light
    ones, as on paper: phone cameras do not read a QR code drawn inverted."""
    found = zxingcpp.read_barcodes(render_terminal(text, terminal), try_invert=False)
    return found[0].text if found else None
