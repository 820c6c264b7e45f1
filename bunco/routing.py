"""Websocket routes for every screen kind."""

from django.urls import path

from bunco.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
