"""The treasurer's tools, staff only, in the admin's look: a club night's score sheet, settling up, statements,
corrections of in-person hands in one step, and the books' backups and checks. Builds on the ledger and play."""
from __future__ import annotations

from django.urls import path

from tables.treasury.views import replace

urlpatterns: list = [
    path("inperson/<int:record_id>/replace/", replace.replace_hand, name="treasury_replace_hand"),
]
