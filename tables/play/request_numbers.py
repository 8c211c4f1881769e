"""Whole numbers typed into requests (a version, a seat, a step, a page, an id in a filter).

Every number that comes from a query string or a form is read here, and only ASCII digits count:
`"²".isdigit()` is true yet `int("²")` fails, `int("١٢")` is 12 and a full-width one is 1, so
`isdigit()` followed by `int()` turns odd text into a 500 or into a number nobody typed. A bound on
the length and the value keeps a number the database cannot hold (forty nines) out of its queries.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

LARGEST_INT = 2**31 - 1
"""The largest value of a database `integer` (PostgreSQL): versions, positions, steps, amounts."""
LARGEST_ID = 2**63 - 1
"""The largest primary key (`BigAutoField`)."""

_UNSIGNED = re.compile(r"[0-9]{1,19}")
_SIGNED = re.compile(r"-?[0-9]{1,19}")


def whole_number(raw: str | None, *, low: int = 0, high: int = LARGEST_INT) -> int | None:
    """`raw` as an int if it is written in ASCII digits (a leading "-" only when `low` is negative)
    and lies within `low`..`high`; None for anything else, so the caller refuses or ignores it."""
    if not isinstance(raw, str):
        return None
    pattern = _SIGNED if low < 0 else _UNSIGNED
    if pattern.fullmatch(raw) is None:
        return None
    value = int(raw)
    return value if low <= value <= high else None


def record_id(raw: str | None) -> int | None:
    """A primary key from a query string or a form (a round, a member, an in-person result)."""
    return whole_number(raw, low=1, high=LARGEST_ID)


class WholeNumberField(forms.IntegerField):
    """A form's number box, read by `whole_number`: Django's `IntegerField` calls `int()`, which takes
    full-width and Arabic-Indic digits for numbers. Spaces around the digits are trimmed; a minus sign
    is taken (`min_value` says whether a negative number makes sense); a value the database's
    `integer` cannot hold is refused like any other nonsense."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = whole_number(str(value).strip(), low=-LARGEST_INT)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number
