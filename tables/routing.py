from __future__ import annotations

from django.urls import path, re_path

from tables.lobby.consumers import LobbyConsumer
from tables.play.consumers import TableConsumer
from tables.play.sockets import UnknownPathConsumer
from tables.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),  # last: anything else is refused with 4404
]
