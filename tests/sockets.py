"""Opening sockets as a given member, through the real ASGI stack (origin check, session auth)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def communicator(path: str, *, user: User | None = None, origin: str = "http://127.0.0.1:8000",
                 cookie: str | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")]
    if cookie is None and user is not None:
        cookie = session_cookie(user)
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)
