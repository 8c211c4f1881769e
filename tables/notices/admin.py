"""The outbox in the admin: what the club told members about their correspondence tables, by email and by push, and
what it could not (read-only: a notice changes only by being sent, retried or given up, tables.notices.outbox)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tables.models import Notice
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin


class StateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: object) -> list[tuple[str, str]]:
        return [("sent", _("sent")), ("waiting", _("waiting")), ("given_up", _("given up"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Notice]) -> QuerySet[Notice]:
        if self.value() == "sent":
            return queryset.filter(sent_at__isnull=False)
        if self.value() == "waiting":
            return queryset.filter(sent_at__isnull=True, given_up_at__isnull=True)
        if self.value() == "given_up":
            return queryset.filter(given_up_at__isnull=False)
        return queryset


@admin.register(Notice)
class NoticeAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("created_at", "kind", "channel", "user", "where", "sent_at", "attempts", "given_up_at",
                    "last_error")
    list_filter = (StateFilter, "kind", "channel", "created_at")
    search_fields = ("user__username", "user__display_name", "table__code", "table__name", "key")
    date_hierarchy = "created_at"
    list_select_related = ("user", "table")
    ordering = ("-created_at", "-id")
    fields = ("key", "kind", "channel", "user", "table", "created_at", "sent_at", "attempts", "next_try_at",
              "claimed_until", "given_up_at", "last_error")

    @admin.display(description=_("table"))
    def where(self, notice: Notice) -> str:
        return str(notice.table) if notice.table is not None else "—"  # its name in the reader's language
