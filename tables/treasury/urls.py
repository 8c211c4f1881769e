"""The treasurer's tools, staff only, in the admin's look: a club night's score sheet, settling up, statements,
corrections of in-person hands in one step, and the books' backups and checks. Builds on the ledger and play."""
from __future__ import annotations

from django.urls import path

from tables.treasury.views import night_settling, nights, replace, settling, statements

urlpatterns: list = [
    path("inperson/<int:record_id>/replace/", replace.replace_hand, name="treasury_replace_hand"),
    path("settle/", settling.settle, name="treasury_settle"),
    path("statements/", statements.statement, name="treasury_statement"),
    path("statements/everyone/", statements.everyone, name="treasury_statements_everyone"),
    path("statements/statement.csv", statements.statement_csv, name="treasury_statement_csv"),
    path("nights/", nights.night_list, name="treasury_nights"),
    path("nights/new/", nights.night_new, name="treasury_night_new"),
    path("nights/sheets/", nights.sheets_open, name="treasury_open_sheets"),
    path("nights/<int:night_id>/", nights.night_detail, name="treasury_night"),
    path("nights/<int:night_id>/settle/", night_settling.night_settle, name="treasury_night_settle"),
    path("nights/sheet/<str:token>/", nights.night_sheet, name="treasury_night_sheet"),
    path("nights/sheet/<str:token>/rows/", nights.night_row, name="treasury_night_row"),
    path("nights/sheet/<str:token>/rows/<int:number>/change/", nights.night_row_change,
         name="treasury_night_row_change"),
    path("nights/sheet/<str:token>/rows/<int:number>/void/", nights.night_row_void, name="treasury_night_row_void"),
    path("nights/sheet/<str:token>/rows/<int:number>/remove/", nights.night_row_remove,
         name="treasury_night_row_remove"),
    path("nights/sheet/<str:token>/save/", nights.night_save, name="treasury_night_save"),
]
