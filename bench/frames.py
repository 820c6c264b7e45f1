"""What a load test screen reads of the server's frames, as the pages do, and the deflate a
browser offers: the id and ``data-seq`` of each element a frame draws, and the sync message a
page sends with what it shows. Nothing here imports Django."""

from __future__ import annotations

import json

from websockets.asyncio.client import ClientConnection
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame


class _ReceiveOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that inflates what the server sends and sends its own frames as
    they are (RFC 7692 allows either, message by message)."""

    on_wire = 0  # the payload bytes of the last frame read, as they came over the network

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        self.on_wire = len(frame.data)
        return super().decode(frame, max_size=max_size)

    def encode(self, frame: Frame) -> Frame:
        return frame


def on_wire(ws: ClientConnection, message: bytes) -> int:
    """How many bytes ``message`` (the last one read) took on the wire: deflated, or as it
    is where the server did not take up the offer."""
    for extension in ws.protocol.extensions:
        if isinstance(extension, _ReceiveOnlyDeflate):
            return extension.on_wire
    return len(message)


class BrowserDeflate(ClientPerMessageDeflateFactory):
    """What a browser's socket does: it offers permessage-deflate (Chromium, Firefox and
    Safari all do, ``client_max_window_bits``), so the server may send big frames deflated,
    but sends its own small messages uncompressed (Chromium was seen to)."""

    def __init__(self) -> None:
        super().__init__(client_max_window_bits=True)

    def process_response_params(self, params, accepted_extensions):
        stock = super().process_response_params(params, accepted_extensions)
        return _ReceiveOnlyDeflate(stock.remote_no_context_takeover,
                                   stock.local_no_context_takeover,
                                   stock.remote_max_window_bits, stock.local_max_window_bits)


def element(data: bytes, start: int) -> tuple[str, int | None, int, int]:
    """The element whose ``id="`` is at ``start``: its id, its data-seq (None without one),
    and where its id and its opening tag end."""
    close = data.find(b'"', start + 4)
    end = data.find(b">", close)
    mark = data.find(b'data-seq="', close, end)
    digits = data[mark + 10:data.find(b'"', mark + 10)] if mark >= 0 else b""
    return data[start + 4:close].decode(), int(digits) if digits.isdigit() else None, close, end


def head(data: bytes) -> tuple[str, int, bool] | None:
    """The id, data-seq and rung bell of a frame's first element, or None."""
    start = data.find(b'id="')
    if start < 0:
        return None
    ident, seq, close, end = element(data, start)
    if seq is None:
        return None
    return ident, seq, data.find(b'data-bell-rung="1"', close, end) >= 0


def inner_tables(data: bytes) -> list[tuple[str, int]]:
    """The id and data-seq of every table fragment in a frame."""
    found, at = [], data.find(b'id="table-')
    while at >= 0:
        ident, seq, _, end = element(data, at)
        if seq is not None:
            found.append((ident, seq))
        at = data.find(b'id="table-', end)
    return found


def shown_in(data: bytes, shown: dict[str, int]) -> None:
    """Every element with an id and a data-seq in a frame, as the page then shows it."""
    at = data.find(b'id="')
    while at >= 0:
        ident, seq, _, end = element(data, at)
        if seq is not None:
            shown[ident] = seq
        at = data.find(b'id="', max(end, at + 4))


def sync_message(shown: dict[str, int]) -> str:
    """What the page's periodic sync says (live.js ``syncMessage``): each fragment's id and
    seq, its tables in compact form (tables[n - 1]: the seq of table n shown, 0 where none)."""
    shows: dict[str, int] = {}
    tables: list[int] = []
    for ident, seq in shown.items():
        number = ident[6:] if ident.startswith("table-") else ""
        if not number.isdigit() or int(number) > 2000:
            shows[ident] = seq
            continue
        n = int(number)
        tables.extend([0] * (n - len(tables)))
        tables[n - 1] = seq
    return json.dumps({"type": "sync", "shows": shows, "tables": tables})
