"""Admin actions that change play (close a table, void a round): a reason first, then one service call a row.

The action is thin on purpose: the confirmation page asks why, the service does the work under the
table's lock (and refuses with a `TableError`, changing nothing), and the admin's history (`LogEntry`)
gets who, when and why beside the fields the service keeps on the row itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext

from tables.play.admin_helpers.forms import ReasonForm
from tables.play.services.errors import TableError


def with_reason(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet, *, action: str,
                title: str, intro: str, button: str, done: str,
                service: Callable[[Model, str], Any]) -> TemplateResponse | None:
    """Ask for the reason (again, while it is missing); once given, call `service(row, reason)` for every
    selected row, log each success and report each refusal. None sends the admin back to the list."""
    form = ReasonForm(request.POST if "post" in request.POST else None)
    if not form.is_valid():
        return TemplateResponse(request, "tables/play/admin_action_reason.html", {
            **model_admin.admin_site.each_context(request), "opts": model_admin.model._meta, "title": title,
            "intro": intro, "button": button, "objects": list(queryset), "form": form, "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        })
    reason = form.cleaned_data["reason"]
    for row in queryset:
        try:
            service(row, reason)
        except TableError as error:
            messages.error(request, f"{row}: {error}")
        else:
            model_admin.log_change(request, row, f"{done}. Reason: {reason}")  # the log stays in one language
            messages.success(request, f"{done}: {staff_label(row)}.")
    return None


def staff_label(row: object) -> str:
    """A row as staff name it: a table by its name and its code (how they find it in URLs and reports)."""
    code = getattr(row, "code", "")
    return gettext("%(row)s (code %(code)s)") % {"row": row, "code": code} if code else str(row)
