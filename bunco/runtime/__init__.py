"""What the server needs beyond the stock Daphne, Twisted and Channels, installed once by
``bunco/asgi.py``. Each piece checks at start that the internals it leans on are there; if one
is missing (a newer version renamed it) it warns once and the stock path runs instead."""

import logging
import os
from importlib import metadata

#: The versions the tuning here was measured on (constraints.txt pins the same; a test checks).
#: Another version still runs it, each piece checking what it leans on, with one warning.
MEASURED_ON = {"Twisted": "26.10.0", "daphne": "4.2.3", "autobahn": "26.10.2",
               "channels": "4.3.2"}

#: The pieces, in the order they are installed, each of which ``BUNCO_STOCK`` (a comma list,
#: or "all") leaves stock, to measure what it buys (bench/: ``manage.py loadtest --stock``).
#: ``wire.py``: ``write`` (Twisted's write), ``framing`` and ``backlog`` (autobahn's
#: ``serverSend``, one wrapper: the bound first, then the framing), ``reading``, ``deflate``;
#: ``posts.py`` (a phone's form post read in one step, installed by ``bunco/asgi.py``);
#: ``collector.py``; ``layer.py`` (the settings' channel layer); ``handler.py`` (the ASGI
#: handler); ``consumer.py`` (``dispatch``); ``watch.py`` (the server looks, pages do not
#: sync); ``jinja.py`` (the engine of the hot fragments, chosen by the settings);
#: ``statements.py`` (the log's two writes, compiled once). How pushes leave (``pushes.py``)
#: is no piece: its one path is the stock one.
PIECES = ("write", "framing", "backlog", "reading", "deflate", "posts", "collector", "layer",
          "handler", "dispatch", "watch", "jinja", "statements")


def stock(piece: str) -> bool:
    """Whether this process runs ``piece`` stock (BUNCO_STOCK names it, or says "all")."""
    assert piece in PIECES, piece
    said = {p.strip() for p in os.environ.get("BUNCO_STOCK", "").split(",")}
    return piece in said or "all" in said


def check_versions() -> list[str]:
    """The packages whose installed version is not the one the tuning was measured on (one
    warning names them)."""
    other = []
    for name, version in MEASURED_ON.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            other.append(f"{name} {installed} (measured on {version})")
    if other:
        logging.getLogger(__name__).warning(
            "the server's tuning was measured on other versions: %s", ", ".join(other))
    return other


def install() -> dict[str, bool]:
    """Install every piece this process runs tuned, once, at start (``bunco/asgi.py``), in the
    order of ``PIECES``: Twisted's and autobahn's methods first (``wire``, one wrapper each).
    The others are chosen where they are used: the collector on the server's loop, the layer
    by the settings, the handler and the consumers' base where they are defined, the watch
    when its module loads, the fragments' engine by the settings, the log's statements when
    Django starts (``bunco/apps.py``, for every process). Says which pieces run tuned."""
    from bunco.runtime import wire

    check_versions()
    on = {piece: not stock(piece) for piece in PIECES}
    wire.install([piece for piece in wire.PIECES if on[piece]])
    return on
