"""Each xdist worker on a Redis database of its own (tests/worker_redis.py)."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from tests.worker_redis import worker_redis_url


@pytest.mark.parametrize(("url", "worker", "expected"), [
    ("redis://127.0.0.1:6379/0", "gw0", "redis://127.0.0.1:6379/0"),
    ("redis://127.0.0.1:6379/0", "gw1", "redis://127.0.0.1:6379/1"),
    ("redis://127.0.0.1:6379", "gw2", "redis://127.0.0.1:6379/2"),
    ("redis://127.0.0.1:6379/3?socket_timeout=60", "gw1", "redis://127.0.0.1:6379/4?socket_timeout=60"),
    ("redis://:secret@redis.internal:6380/1", "gw1", "redis://:secret@redis.internal:6380/2"),
    ("redis://127.0.0.1:6379/0", None, "redis://127.0.0.1:6379/0"),
    ("", "gw1", ""),
])
def test_each_worker_reads_and_writes_a_redis_database_of_its_own(url: str, worker: str | None,
                                                                    expected: str) -> None:
    assert worker_redis_url(url, worker) == expected


def test_the_rewrite_reached_the_settings() -> None:
    """A plugin imported after pytest-django set Django up would change the environment but not the settings."""
    assert os.environ.get("REDIS_URL", "") == settings.REDIS_URL
    if settings.REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER") == "gw1":
        assert settings.REDIS_URL.endswith("/1")
