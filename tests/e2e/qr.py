"""Reading the QR codes a page shows, as a phone's camera would: a screenshot of the image."""

import io

import zxingcpp
from PIL import Image


def read_qr(locator) -> str:
    """The link in the QR code ``locator`` (an element on the page) shows."""
    locator.scroll_into_view_if_needed()
    # A page of many codes loads them one after another: read this one once it has loaded.
    locator.evaluate("img => img.complete && img.naturalWidth > 0 || new Promise(ok => "
                     "img.addEventListener('load', () => ok(true), {once: true}))")
    image = Image.open(io.BytesIO(locator.screenshot()))
    found = zxingcpp.read_barcodes(image)
    assert found, "no QR code could be read from the page"
    return found[0].text
