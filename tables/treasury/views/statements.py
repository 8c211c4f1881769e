"""Statements (staff only): one member's, printable and as CSV, and everyone's for a period, a page each."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from tables.ledger.csv_export import csv_response, machine_money
from tables.ledger.forms import PeriodForm
from tables.ledger.selectors import club_zone
from tables.treasury.forms.statements import StatementForm
from tables.treasury.selectors.statements import Statement, statements_for_everyone
from tables.treasury.selectors.statements import statement as member_statement


def _page(request: HttpRequest, template: str, title: str, **context: Any) -> TemplateResponse:
    return TemplateResponse(request, f"tables/treasury/{template}", {
        **admin.site.each_context(request), "title": title, "club_zone": club_zone().key, **context,
    })


@staff_member_required
@require_GET
def statement(request: HttpRequest) -> HttpResponse:
    form = StatementForm(request.GET or None)
    found = member_statement(**form.query()) if request.GET and form.is_valid() else None
    title = gettext("Statement: %(name)s") % {"name": found.member.shown_name} if found else gettext("Statements")
    return _page(request, "statement.html", title, form=form, statement=found)


@staff_member_required
@require_GET
def everyone(request: HttpRequest) -> HttpResponse:
    form = PeriodForm(request.GET or None)
    period = form.period() if request.GET else {"game": None, "start": None, "end": None}
    statements = statements_for_everyone(**period) if not request.GET or form.is_valid() else []
    return _page(request, "statements_everyone.html", gettext("Statements for everyone"), form=form, period=period,
                 statements=statements)


# The statement is the member's, so its CSV speaks the reader's language in its header and its sentences; the
# amounts stay machine-readable in every language (whole cents or points, and the "-$1.80" form): see machine_money.
CSV_HEADER = [_("member"), _("username"), _("game"), _("unit"), _("played_on"), _("booked_at"), _("where"), _("result"),
              _("kind"), _("amount"), _("amount_shown"), _("balance"), _("balance_shown"), _("entry_id")]


def _csv_rows(found: Statement, *, opening: str) -> Any:
    zone = club_zone()
    member = found.member
    for section in found.games:
        unit = section.spec.unit
        yield [member.shown_name, member.username, section.spec.key, unit, found.start.isoformat()
               if found.start else "", "", "", opening, "opening", "", "", section.opening,
               machine_money(section.opening, unit), ""]
        for row in section.rows:
            entry = row.entry
            yield [member.shown_name, member.username, section.spec.key, unit, row.played.isoformat(),
                   timezone.localtime(entry.created_at, zone).isoformat(), row.where, row.result,
                   row.marker or entry.kind, entry.amount, machine_money(entry.amount, unit), row.balance,
                   machine_money(row.balance, unit), entry.pk]


@staff_member_required
@require_GET
def statement_csv(request: HttpRequest) -> HttpResponse:
    form = StatementForm(request.GET)
    if not form.is_valid():
        return _page(request, "statement.html", gettext("Statements"), form=form, statement=None)
    found = member_statement(**form.query())
    period = "-".join(d.isoformat() for d in (found.start, found.end) if d) or "all-time"
    return csv_response(f"statement-{found.member.username}-{period}.csv", [str(h) for h in CSV_HEADER],
                        _csv_rows(found, opening=gettext("Opening balance")))
