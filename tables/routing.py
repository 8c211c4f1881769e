from __future__ import annotations

from django.urls import path, re_path

from tables import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", consumers.TableConsumer.as_asgi()),
    re_path(r"", consumers.UnknownPathConsumer.as_asgi()),  # last: anything else is refused with 4404
]
