"""Tables, seats, matches, rounds and moves in the admin: read-only records of play."""

from __future__ import annotations

from django.contrib import admin

from tables.models import Match, Move, Round, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "is_bot", "away", "ready", "joined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "name", "status", "seat_count", "private", "created_by", "created_at")
    list_filter = ("game", "status", "private", "created_at")
    search_fields = ("code", "name", "seats__user__username", "seats__user__display_name")
    readonly_fields = ("code", "version", "created_at", "started_at", "finished_at")
    inlines = [SeatInline]
    date_hierarchy = "created_at"


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "text", "actor", "user", "table_version", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "number", "over", "started_at", "finished_at")
    list_filter = ("over", "match__table__game", "started_at")
    search_fields = ("match__table__code", "match__table__seats__user__username")
    readonly_fields = ("match", "number", "seed", "salt", "commitment", "match_before", "state", "over", "result",
                       "deadline", "started_at", "finished_at")
    inlines = [MoveInline]
    date_hierarchy = "started_at"

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("table", "over", "started_at", "finished_at")
    list_filter = ("over", "table__game")
    readonly_fields = ("table", "config", "seed", "state", "over", "winners", "started_at", "finished_at")

    def has_add_permission(self, request) -> bool:
        return False
