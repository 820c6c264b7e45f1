"""Websocket consumers owned by the night itself."""

from channels.generic.websocket import JsonWebsocketConsumer


class PingConsumer(JsonWebsocketConsumer):
    """Answers a ping, so a screen (and a test) can tell its websocket is really connected."""

    def connect(self) -> None:
        self.accept()

    def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            self.send_json({"type": "pong"})
        else:
            self.send_json({"type": "error", "message": "unknown message"})
