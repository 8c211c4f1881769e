"""Both configurations load: embedded defaults, and PostgreSQL + Redis from the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "d = s.DATABASES['default']; "
    "print(json.dumps({'engine': d['ENGINE'], 'name': str(d['NAME']), 'options': d.get('OPTIONS', {}), "
    "'host': d.get('HOST', ''), 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], "
    "'layer_hosts': s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts'), "
    "'layer_capacity': s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('capacity'), "
    "'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG}))"
)
TIMEOUTS = ("DATABASE_LOCK_TIMEOUT", "DATABASE_STATEMENT_TIMEOUT")


def load(env: dict[str, str], module: str = "config.settings") -> dict:
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", *TIMEOUTS}}
    base["DJANGO_SETTINGS_MODULE"] = module
    out = subprocess.run([sys.executable, "-c", PROBE], env={**base, **env}, capture_output=True, text=True,
                         cwd=settings.BASE_DIR, check=True)
    return json.loads(out.stdout)


def test_embedded_defaults_are_sqlite_wal_immediate_and_in_memory_layer() -> None:
    loaded = load({})
    assert loaded["engine"] == "config.sqlite"  # Django's SQLite backend, writers queued in the process
    assert loaded["name"].endswith("db.sqlite3")
    assert loaded["options"]["transaction_mode"] == "IMMEDIATE"
    assert loaded["options"]["timeout"] >= 20
    assert "journal_mode=WAL" in loaded["options"]["init_command"]
    assert loaded["layer"] == "config.channel_layer.SweepingInMemoryChannelLayer"  # Channels' in-memory layer


def test_database_and_redis_urls_switch_to_postgres_and_channels_redis() -> None:
    loaded = load({"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test", "REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["name"] == "test"
    assert loaded["host"] == "127.0.0.1"
    assert loaded["layer"] == "channels_redis.core.RedisChannelLayer"
    assert loaded["layer_hosts"] == [{"address": "redis://127.0.0.1:6379/0", "socket_timeout": 60}]
    assert loaded["cache"] == "config.redis_cache.RedisCache"  # Django's, one pool per process


def test_postgresql_connections_open_with_a_lock_timeout_and_a_statement_timeout() -> None:
    """No lock wait and no query runs for ever on PostgreSQL (10 s and 30 s unless the environment says), and an
    `options` the database URL gives is kept; the seconds may be fractions, and 0 means none."""
    url = "postgres://postgres@127.0.0.1:5432/test"
    assert load({"DATABASE_URL": url})["options"]["options"] == "-c lock_timeout=10000 -c statement_timeout=30000"
    tuned = load({"DATABASE_URL": f"{url}?options=-c%20search_path%3Dclub", "DATABASE_LOCK_TIMEOUT": "2.5",
                  "DATABASE_STATEMENT_TIMEOUT": "0"})
    assert tuned["options"]["options"] == "-c search_path=club -c lock_timeout=2500 -c statement_timeout=0"
    assert "options" not in load({})["options"]  # SQLite bounds its lock waits with its busy timeout


def test_both_channel_layers_hold_a_burst_of_lobby_messages() -> None:
    """Channels' default of 100 messages a channel is less than one lobby socket gets when a club
    evening's sockets arrive at once (one count change each): both layers hold the same few thousand."""
    embedded = load({})["layer_capacity"]
    shared = load({"REDIS_URL": "redis://127.0.0.1:6379/0"})["layer_capacity"]
    assert embedded == shared
    assert isinstance(embedded, int) and embedded >= 2000


def test_production_settings_pass_the_deploy_check() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.production",
        "SECRET_KEY": "x7!k2Q9zL0pW4rT8vB1nM5cF3hJ6gD2sA9qE7uY0iO4lK8jH1fG5dS3aZ6xC9vB2nM",
        "ALLOWED_HOSTS": "club.example.org",
    })
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            env=env, capture_output=True, text=True, cwd=settings.BASE_DIR)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY"}}
    env.update({"DJANGO_SETTINGS_MODULE": "config.production", "ALLOWED_HOSTS": "club.example.org"})
    result = subprocess.run([sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True,
                            cwd=settings.BASE_DIR)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
