"""GET /health/: is this process fit to serve? For nginx, systemd and monitoring (deploy/README.md).

Built on django-health-check: each check runs at every request, and the answer is 200 when all pass, 500 when any
fails, as JSON by default (`{"Database(alias='default')": "OK", ...}`; `Accept: text/plain` or `?format=text` for
lines, `?format=openmetrics` for Prometheus). The checks:

- the database answers (`SELECT 1` on a connection of its own);
- the cache answers, when it is Redis (`REDIS_URL` set; the default site has none: its cache is the process's own);
- this process's table clock finished a pass recently (tables.play.background.health), or says it is off
  (`TableClock(state='off')`, with TABLE_CLOCK_SECONDS 0) without failing.

Anyone may ask, signed in or not (a probe has no session), so nothing in the answer is the club's: no member,
table or card, no address, host name, or database error text (those go to the log). A process is asked at its own
port (127.0.0.1:8001/health/): through nginx the answer is whichever process nginx chose.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from health_check import Cache, HealthCheck
from health_check import Database as LibraryDatabase
from health_check.exceptions import HealthCheckException, ServiceUnavailable
from health_check.views import HealthCheckView

from tables.play import background

log = logging.getLogger(__name__)


@dataclasses.dataclass
class Database(LibraryDatabase):
    """The library's check, saying only that the database does not answer: its message would carry the start of the
    driver's error text, which may name a host or a role."""

    def run(self) -> None:
        try:
            super().run()
        except HealthCheckException as error:
            log.warning("health: the database check failed: %s", error, exc_info=error.__cause__)
            raise ServiceUnavailable("the database does not answer") from None


def _clock_state() -> str:
    return "on" if settings.TABLE_CLOCK_SECONDS else "off"


@dataclasses.dataclass
class TableClock(HealthCheck):
    """This process's table clock: a pass finished within a few TABLE_CLOCK_SECONDS plus the pass timeout."""

    state: str = dataclasses.field(default_factory=_clock_state)  # shown: "on", or "off" (TABLE_CLOCK_SECONDS 0)

    async def run(self) -> None:
        problem = background.health()
        if problem is not None:
            raise ServiceUnavailable(problem)


class HealthView(HealthCheckView):
    @property
    def checks(self) -> Iterator[type[HealthCheck]]:  # type: ignore[override]
        yield Database
        if settings.REDIS_URL:
            yield Cache
        yield TableClock

    def render_to_response(self, context: dict[str, object], **response_kwargs: object) -> HttpResponse:
        """JSON where the library would render its HTML page (a browser's or curl's `*/*`): the page's inline
        style is refused by the site's Content-Security-Policy, and monitoring reads JSON."""
        status = response_kwargs.get("status", 200)
        return self.render_to_response_json(status if isinstance(status, int) else 200)


health = login_not_required(HealthView.as_view())
