"""Websocket routes for every screen kind."""

from django.urls import path

from bunco.consumers import HostConsumer, PingConsumer, PlayerConsumer, TvConsumer
from tables.routing import websocket_urlpatterns as table_patterns

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/tv/<str:token>/", TvConsumer.as_asgi()),
    path("ws/host/<int:night_id>/", HostConsumer.as_asgi()),
    path("ws/player/<str:token>/", PlayerConsumer.as_asgi()),
    *table_patterns,
]
