"""Tournaments in the admin: read-only, with their entries and rounds inline and a link to the page.

Everything about a tournament changes through its services (entries, draws, results) and controls (pause, cancel,
publish), under the tournament's row lock, and the organiser uses them from the tournament's page; the admin only
shows the record, so nothing here can edit a draw behind the pairing's back."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tables.models import Entry, Tournament, TournamentRound, TournamentTable
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin, ReadOnlyInline


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("user", "status", "created_at")
    readonly_fields = fields


class RoundInline(ReadOnlyInline):
    model = TournamentRound
    fields = ("number", "status", "drawn_at")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("name", "game", "format", "status", "current_round", "rounds", "starts_at", "page")
    list_filter = ("status", "game", "format", "rated")
    search_fields = ("name",)
    date_hierarchy = "created_at"
    readonly_fields = ("name", "game", "format", "status", "rounds", "hands_per_session", "rated", "current_round",
                       "created_by", "created_at", "starts_at", "no_show_minutes", "entry_fee_cents", "prize_shares",
                       "paused_at", "pause_reason", "cancel_reason", "published_at", "options", "seed")
    inlines = (EntryInline, RoundInline)
    ordering = ("-created_at", "-id")

    @admin.display(description=_("page"))
    def page(self, tournament: Tournament) -> str:
        return format_html('<a href="{}">{}</a>', reverse("tournament", args=[tournament.pk]), _("open"))


@admin.register(TournamentTable)
class TournamentTableAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("__str__", "where", "seats", "winner", "points", "void_reason", "table")
    list_filter = ("where", "round__tournament__game")
    search_fields = ("round__tournament__name",)
    list_select_related = ("round__tournament", "winner", "table")
    readonly_fields = ("round", "number", "seats", "where", "started_at", "no_shows", "replacements", "table",
                       "winner", "points", "void_reason", "voided_by", "voided_at")
    ordering = ("-round__tournament__created_at", "round__number", "number")
