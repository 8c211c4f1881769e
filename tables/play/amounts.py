"""Amounts as people read them: one module the models, selectors and templates share, so "1 point" is
written the same everywhere. No imports from the project: models may use it. In the reader's language ("1 Punkt")."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext


def points_text(count: int, *, signed: bool = False) -> str:
    """ "1 point", "-1 point", "12 points"; `signed` puts "+" before a gain (a change rather than a total)."""
    number = f"{count:+d}" if signed and count else str(count)
    return ngettext("%(number)s point", "%(number)s points", abs(count)) % {"number": number}


def dollars_text(cents: int) -> str:
    """An amount of the club's dollars in the reader's number format: "$12.50", "12,50 $"."""
    sign = "-" if cents < 0 else ""
    amount = number_format(Decimal(abs(cents)) / 100, decimal_pos=2, use_l10n=True)
    return sign + gettext("$%(amount)s") % {"amount": amount}
