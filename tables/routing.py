from django.urls import path

from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:token>/", TableConsumer.as_asgi()),
]
