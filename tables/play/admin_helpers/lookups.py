"""Admin changelists that filter only by the lookups their admin declares.

Django's changelist applies any lookup on a model's own fields named in the URL and shows how many
rows matched. Admins play too, so `?seed__startswith=a2` on rounds, `?state__hands__1__0=JS` or
`?text=bury QS` on moves would read a round that is not over one guess at a time. Here a URL may
filter only by what the admin offers: its list filters, its date hierarchy and `extra_lookups`
(public fields that links filter by). Anything else is refused with a 400 whatever the guess, so a
right and a wrong guess get the same answer.

The date hierarchy's own parameters (`created_at__year`, `__month`, `__day`) are read as every number a request
carries is (request_numbers.py: ASCII digits only) and must name a day of the club's calendar (request_dates.py):
Django computes the next year or day from them, which for 9999 overflowed into a 500. A day outside is refused as
Django refuses any lookup it cannot use (IncorrectLookupParameters: the changelist's "?e=1"), and so is a filter
value with a NUL character, which PostgreSQL cannot compare with text.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from tables.play.request_dates import within_calendar
from tables.play.request_numbers import whole_number


def field_path(model: type[Model], lookup: str) -> str:
    """The fields a lookup walks, without its transforms and lookups: `round__id__exact` is `round`,
    `state__hands__1__0` is `state`, `member` (no field: a simple filter's parameter) is ''."""
    path: list[str] = []
    previous = None
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            break
        if previous is not None and not field.is_relation and field.primary_key:
            break  # `round__id` filters by the round itself
        path.append(part)
        if not field.is_relation:
            break
        previous, model = field, field.related_model
    return LOOKUP_SEP.join(path)


class DeclaredLookupsOnly:
    """Mixed into a ModelAdmin: the URL may filter only by its declared filters and date hierarchy."""

    extra_lookups: tuple[str, ...] = ()  # field paths links may filter by besides the list filters

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        names, paths = self.declared_lookups(request)
        if lookup in names:
            return True
        path = field_path(self.model, lookup)
        return bool(path) and path in paths

    def declared_lookups(self, request: HttpRequest | None) -> tuple[set[str], set[str]]:
        """The parameter names of simple filters, and the field paths of field filters and dates."""
        names: set[str] = set()
        paths: set[str] = set(self.extra_lookups)
        if self.date_hierarchy:
            paths.add(field_path(self.model, self.date_hierarchy))
        list_filter = self.get_list_filter(request) if request is not None else self.list_filter
        for item in list_filter:
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                names.add(item.parameter_name)
            else:
                name = item[0] if isinstance(item, list | tuple) else item
                paths.add(field_path(self.model, name))
        return names, paths

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        if self.date_hierarchy and not hierarchy_day_allowed(request, self.date_hierarchy):
            raise IncorrectLookupParameters(f"{self.date_hierarchy}: no day of the club's calendar")
        if any("\x00" in value for _key, values in request.GET.lists() for value in values):
            # PostgreSQL's text holds no NUL, and psycopg refuses one in a filter's value with an error Django
            # lets through (a 500); no choice a list filter offers has one.
            raise IncorrectLookupParameters("a NUL character in a filter")
        return super().get_changelist_instance(request)


def hierarchy_day_allowed(request: HttpRequest, field: str) -> bool:
    """The date hierarchy's year, month and day in the URL, if any, name a day of the club's calendar (a year or
    a month alone: its first day, and its last for a year, whose end Django computes too)."""
    parts = [request.GET.get(f"{field}{LOOKUP_SEP}{part}") for part in ("year", "month", "day")]
    if parts[0] is None:
        return True  # Django ignores a month or a day without a year
    year, month, day = (whole_number(part, low=1) if part is not None else 1 for part in parts)
    if year is None or month is None or day is None:
        return False
    try:
        first = date(year, month, day)
        last = date(year, 12, 31) if parts[1] is None else first
    except ValueError:
        return False
    return within_calendar(first) and within_calendar(last)
