"""CSV downloads of the books, streamed row by row: the ledger's admin exports and the treasurer's statements.

Kept apart from the admin so that any page of the books (the treasury's statements too) can offer a CSV without
importing the admin layer."""

from __future__ import annotations

import csv
import re
from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import override

from tables.ledger.selectors import money_text


class _Echo:
    def write(self, value: str) -> str:
        return value


def _cell(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (a display name such as `=HYPERLINK(...)`) is quoted.

    Amounts are not: a cell that is only signed numbers, dollars or points, one space apart (`-100`,
    `-100 50 50`, `-$1.00 +$0.50`, `-1 point`), has no operator, reference or call a formula could use.
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _AMOUNTS.fullmatch(value):
        return "'" + value
    return value


_AMOUNT = r"[+-]?(?:\$\d+\.\d\d|\d+(?: points?)?)"
_AMOUNTS = re.compile(rf"{_AMOUNT}(?: {_AMOUNT})*")


def machine_money(amount: int, unit: str) -> str:
    """An amount as the CSV files write it in every language ("-$1.80", "+3 points"): a file is read by
    spreadsheets and scripts as much as by people, so its numbers never change with the reader's language (only
    the member-facing statement's headers and sentences do)."""
    with override("en"):
        return money_text(amount, unit)


def csv_response(filename: str, header: list[str], rows: Any) -> StreamingHttpResponse:
    """A CSV download streamed row by row (a long ledger never sits in memory)."""
    writer = csv.writer(_Echo())

    def lines() -> Any:
        yield writer.writerow(header)
        for row in rows:
            yield writer.writerow([_cell(value) for value in row])

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


