from django.urls import path

from tables.consumers import PlayerConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:token>/", TableConsumer.as_asgi()),
    path("ws/player/<str:token>/", PlayerConsumer.as_asgi()),
]
