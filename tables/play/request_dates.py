"""Days typed into requests (a period's first and last day, the day a hand was played), read one way everywhere.

Python's dates run from 0001-01-01 to 9999-12-31, and a day filter does arithmetic on them: its last day becomes
the next midnight, its first day a moment in the club's zone (converted to UTC for the database), and a statement's
opening balance looks at the day before the first. At either end of the calendar that arithmetic overflows, which
was a 500 for `?end=9999-12-31` or `?start=0001-01-01`. So a day the club reads lies within its own calendar, far
enough from both limits for a day either side in any time zone; anything else is refused on its form with a clear
error. As with numbers (request_numbers.py), only ASCII digits make a day: `strptime`'s `%Y` takes Arabic-Indic and
full-width digits too, which would be a day nobody typed.
"""

from __future__ import annotations

from datetime import date
from typing import Any, overload

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

FIRST_DAY = date(1900, 1, 1)
"""The club's calendar begins here: no hand of the club's was played before."""
LAST_DAY = date(2999, 12, 31)
"""...and ends here: far beyond any period worth asking for, and far from `date.max`."""


def within_calendar(day: date) -> bool:
    return FIRST_DAY <= day <= LAST_DAY


@overload
def calendar_day(day: date) -> date: ...
@overload
def calendar_day(day: None) -> None: ...
def calendar_day(day: date | None) -> date | None:
    """`day` moved into the club's calendar (a day before it is its first day, a day after it its last): for days
    that did not come from a form (a season an older admin page saved), so that arithmetic on them never overflows."""
    if day is None:
        return None
    return min(max(day, FIRST_DAY), LAST_DAY)


class ClubDayField(forms.DateField):
    """A form's day box: Django's `DateField` (each language's input formats, and the ISO day a date picker sends),
    written in ASCII digits, within the club's calendar."""

    default_error_messages = {
        "outside": _("Choose a day from %(first)s to %(last)s."),
    }

    def to_python(self, value: Any) -> date | None:
        if isinstance(value, str) and not value.isascii():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        day = super().to_python(value)
        if day is not None and not within_calendar(day):
            raise ValidationError(self.error_messages["outside"], code="outside", params={
                "first": date_format(FIRST_DAY, "j M Y"), "last": date_format(LAST_DAY, "j M Y")})
        return day
