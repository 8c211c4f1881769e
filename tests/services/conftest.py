"""The `services` tier runs against real PostgreSQL and Redis: refuse to run on anything else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from channels.layers import channel_layers
from django.conf import settings

from tests.push_service import pushes  # noqa: F401 (a fixture: the push service of the correspondence test)
from tests.servers import Daphne, free_port
from tests.smtp_server import smtp  # noqa: F401 (a fixture: the SMTP server of the correspondence test)


@pytest.fixture(autouse=True)
def _real_services() -> None:
    engine = settings.DATABASES["default"]["ENGINE"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert engine == "django.db.backends.postgresql", f"services tier needs DATABASE_URL (PostgreSQL), got {engine}"
    assert layer == "channels_redis.core.RedisChannelLayer", f"services tier needs REDIS_URL, got {layer}"


@pytest.fixture(autouse=True)
def _channel_layer_per_test() -> Iterator[None]:
    """Each async test runs its own event loop; a Redis layer kept from an earlier test holds locks bound to that
    test's loop. Every test gets a layer of its own."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def database_url() -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def daphne(tmp_path: Path) -> Iterator[Daphne]:
    """One Daphne on this tier's PostgreSQL and Redis, with the site's default settings."""
    server = Daphne(port=free_port(), env={"DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL,
                                           "DEBUG": "true"}, log_path=tmp_path / "daphne.log")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture
def two_daphnes(tmp_path: Path) -> Iterator[list[Daphne]]:
    """Two Daphne processes on this tier's PostgreSQL and Redis (a test module may define its own, with more
    settings)."""
    env = {"DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL, "DEBUG": "true"}
    servers = [Daphne(port=free_port(), env=env, log_path=tmp_path / f"daphne-{i}.log") for i in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
