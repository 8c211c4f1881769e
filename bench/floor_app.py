"""The framework's floor: Daphne, Django's request handler and Channels serving the site's pattern, doing nothing else.

Why: the bare baseline (bench/baseline_server.py) says what Python can do with one WebSocket library; this
says what the site's own stack costs before the site does any work, so a move's CPU splits into "the
framework" (this) and "the club" (the site minus this). It is driven by the load generator's django mode,
exactly as the site is: a member's POST to /t/<code>/move/ (a sync Django view, run in a thread as the site's
are) bumps the table's version in memory, pushes through the in-memory channel layer in one hop to the
event loop (as tables/play/push.py does after commit), and answers with the mover's board; every socket of the
table at /ws/table/<code>/ (an AsyncWebsocketConsumer, as the site's) formats its own board of the site's
size. No database, no sessions, no middleware, no templates, no engine.

FLOOR_STACK=site (the default) runs the stack as the site configures it (config/asgi_handler.py: one thread
hop a request on kept threads; config/channel_layer.py: the in-memory layer's sweep once a second);
FLOOR_STACK=stock runs Django's and Channels' own (get_asgi_application, InMemoryChannelLayer).

    python -m bench.floor_app --tables 400 --out F        # the tables file the load generator reads
    daphne -b 127.0.0.1 -p 8300 bench.floor_app:application   # with FLOOR_BOARD_BYTES=<site's board size>
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

import django
from django.conf import settings

SITE_STACK = os.environ.get("FLOOR_STACK", "site") == "site"
LAYER = "config.channel_layer.SweepingInMemoryChannelLayer" if SITE_STACK else "channels.layers.InMemoryChannelLayer"

if not settings.configured:
    settings.configure(
        DEBUG=False,
        SECRET_KEY="bench-floor-only-0123456789abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=["channels"],
        MIDDLEWARE=[],
        DATABASES={},
        CHANNEL_LAYERS={"default": {"BACKEND": LAYER}},
        USE_TZ=True,
    )
    django.setup(set_prefix=False)

from asgiref.sync import async_to_sync  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed  # noqa: E402
from django.urls import path  # noqa: E402

from config.asgi_handler import SyncChainASGIHandler, freeze_startup_objects  # noqa: E402

BOARD_BYTES = int(os.environ.get("FLOOR_BOARD_BYTES", "6000"))
PADDING = "x" * max(0, BOARD_BYTES - 160)
_versions: dict[str, int] = defaultdict(lambda: 1)
_lock = threading.Lock()


def board(code: str, version: int, viewer: str) -> str:
    """A board as the load generator reads one: its version, one move on offer, the site's size."""
    return (f'<section id="board" class="board" data-version="{version}" hx-swap-oob="true" data-for="{viewer}">'
            f'<button data-move="x">x</button>{PADDING}</section>')


def move(request: HttpRequest, code: str, kind: str) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    with _lock:
        if request.POST.get("version") != str(_versions[code]):
            return HttpResponse("stale", status=409)
        _versions[code] += 1
        version = _versions[code]
    async_to_sync(get_channel_layer().group_send)(f"t.{code}", {"type": "table.changed", "version": version})
    return HttpResponse(board(code, version, request.COOKIES.get("sessionid", "")))


class FloorTable(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.viewer = str(id(self))
        await self.channel_layer.group_add(f"t.{self.code}", self.channel_name)
        await self.accept()
        await self.send(text_data=board(self.code, _versions[self.code], self.viewer))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(f"t.{self.code}", self.channel_name)

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=board(self.code, event["version"], self.viewer))


urlpatterns = [path("t/<str:code>/<str:kind>/", move)]
application = ProtocolTypeRouter({
    "http": SyncChainASGIHandler() if SITE_STACK else get_asgi_application(),
    "websocket": URLRouter([path("ws/table/<str:code>/", FloorTable.as_asgi())]),
})
if SITE_STACK:
    freeze_startup_objects()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    tables = [{"code": f"f{i:04d}", "game": "floor",
               "members": [{"username": f"f{i:04d}-{k}", "session": f"f{i:04d}-{k}"} for k in range(2)]}
              for i in range(args.tables)]
    args.out.write_text(json.dumps({"csrf": "floor", "tables": tables}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
