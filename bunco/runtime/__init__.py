"""What the server needs beyond the stock Daphne, Twisted and Channels, installed once by
``bunco/asgi.py``. Each piece checks at start that the internals it leans on are there; if one
is missing (a newer version renamed it) it warns once and the stock path runs instead."""

import os

#: The pieces, each of which ``BUNCO_STOCK`` (a comma list, or "all") leaves stock, to measure
#: what it buys (bench/: ``manage.py loadtest --stock``).
PIECES = ("write", "framing", "deflate", "backlog", "collector", "layer")


def stock(piece: str) -> bool:
    """Whether this process runs ``piece`` stock (BUNCO_STOCK names it, or says "all")."""
    assert piece in PIECES, piece
    said = {p.strip() for p in os.environ.get("BUNCO_STOCK", "").split(",")}
    return piece in said or "all" in said
