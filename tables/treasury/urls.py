"""The treasurer's tools, staff only, in the admin's look: a club night's score sheet, settling up, statements,
corrections of in-person hands in one step, and the books' backups and checks. Builds on the ledger and play."""
from __future__ import annotations

from django.urls import path

from tables.treasury.views import replace, settling, statements

urlpatterns: list = [
    path("inperson/<int:record_id>/replace/", replace.replace_hand, name="treasury_replace_hand"),
    path("settle/", settling.settle, name="treasury_settle"),
    path("statements/", statements.statement, name="treasury_statement"),
    path("statements/everyone/", statements.everyone, name="treasury_statements_everyone"),
    path("statements/statement.csv", statements.statement_csv, name="treasury_statement_csv"),
]
