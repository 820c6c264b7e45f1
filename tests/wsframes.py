"""Websocket frames as a browser sends them, for tests that talk to the server byte by byte."""

import os
import struct


def masked(payload: bytes, first: int = 0x81) -> bytes:
    """One client frame (RFC 6455 5.2): ``first`` its first byte (a final text frame unless
    told), masked, its length minimally encoded."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes((first, 0x80 | n))
    elif n < 65536:
        head = struct.pack("!BBH", first, 0xFE, n)
    else:
        head = struct.pack("!BBQ", first, 0xFF, n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
