"""Websocket routes of every face, wired together (the project's wiring, not the core)."""

from channels.sessions import SessionMiddleware
from django.urls import path

from bunco.host.consumers import HostConsumer
from bunco.live.consumers import PingConsumer
from bunco.tv.consumers import TvConsumer
from tables.routing import websocket_urlpatterns as phone_patterns

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/tv/<str:token>/", TvConsumer.as_asgi()),
    # Only the host's screen signs in with a session (bunco.asgi gives every route cookies).
    path("ws/host/<int:night_id>/", SessionMiddleware(HostConsumer.as_asgi())),
    *phone_patterns,
]
