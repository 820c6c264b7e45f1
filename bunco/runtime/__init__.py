"""What the server needs beyond the stock Daphne, Twisted and Channels, installed once by
``bunco/asgi.py``. Each piece checks at start that the internals it leans on are there; if one
is missing (a newer version renamed it) it warns once and the stock path runs instead."""
