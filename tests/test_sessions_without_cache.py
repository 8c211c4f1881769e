"""A logged-in member's pages keep working while the cache (Redis in production) is down: sessions are read from
the database then (config/sessions.py). A write the cache cannot take still fails, and says so."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from redis.exceptions import ConnectionError as RedisConnectionError

pytestmark = pytest.mark.django_db


class DownCache:
    """The session cache as it is while Redis restarts: every call raises."""

    def __getattr__(self, name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        return refuse

    def __contains__(self, key: object) -> bool:
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.fixture
def cache_down(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Call it to take the cache down (after logging in: the login itself needs the cache)."""
    return lambda: monkeypatch.setattr("config.sessions.SessionStore.__init__", _store_on(DownCache()))


def _store_on(cache: Any) -> Any:
    from django.contrib.sessions.backends.db import SessionStore as DBStore

    def init(self: Any, session_key: str | None = None) -> None:
        self._cache = cache
        DBStore.__init__(self, session_key)

    return init


def test_a_member_stays_logged_in_while_the_cache_is_down(client, make_member, cache_down, caplog) -> None:
    member = make_member("alice")
    client.force_login(member)
    cache_down()
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    assert response.wsgi_request.user == member
    assert "read from the database" in caplog.text


def test_without_the_fallback_the_page_fails(client, make_member, monkeypatch) -> None:
    """The fallback is what keeps the page up: Django's own store fails on the same outage."""
    from django.contrib.sessions.backends import cached_db

    member = make_member("alice")
    client.force_login(member)
    monkeypatch.setattr("config.sessions.SessionStore.load", cached_db.SessionStore.load)
    monkeypatch.setattr("config.sessions.SessionStore.__init__", _store_on(DownCache()))
    with pytest.raises(RedisConnectionError):
        client.get(reverse("lobby"))


def test_a_session_write_the_cache_cannot_take_fails_loudly(client, make_member, cache_down) -> None:
    member = make_member("alice")
    client.force_login(member)
    cache_down()
    with pytest.raises(RedisConnectionError):
        client.post(reverse("account_logout"))
