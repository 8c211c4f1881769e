"""Amounts as people read them: one module the models, selectors and templates share, so "1 point" is
written the same everywhere. No imports from the project: models may use it. In the reader's language ("1 Punkt")."""

from __future__ import annotations

from django.utils.translation import ngettext


def points_text(count: int, *, signed: bool = False) -> str:
    """ "1 point", "-1 point", "12 points"; `signed` puts "+" before a gain (a change rather than a total)."""
    number = f"{count:+d}" if signed and count else str(count)
    return ngettext("%(number)s point", "%(number)s points", abs(count)) % {"number": number}
