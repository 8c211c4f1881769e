"""The site's ASGI handler (config/asgi_handler.py): a request runs on one thread from start to end, threads
are kept for the next request instead of started and joined for each, requests at the same time still get
threads of their own, and a request's database connection is closed when it ends, as before."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import path

from accounts.models import User
from config.asgi_handler import SyncChainASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)
release = threading.Event()
connections: dict[int, object] = {}


@login_not_required
def whoami(request: HttpRequest) -> HttpResponse:
    User.objects.exists()  # opens this thread's connection
    connections[threading.get_ident()] = connection
    if request.GET.get("wait"):
        release.wait(10)
    return HttpResponse(str(threading.get_ident()))


urlpatterns = [path("whoami/", whoami)]


async def get(handler: SyncChainASGIHandler, query: str = "") -> int:
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": "/whoami/", "raw_path": b"/whoami/",
             "root_path": "", "scheme": "http", "query_string": query.encode(), "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}
    app = ApplicationCommunicator(handler, scope)
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await app.receive_output(10)
    assert start["status"] == 200
    body = await app.receive_output(10)
    await app.wait(10)
    return int(body["body"])


@override_settings(ROOT_URLCONF=__name__)
async def test_threads_are_kept_from_one_request_to_the_next_and_connections_still_closed() -> None:
    handler = SyncChainASGIHandler()
    threads_before = threading.active_count()
    first = await get(handler)
    second = await get(handler)
    third = await get(handler)
    assert first == second == third  # one kept thread served all three, one after the other
    assert threading.active_count() <= threads_before + 1
    assert connections[first].connection is None  # closed at the end of the request (CONN_MAX_AGE 0)


@override_settings(ROOT_URLCONF=__name__)
async def test_requests_at_the_same_time_get_threads_of_their_own() -> None:
    handler = SyncChainASGIHandler()
    release.clear()
    waiting = asyncio.ensure_future(get(handler, "wait=1"))  # holds its thread until released
    await asyncio.sleep(0.2)
    meanwhile = await get(handler)  # not queued behind the waiting one
    release.set()
    held = await waiting
    assert held != meanwhile
    assert await get(handler) in {held, meanwhile}  # both threads kept for later requests
