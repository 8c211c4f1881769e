"""Tables, seats, matches, rounds and moves in the admin: read-only records of play, for review.

Admins play too, so the admin shows nothing of a round that is not over that a player could
not see at the table: no seed, no state (it holds every hand and the blind), no dealt match
carry-over, and no moves (a bury or a discard names hidden cards): "hidden until the round is
over". Finished rounds show everything, with a replay view of every hand, the blind and every
move in order, and export to CSV.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from accounts.models import User
from tables.admin.actions import with_reason
from tables.admin.ledger import csv_response
from tables.admin.lookups import DeclaredLookupsOnly
from tables.admin.readonly import ReadOnlyAdmin, ReadOnlyInline
from tables.models import Match, Move, Round, Seat, Table
from tables.request_numbers import record_id, whole_number
from tables.selectors_history import money_text, replay_step, seat_names
from tables.services.admin_actions import close_table, void_round

HIDDEN = "hidden until the round is over"


def _pretty(data: Any) -> str:
    return format_html("<pre>{}</pre>", json.dumps(data, indent=1, sort_keys=True))


def member_filter(path_to_user: str) -> type[admin.SimpleListFilter]:
    """A 'member' filter for any model that reaches a member through `path_to_user`."""

    class MemberFilter(admin.SimpleListFilter):
        title = "member"
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
    fields = ("position", "user", "is_bot", "away", "ready", "joined_at")
    readonly_fields = fields


def may_change_play(request: HttpRequest) -> bool:
    """Closing tables and voiding rounds: for staff who may change tables (superusers may)."""
    return request.user.has_perm("tables.change_table")


@admin.register(Table)
class TableAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    """Read-only: a running table changes only through services (editing one broke it). Staff close one
    with the action, which asks why and records it."""

    list_display = ("code", "game", "name", "status", "seat_count", "private", "created_by", "created_at")
    list_filter = ("game", "status", member_filter("seats__user"), "private", "created_at")
    search_fields = ("code", "name", "seats__user__username", "seats__user__display_name")
    readonly_fields = ("code", "version", "created_at", "started_at", "finished_at", "closed_by", "close_reason")
    inlines = [SeatInline]
    date_hierarchy = "created_at"
    actions = ["close_tables"]

    def has_close_permission(self, request: HttpRequest) -> bool:
        return may_change_play(request)

    @admin.action(description="Close the selected tables…", permissions=["close"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, action="close_tables", title="Close tables", button="Close them", done="Closed",
            intro="Each table ends now: the round being played is voided (nobody is paid, its seed and moves "
                  "become reviewable), the match ends, and the members are free to sit elsewhere.",
            service=lambda table, reason: close_table(table_id=table.pk, admin=request.user, reason=reason),
        )


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "text", "actor", "user", "table_version", "created_at")
    readonly_fields = fields


ROUND_CSV_HEADER = ["id", "table", "game", "round", "started_at", "finished_at", "over", "players", "deltas",
                    "amounts_shown", "commitment", "salt", "seed", "moves"]


def round_rows(rounds: QuerySet[Round]) -> Any:
    """One CSV line per round; the seed and the result only once the round is over."""
    for r in rounds.select_related("match__table").order_by("started_at", "id").iterator():
        table = r.match.table
        names, _bots = seat_names(r)
        deltas = (r.result or {}).get("deltas", []) if r.over else []
        unit = (r.result or {}).get("unit", "points")
        yield [
            r.pk, table.code, table.game, r.number, r.started_at.isoformat(),
            r.finished_at.isoformat() if r.finished_at else "", r.over, " | ".join(names),
            " ".join(str(d) for d in deltas), " ".join(money_text(d, unit) for d in deltas), r.commitment, r.salt,
            r.seed if r.over else HIDDEN, r.moves.count() if r.over else HIDDEN,
        ]


@admin.register(Round)
class RoundAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("__str__", "game", "number", "over", "started_at", "finished_at", "replay_link")
    list_filter = ("over", "match__table__game", member_filter("match__table__seats__user"), "started_at")
    search_fields = ("match__table__code", "match__table__seats__user__username")
    list_select_related = ("match__table",)
    fields = ("match", "number", "commitment", "salt", "seed_shown", "over", "result_shown", "match_before_shown",
              "state_shown", "moves_note", "deadline", "started_at", "finished_at", "voided_at", "voided_by",
              "void_reason")
    readonly_fields = fields
    date_hierarchy = "started_at"
    actions = ["export_csv", "void_rounds"]
    change_list_template = "tables/history/admin_round_changelist.html"


    def get_inlines(self, request: HttpRequest, obj: Round | None) -> list[Any]:
        return [MoveInline] if obj is not None and obj.over else []

    @admin.display(description="game", ordering="match__table__game")
    def game(self, obj: Round) -> str:
        return obj.match.table.get_game_display()

    @admin.display(description="seed")
    def seed_shown(self, obj: Round) -> str:
        return obj.seed if obj.over else HIDDEN

    @admin.display(description="result")
    def result_shown(self, obj: Round) -> str:
        if obj.voided:
            return "voided: nobody was paid"
        return _pretty(obj.result) if obj.over else HIDDEN

    @admin.display(description="match before the deal")
    def match_before_shown(self, obj: Round) -> str:
        return _pretty(obj.match_before) if obj.over else HIDDEN

    @admin.display(description="state (every hand)")
    def state_shown(self, obj: Round) -> str:
        return _pretty(obj.state) if obj.over else HIDDEN

    @admin.display(description="moves")
    def moves_note(self, obj: Round) -> str:
        if not obj.over:
            return f"{obj.moves.count()} so far ({HIDDEN})"
        url = reverse("admin:tables_round_replay", args=[obj.pk])
        return format_html('{} moves, listed below · <a href="{}">replay every hand</a>', obj.moves.count(), url)

    @admin.display(description="replay")
    def replay_link(self, obj: Round) -> str:
        if not obj.over:
            return HIDDEN
        return format_html('<a href="{}">replay</a>', reverse("admin:tables_round_replay", args=[obj.pk]))

    @admin.action(description="Export the selected rounds as CSV")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Round]) -> StreamingHttpResponse:
        return csv_response("rounds.csv", ROUND_CSV_HEADER, round_rows(queryset))

    def has_void_permission(self, request: HttpRequest) -> bool:
        return may_change_play(request)

    @admin.action(description="Void the selected unfinished rounds…", permissions=["void"])
    def void_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, action="void_rounds", title="Void rounds", button="Void them", done="Voided",
            intro="Each round ends unpaid (no ledger entries; its seed and moves become reviewable) and its table, "
                  "if still playing, deals the next round from the match as it stood. A finished round is not "
                  "voided: correct it through the ledger.",
            service=lambda rnd, reason: void_round(round_id=rnd.pk, admin=request.user, reason=reason),
        )

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:round_id>/replay/", wrap(self.replay_view), name="tables_round_replay"),
            path("export.csv", wrap(self.export_view), name="tables_round_export"),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest) -> StreamingHttpResponse:
        rounds = Round.objects.all()
        game = request.GET.get("game")
        if game:
            rounds = rounds.filter(match__table__game=game)
        return csv_response("rounds.csv", ROUND_CSV_HEADER, round_rows(rounds))

    def replay_view(self, request: HttpRequest, round_id: int) -> TemplateResponse:
        """Every hand, the blind and every move in order; for a round not over, only that it is hidden."""
        found = get_object_or_404(Round.objects.select_related("match__table"), pk=round_id)
        context: dict[str, Any] = {
            **self.admin_site.each_context(request), "opts": Round._meta, "round": found,
            "title": f"Replay of {found}", "hidden": HIDDEN,
        }
        if found.over:
            step = whole_number(request.GET.get("step"))
            steps = [replay_step(round=found, step=0)]
            if step is not None:
                steps.append(replay_step(round=found, step=step))
            context.update(deal=steps[0], current=steps[-1] if step is not None else None)
        elif request.GET.get("step"):
            raise Http404(HIDDEN)
        return TemplateResponse(request, "tables/history/admin_replay.html", context)


@admin.register(Move)
class MoveAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("round", "game", "seq", "seat", "text_shown", "actor", "user", "created_at")
    list_filter = ("round__match__table__game", "actor", member_filter("user"), "created_at")
    search_fields = ("round__match__table__code", "user__username")
    extra_lookups = ("round",)  # the moves of one round
    list_select_related = ("round__match__table", "user")
    fields = ("round", "seq", "seat", "text_shown", "actor", "user", "table_version", "created_at")
    readonly_fields = fields
    date_hierarchy = "created_at"


    @admin.display(description="game", ordering="round__match__table__game")
    def game(self, obj: Move) -> str:
        return obj.round.match.table.get_game_display()

    @admin.display(description="move")
    def text_shown(self, obj: Move) -> str:
        return obj.text if obj.round.over else HIDDEN


@admin.register(Match)
class MatchAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("table", "over", "started_at", "finished_at")
    list_filter = ("over", "table__game", member_filter("table__seats__user"), "started_at")
    fields = ("table", "config", "seed_shown", "public_state", "state_shown", "over", "winners", "started_at",
              "finished_at")
    readonly_fields = fields


    @admin.display(description="seed")
    def seed_shown(self, obj: Match) -> str:
        return obj.seed if obj.over else "hidden until the match is over"

    @admin.display(description="rounds, dealer, totals")
    def public_state(self, obj: Match) -> str:
        state = obj.state or {}
        number, dealer, totals = state.get("number"), state.get("dealer"), state.get("totals")
        return f"{number} rounds finished · dealer seat {dealer} · totals {totals}"

    @admin.display(description="state (with what carries over)")
    def state_shown(self, obj: Match) -> str:
        return _pretty(obj.state) if obj.over else "hidden until the match is over"
