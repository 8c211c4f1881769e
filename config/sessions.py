"""Sessions read from the cache and written through to the database (Django's cached_db), still readable when
the cache is down.

Why: with REDIS_URL the cache is Redis. When Redis went away (the chaos soak restarts it), Django's cached_db
store, having read a session from the database after the cache failed, tried to put it back in the cache, and
that error made every request (and every socket handshake) of a logged-in member fail until Redis returned.
The database holds every session, so a read falls back to it: the member's pages keep working, one query slower,
while the cache is away. Writes (log in, log out, a saved sheet) still fail loudly when the cache cannot take
them: a write that reached the database but not the cache could leave an older copy there to be read later.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.sessions.backends import cached_db
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except RedisError as error:
            log.warning("sessions: the cache failed (%s); this session was read from the database", error)
            stored = self._get_session_from_db()
            return self.decode(stored.session_data) if stored else {}

    async def aload(self) -> dict[str, Any]:
        try:
            return await super().aload()
        except RedisError as error:
            log.warning("sessions: the cache failed (%s); this session was read from the database", error)
            stored = await self._aget_session_from_db()
            return self.decode(stored.session_data) if stored else {}
