"""The `services` tier runs against real PostgreSQL and Redis: refuse to run on anything else."""

from __future__ import annotations

import pytest
from django.conf import settings


@pytest.fixture(autouse=True)
def _real_services() -> None:
    engine = settings.DATABASES["default"]["ENGINE"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert engine == "django.db.backends.postgresql", f"services tier needs DATABASE_URL (PostgreSQL), got {engine}"
    assert layer == "channels_redis.core.RedisChannelLayer", f"services tier needs REDIS_URL, got {layer}"


def database_url() -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
