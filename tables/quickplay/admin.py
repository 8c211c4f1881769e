"""Quick-play requests in the admin: who asked for what, when, and how each request ended.

Read-only: requests change only through the matchmaking services (under the game's lock), so the
admin shows them and filters them but never edits one behind the queue's back.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.models import QueueRequest
from tables.play.admin import table_called
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin


@admin.register(QueueRequest)
class QueueRequestAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("user", "game", "players_wanted", "band", "state", "created_at", "expires_at", "ended_at",
                    "table_name", "with_bots")
    list_filter = ("state", "game", "with_bots", "created_at")
    search_fields = ("user__username", "user__display_name", "table__code")
    date_hierarchy = "created_at"
    list_select_related = ("user", "table")
    readonly_fields = ("user", "game", "players", "band", "options", "bots_after_seconds", "state", "created_at",
                       "expires_at", "ended_at", "table", "with_bots")
    ordering = ("-created_at", "-id")

    @admin.display(description=_("table"), ordering="table__name")
    def table_name(self, obj: QueueRequest) -> str:
        return table_called(obj.table) if obj.table is not None else "-"

    @admin.display(description=_("players"), ordering="players")
    def players_wanted(self, obj: QueueRequest) -> str:
        return str(obj.players) if obj.players else gettext("any")

