"""The member's time zone: which zones a member may pick, the club's default, and the zone to show times in.

Times are stored in UTC; each page shows them in the zone of the member looking at it (activated per request
by accounts.middleware), so "the next round at 18:05" means the same moment to a member in Chicago and one
in Berlin.
"""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

# The tz database's places. Its other names (US/Eastern, EST5EDT, Japan, ...) are old aliases of these and
# would only make the list longer; the club's own zone is offered whatever it is.
REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
           "Pacific")


def default_time_zone() -> str:
    """The club's zone (settings.TIME_ZONE): a callable default, so the migration does not freeze the value
    the settings had the day it was written."""
    return settings.TIME_ZONE


@cache
def _offered() -> frozenset[str]:
    names = {name for name in zoneinfo.available_timezones() if name.split("/", 1)[0] in REGIONS}
    return frozenset(names | {"UTC"})


def offered_time_zones() -> frozenset[str]:
    return _offered() | {settings.TIME_ZONE}


def time_zone_choices() -> list[tuple[str, Any]]:
    """Grouped by region, as a select's option groups: nearly six hundred zones in one flat list are hard to
    find one's own in. Shown without underscores ("America/New York")."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(offered_time_zones()):
        region = name.split("/", 1)[0] if name.split("/", 1)[0] in REGIONS else "Other"
        groups.setdefault(region, []).append((name, name.replace("_", " ")))
    return [(_("Other") if region == "Other" else region, groups[region])
            for region in sorted(groups, key=lambda r: (r == "Other", r))]


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The zone called `name`, or the club's when there is no such zone (a name the tz database dropped)."""
    offered = name in _offered() or name == settings.TIME_ZONE  # per request: no set built here
    try:
        return zoneinfo.ZoneInfo(name if offered else settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def member_zone(user: Any) -> zoneinfo.ZoneInfo:
    """The zone to show `user` times in: theirs when signed in, else the club's. Sockets render outside the
    request cycle: wrap their rendering in `timezone.override(member_zone(user))` for the same times."""
    name = getattr(user, "time_zone", "") if getattr(user, "is_authenticated", False) else ""
    return zone_named(name or settings.TIME_ZONE)
