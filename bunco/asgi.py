"""ASGI entry point: HTTP through Django, websockets through Channels (same-origin checked)."""

import asyncio
import logging
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco.settings")
django.setup(set_prefix=False)


from bunco import inputs, proxies, runtime  # noqa: E402
from bunco.runtime import body as bodies  # noqa: E402
from bunco.runtime import collector, door, posts, pushes  # noqa: E402

# Everything the server runs beyond the stock path, installed once, in order
# (bunco/runtime/__init__.py); BUNCO_STOCK leaves any piece out.
TUNED = runtime.install()
# A body past the limit is refused as it arrives, before the server keeps any of it.
bodies.install(inputs.MAX_BODY, door.refused_body)
# A phone's form post read and answered in one step when it arrives whole (posts.py).
if TUNED["posts"]:
    posts.install(inputs.MAX_BODY)
log = logging.getLogger(__name__)
GC_TUNED = TUNED["collector"]

django_asgi_app = door.PartyASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from bunco.origin import SameOriginValidator  # noqa: E402
from bunco.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        # The app serves its own assets (WhiteNoise, in the middleware): a party's Wi-Fi may
        # have no internet and no proxy.
        "http": django_asgi_app,
        # Cookies for every screen (a phone's own secret); the session only for the host's
        # (bunco/routing.py): Channels' session wrapper looks at it on every frame sent.
        "websocket": SameOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope, receive, send):
    if scope["type"] in ("http", "websocket"):
        # Its address and scheme as the client made it, told by a trusted proxy only.
        scope = proxies.forwarded(scope)
    loop = asyncio.get_running_loop()
    pushes.serve_on(loop)
    if GC_TUNED:  # no long pauses of the garbage collector (collector.py)
        collector.collector.start(loop)
    await router(scope, receive, send)
