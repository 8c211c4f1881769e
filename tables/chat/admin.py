"""Chat lines in the admin: read, filtered, and hidden by staff (kept, marked with who hid them and when)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tables.chat.services import chat
from tables.models import ChatMessage
from tables.play.admin import member_filter, table_called
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin


class HiddenFilter(admin.SimpleListFilter):
    title = _("hidden")
    parameter_name = "hidden"

    def lookups(self, request: HttpRequest, model_admin: object) -> list[tuple[str, str]]:
        return [("yes", _("hidden")), ("no", _("shown"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> QuerySet[ChatMessage]:
        if self.value() == "yes":
            return queryset.filter(hidden_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(hidden_at__isnull=True)
        return queryset


class ChatRoomFilter(admin.SimpleListFilter):
    title = _("chat")
    parameter_name = "chat"

    def lookups(self, request: HttpRequest, model_admin: object) -> list[tuple[str, str]]:
        return [("lobby", _("the lobby")), ("tables", _("tables"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> QuerySet[ChatMessage]:
        if self.value() == "lobby":
            return queryset.filter(table__isnull=True)
        if self.value() == "tables":
            return queryset.filter(table__isnull=False)
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    """Read-only but for the "hide" action: a line is evidence, so staff hide it, never edit or delete it."""

    list_display = ("created_at", "author", "where", "text", "spectator", "round_number", "hidden_note")
    list_filter = (HiddenFilter, ChatRoomFilter, "spectator", member_filter("author"), "created_at")
    search_fields = ("text", "author__username", "author__display_name", "table__code", "table__name")
    date_hierarchy = "created_at"
    list_select_related = ("author", "table", "hidden_by")
    readonly_fields = ("table", "author", "text", "spectator", "round_number", "created_at", "hidden_at", "hidden_by")
    ordering = ("-created_at", "-id")
    actions = ["hide"]

    @admin.display(description=_("chat"), ordering="table__name")
    def where(self, obj: ChatMessage) -> str:
        return table_called(obj.table) if obj.table is not None else gettext("lobby")

    @admin.display(description=_("hidden"))
    def hidden_note(self, obj: ChatMessage) -> str:
        if obj.hidden_at is None:
            return "-"
        return gettext("hidden by %(by)s at %(when)s") % {"by": obj.hidden_by,
                                                           "when": date_format(obj.hidden_at, "Y-m-d H:i")}

    @admin.action(description=_("Hide the selected lines from everyone"))
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        count = chat.hide_lines(staff=request.user, message_ids=queryset.values_list("pk", flat=True))
        self.message_user(request, ngettext("%(count)s line hidden.", "%(count)s lines hidden.", count) % {
            "count": count}, messages.SUCCESS)
