"""Replacing a recorded in-person hand: one form, a preview (htmx) of the old and new settlement side by side, and
"Replace", which writes the new record and the reversals together. Staff only, in the admin's look."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tables.models import InPersonRecord
from tables.play.services.errors import TableError
from tables.treasury.forms.replace import ReplaceForm
from tables.treasury.selectors.nights import row_numbers
from tables.treasury.services.replace import (
    AlreadyReplaced,
    newest_version,
    preview_replacement,
    replace_in_person_record,
)

TEMPLATE = "tables/treasury/replace.html"


def _change_url(record: InPersonRecord) -> str:
    return reverse("admin:tables_inpersonrecord_change", args=[record.pk])


def _newest(newest: InPersonRecord) -> dict[str, Any]:
    return {"newest": newest, "newest_url": _change_url(newest),
            "newest_replace_url": reverse("treasury_replace_hand", args=[newest.pk])}


@staff_member_required
@require_http_methods(["GET", "POST"])
def replace_hand(request: HttpRequest, record_id: int) -> HttpResponse:
    record = get_object_or_404(InPersonRecord.objects.select_related("recorded_by", "night"), pk=record_id)
    context: dict[str, Any] = {
        **admin.site.each_context(request), "opts": InPersonRecord._meta, "record": record,
        "title": gettext("Replace in-person result %(id)s") % {"id": record.pk},
        "change_url": _change_url(record),
        "night_row": row_numbers([record])[record.pk] if record.night_id else None,  # a replacement keeps the row
    }
    successor = InPersonRecord.objects.filter(replaces=record).first()
    if successor is not None and request.method == "GET":
        return TemplateResponse(request, TEMPLATE, {**context, **_newest(newest_version(record))})
    form = ReplaceForm(request.POST or None, record=record)
    comparison = None
    if request.method == "POST" and form.is_valid():
        kind, facts = form.service_call()
        reason = form.cleaned_data.get("reason") or ""
        try:
            if request.POST.get("action") == "replace":
                new = replace_in_person_record(admin=request.user, record_id=record.pk, reason=reason, kind=kind,
                                               facts=facts)
                messages.success(request, gettext(
                    "Replaced in-person result %(old)s by %(new)s: the old entries are reversed and the new ones "
                    "written. %(summary)s") % {"old": record.pk, "new": new.pk, "summary": new.summary_shown})
                return redirect(_change_url(new))
            comparison = preview_replacement(admin=request.user, record_id=record.pk, reason=reason, kind=kind,
                                             facts=facts)
        except AlreadyReplaced as error:
            same = (error.newest.replaces_id == record.pk and error.newest.recorded_by_id == request.user.pk
                    and error.newest.reason == " ".join(reason.split()))
            if same and request.POST.get("action") == "replace":  # the same replacement, posted again
                messages.info(request, gettext("In-person result %(old)s was already replaced by %(new)s; nothing "
                                               "more was written.") % {"old": record.pk, "new": error.newest.pk})
                return redirect(_change_url(error.newest))
            context.update(_newest(error.newest))
            form.add_error(None, str(error))
        except TableError as error:
            form.add_error(None, str(error))
    context.update(form=form, comparison=comparison)
    template = f"{TEMPLATE}#replace-form" if request.htmx else TEMPLATE
    return TemplateResponse(request, template, context)
