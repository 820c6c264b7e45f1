"""ASGI entry point: HTTP through Django, websockets through Channels (origin-checked)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco.settings")
django.setup(set_prefix=False)

from asgiref.sync import sync_to_async  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402


class OneTripASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware and the view run in one trip to the sync
    thread. Django's own runs each (sync-and-async capable) middleware's hooks through a
    separate thread hop, a dozen per request, which cost more CPU than a tap's own work."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


django_asgi_app = OneTripASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from bunco.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # The app serves its own assets: a party's Wi-Fi may have no internet and no proxy.
        "http": ASGIStaticFilesHandler(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
