"""Django's Redis cache, with one connection pool and one client per process instead of per thread.

Why: Django keeps a cache backend per thread, and its Redis backend makes its connection pool per backend
and a new redis-py client object for every call. Under ASGI every request runs in a thread of its own,
so each request built a pool, opened a new TCP connection to Redis and threw both away (at the bench's
load that was a tenth of the server's CPU). redis-py's pools and clients are safe to share between
threads, so here every thread of the process uses the same ones.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property

_shared: dict[tuple[str, str], Any] = {}  # (server URL, pool options) -> redis client on a shared pool
_guard = threading.Lock()


class _SharedClient(django_redis.RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        server = self._servers[self._get_connection_pool_index(write)]
        shared_key = (server, repr(sorted(self._pool_options.items())))
        client = _shared.get(shared_key)
        if client is None:
            with _guard:
                client = _shared.get(shared_key)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = _shared[shared_key] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    @cached_property
    def _cache(self) -> _SharedClient:
        return _SharedClient(self._servers, **self._options)
