"""One process serves HTTP and WebSockets: Daphne runs this application.

WebSockets pass through the allowed-hosts origin check and the session/auth stack, so a
consumer always knows the member (or sees an anonymous user and refuses).

Everything loaded up to here (Django, the apps, URLs, templates, Twisted) lives as long as the process,
so it is moved out of the garbage collector's sight (`gc.freeze`): otherwise every full collection walks
those hundreds of thousands of objects again, and under load the process paused for 100-250 ms every few
seconds (the p99 of the bench's floor at 200 tables fell from 127-154 to 54 ms with this alone).
"""

from __future__ import annotations

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.asgi_handler import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()  # what get_asgi_application() returns, with one thread switch a request

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

gc.collect()
gc.freeze()
