"""`when`: a moment as the member reads it, in their zone and naming the zone ("30 Nov 2026, 18:05 CET").

A time without its zone is a guess for anyone not in the club's; the zone is the one active for the request
(the member's: accounts.middleware), and the element carries the moment in UTC for machines and scripts.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from django import template
from django.conf import settings
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext_lazy

from accounts.time_zones import zone_named

register = template.Library()

# The date as each language writes it (German: "30. Nov. 2026"); the month's name comes from Django's translations.
FORMATS = {"": pgettext_lazy("Django date format: day, short month, year, time", "j M Y, H:i"), "time": "H:i",
           "seconds": "H:i:s"}


def zone_label(moment: datetime) -> str:
    """The zone's abbreviation where it has one in use ("CET", "EDT", "UTC"); else its offset from UTC
    ("UTC+4", "UTC+5:30"), which is how the tz database writes zones without one ("+04")."""
    name = moment.tzname() or ""
    if name and name[0] not in "+-":
        return name
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def when_text(value: datetime, part: str = "") -> str:
    """The words alone (for messages built in Python): `part` "" for date and time, "time", or "seconds"."""
    moment = timezone.localtime(value) if timezone.is_aware(value) else timezone.make_aware(value)
    return f"{dateformat.format(moment, str(FORMATS[part]))} {zone_label(moment)}"


@register.filter
def when(value: datetime | None, part: str = "") -> SafeString | str:
    """`{{ entry.created_at|when }}` -> 30 Nov 2026, 18:05 CET; `|when:"time"` -> 18:05 CET; `|when:"seconds"`
    -> 18:05:09 CET. Nothing for no time; an unknown `part` is the template's mistake, so it raises."""
    if not isinstance(value, datetime):
        return ""
    if part not in FORMATS:
        raise template.TemplateSyntaxError(f"when: no format {part!r}; use one of {sorted(FORMATS)}")
    utc = (value if timezone.is_aware(value) else timezone.make_aware(value)).astimezone(UTC)
    zone = timezone.get_current_timezone()
    return format_html('<time datetime="{}" title="{}">{}</time>', utc.isoformat().replace("+00:00", "Z"),
                       str(getattr(zone, "key", zone)).replace("_", " "), when_text(value, part))


@register.filter
def club_day(value: datetime | None) -> date | None:
    """The club's day of a moment (settings.TIME_ZONE), whoever reads it: the day a hand or a night counts on is
    the club's, so a moment is compared with it in the club's zone, not the reader's."""
    if value is None:
        return None
    return timezone.localtime(value, zone_named(settings.TIME_ZONE)).date()
