from __future__ import annotations

from django.urls import path

from tables import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", consumers.TableConsumer.as_asgi()),
]
