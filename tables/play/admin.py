"""Tables, seats, matches and moves in the admin: read-only records of play, for review.

Admins play too, so the admin shows nothing of a round that is not over that a player could
not see at the table: no seed, no state (it holds every hand and the blind), no dealt match
carry-over, and no moves (a bury or a discard names hidden cards): "hidden until the round is
over". `Round.revealed` is the rule, asked by every field here, and by `Move.__str__`, which names a
move in the change page's title and breadcrumb, the history and the delete confirmations. Rounds,
with their replay of every hand and their export to CSV, are in the ledger's admin
(tables/ledger/admin.py), which uses the helpers here (`member_filter`, `may_change_play`).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tables.models import Match, Move, Seat, Table
from tables.models.play import HIDDEN
from tables.play.admin_helpers.actions import with_reason
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin, ReadOnlyInline
from tables.play.request_numbers import record_id
from tables.play.services.admin_actions import close_table


def table_called(table: Table) -> str:
    """A table in the admin's lists: its name, a club-made one in the reader's language (`Table.__str__`); the code
    is in its own column and in every URL."""
    return str(table)


def pretty_json(data: Any) -> str:
    return format_html("<pre>{}</pre>", json.dumps(data, indent=1, sort_keys=True))


def member_filter(path_to_user: str) -> type[admin.SimpleListFilter]:
    """A 'member' filter for any model that reaches a member through `path_to_user`."""

    class MemberFilter(admin.SimpleListFilter):
        title = _("member")
        parameter_name = "member"

        def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
            members = User.objects.filter(seats__isnull=False).distinct().order_by("username")
            return [(str(u.pk), f"{u.shown_name} ({u.username})") for u in members]

        def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
            value = self.value()
            if (member := record_id(value)) is not None:
                return queryset.filter(**{path_to_user: member}).distinct()
            return queryset

    return MemberFilter


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "is_bot", "bot_level", "away", "ready", "joined_at")
    readonly_fields = fields


def may_change_play(request: HttpRequest) -> bool:
    """Closing tables and voiding rounds: for staff who may change tables (superusers may)."""
    return request.user.has_perm("tables.change_table")


@admin.register(Table)
class TableAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    """Read-only: a running table changes only through services (editing one broke it). Staff close one
    with the action, which asks why and records it."""

    list_display = ("name_shown", "code", "game", "status", "seat_count", "bot_level", "private", "created_by",
                    "created_at")
    list_filter = ("game", "status", "bot_level", member_filter("seats__user"), "private", "created_at")
    search_fields = ("code", "name", "seats__user__username", "seats__user__display_name")
    readonly_fields = ("code", "version", "created_at", "started_at", "finished_at", "closed_by", "close_reason")
    inlines = [SeatInline]
    date_hierarchy = "created_at"
    actions = ["close_tables"]

    def has_close_permission(self, request: HttpRequest) -> bool:
        return may_change_play(request)

    @admin.display(description=_("name"), ordering="name")
    def name_shown(self, obj: Table) -> str:
        return table_called(obj)

    @admin.action(description=_("Close the selected tables…"), permissions=["close"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, action="close_tables", title=gettext("Close tables"), button=gettext("Close them"),
            done=gettext("Closed"),
            intro=gettext("Each table ends now: the round being played is voided (nobody is paid, its seed and moves "
                          "become reviewable), the match ends, and the members are free to sit elsewhere."),
            service=lambda table, reason: close_table(table_id=table.pk, admin=request.user, reason=reason),
        )


@admin.register(Move)
class MoveAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("round", "table_name", "game", "seq", "seat", "text_shown", "actor", "user", "created_at")
    list_filter = ("round__match__table__game", "actor", member_filter("user"), "created_at")
    search_fields = ("round__match__table__code", "user__username")
    extra_lookups = ("round",)  # the moves of one round
    list_select_related = ("round__match__table", "user")
    fields = ("round", "seq", "seat", "text_shown", "actor", "user", "table_version", "created_at")
    readonly_fields = fields
    date_hierarchy = "created_at"


    @admin.display(description=_("game"), ordering="round__match__table__game")
    def game(self, obj: Move) -> str:
        return obj.round.match.table.get_game_display()

    @admin.display(description=_("table"), ordering="round__match__table__name")
    def table_name(self, obj: Move) -> str:
        return table_called(obj.round.match.table)

    @admin.display(description=_("move"))
    def text_shown(self, obj: Move) -> str:
        return obj.text if obj.round.revealed else gettext(HIDDEN)


@admin.register(Match)
class MatchAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("table_name", "over", "started_at", "finished_at")
    list_select_related = ("table",)
    list_filter = ("over", "table__game", member_filter("table__seats__user"), "started_at")
    fields = ("table", "config", "seed_shown", "public_state", "state_shown", "over", "winners", "started_at",
              "finished_at")
    readonly_fields = fields


    @admin.display(description=_("seed"))
    def seed_shown(self, obj: Match) -> str:
        return obj.seed if obj.over else gettext("hidden until the match is over")

    @admin.display(description=_("rounds, dealer, totals"))
    def public_state(self, obj: Match) -> str:
        state = obj.state or {}
        number, dealer, totals = state.get("number"), state.get("dealer"), state.get("totals")
        return gettext("%(number)s rounds finished · dealer seat %(dealer)s · totals %(totals)s") % {
            "number": number, "dealer": dealer, "totals": totals}

    @admin.display(description=_("state (with what carries over)"))
    def state_shown(self, obj: Match) -> str:
        return pretty_json(obj.state) if obj.over else gettext("hidden until the match is over")

    @admin.display(description=_("table"), ordering="table__name")
    def table_name(self, obj: Match) -> str:
        return table_called(obj.table)
