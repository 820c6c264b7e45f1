"""BUNCO_STOCK leaves a piece of the server's tuning stock, to measure what it buys: the
server then runs Channels' own layer, Twisted's own write, autobahn's own framing, pages
syncing on a timer, the log written by the ORM's own statements."""

import os
import subprocess
import sys

from django.conf import settings

PROBE = """
import django, json
django.setup()
import bunco.asgi as asgi
from django.conf import settings
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import tcp
from bunco.runtime import wire
from bunco.live.consumers import ScreenConsumer
from bunco.live.watch import watch
from bunco.runtime.consumer import DirectDispatch
from bunco.live.screens import table
from django.template import engines
from bunco.night.services import runner
from twisted.web import http
from bunco.runtime import posts
sends = WebSocketProtocol.serverSend is wire._send  # one wrapper: the bound, then framing
print(json.dumps({
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "write": tcp.Connection.write is wire._write,
    "framing": sends and "framing" in wire.installed,
    "reading": WebSocketProtocol.dataReceived is wire._read,
    "backlog": sends and "backlog" in wire.installed,
    "collector": asgi.GC_TUNED,
    "handler": type(asgi.django_asgi_app).__mro__[1].__name__,
    "dispatch": ScreenConsumer.dispatch is DirectDispatch.dispatch,
    "watch": watch.looking,
    "jinja": type(engines[table.ENGINE].env).__name__ == "Fragments",
    "statements": runner._append is not runner._saved,
    "posts": http.HTTPChannel.dataReceived is posts._dataReceived,
}))
"""


def probe(stock: str) -> dict:
    import json

    env = {**os.environ, "BUNCO_STOCK": stock, "DJANGO_SETTINGS_MODULE": "bunco.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=settings.BASE_DIR,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_the_server_runs_tuned_unless_told_otherwise():
    tuned = probe("")
    assert tuned == {"layer": "bunco.runtime.layer.PartyChannelLayer", "write": True,
                     "framing": True, "reading": True, "backlog": True, "collector": True,
                     "handler": "OneTripHandler", "dispatch": True, "watch": True,
                     "jinja": True, "statements": True, "posts": True}


def test_each_piece_can_be_left_stock():
    assert probe("all") == {"layer": "channels.layers.InMemoryChannelLayer", "write": False,
                            "framing": False, "reading": False, "backlog": False,
                            "collector": False, "handler": "ASGIHandler", "dispatch": False,
                            "watch": False, "jinja": False, "statements": False,
                            "posts": False}
    some = probe("write,layer,framing")
    assert some["layer"] == "channels.layers.InMemoryChannelLayer" and not some["write"]
    assert not some["framing"] and some["backlog"]  # the bound alone wraps serverSend
    assert some["reading"] and some["collector"] and some["watch"] and some["jinja"]
    assert some["statements"] and some["posts"]


def test_the_tuning_runs_on_the_versions_it_was_measured_on():
    from bunco.runtime import MEASURED_ON, check_versions

    pinned = dict(line.strip().split("==") for line in
                  (settings.BASE_DIR / "constraints.txt").read_text().splitlines()
                  if "==" in line and not line.startswith("#"))
    for name, version in MEASURED_ON.items():
        assert pinned[name] == version, f"constraints.txt pins {name} {pinned[name]}"
    assert check_versions() == []

