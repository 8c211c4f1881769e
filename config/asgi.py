"""One process serves HTTP and WebSockets: Daphne runs this application.

WebSockets pass through the same-origin check (config/ws_origin.py: the rule of Django's CSRF check)
and the session/auth stack, so a consumer always knows the member (or sees an anonymous user and refuses).

Everything loaded up to here lives as long as the process and is frozen out of the garbage collector's
sight (see `freeze_startup_objects`).
"""

from __future__ import annotations

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.asgi_handler import SyncChainASGIHandler, freeze_startup_objects  # noqa: E402

django_asgi_app = SyncChainASGIHandler()  # what get_asgi_application() returns, with one thread switch a request

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.ws_origin import SameOriginValidator  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


def _start_with_the_server() -> None:
    """The table clock and quick play's sweeper belong to the server, not to whoever opens a page first: under
    Daphne they start as soon as its reactor runs (a `callLater` before it runs fires on its asyncio loop, once
    running). Elsewhere they start with the first socket (tables.play.sockets.start_process_tasks)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None and hasattr(reactor, "callLater"):
        from tables.play.sockets import start_process_tasks

        reactor.callLater(0, start_process_tasks)


def _stop_reading_flooders() -> None:
    """Under Daphne, a socket closed for its rate is dropped once the close is out (config/daphne_stop.py)."""
    from config.daphne_stop import install
    from tables.play.sockets import CLOSE_TOO_FAST

    install(codes=[CLOSE_TOO_FAST])


_start_with_the_server()
_stop_reading_flooders()
freeze_startup_objects()
