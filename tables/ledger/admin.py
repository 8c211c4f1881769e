"""The ledger in the admin: entries (read-only), balances per member, corrections, CSV, in-person results,
finished rounds for review (a replay of every hand, CSV; voiding one still being played is play's service),
match results (read-only: play writes them as matches end) and the club's seasons (which standings offer).

Nobody, superusers included, gets add, change or delete permission on ledger rows or in-person
records: the only ways in are the forms here, which call the services (an in-person result, a
correction as a reversing plus a new entry with a reason). Every view is wrapped in
`admin_site.admin_view`, so only staff reach them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tables.ledger.csv_export import csv_response, machine_money
from tables.ledger.forms import CorrectionForm, HawkResultForm, PeriodForm, SheepsheadResultForm
from tables.ledger.selectors import balances, dollars_text, in_period, money_text, replay_step, seat_names
from tables.ledger.services import inperson
from tables.ledger.services.ledger import correct_entries
from tables.models import (
    ClubNight,
    InPersonRecord,
    LedgerEntry,
    MatchPlace,
    MatchResult,
    Move,
    NightPayment,
    Round,
    Season,
    Settlement,
)
from tables.models.play import HIDDEN
from tables.play.admin import may_change_play, member_filter, pretty_json, table_called
from tables.play.admin_helpers.actions import with_reason
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tables.play.admin_helpers.readonly import ReadOnlyAdmin, ReadOnlyInline
from tables.play.request_dates import ClubDayField
from tables.play.request_numbers import record_id, whole_number
from tables.play.services.admin_actions import void_round
from tables.play.services.errors import TableError

LEDGER_HEADER = [
    "id", "booked_at", "game", "unit", "member", "bot", "seat", "label", "amount", "amount_shown", "kind",
    "round_id", "table", "round_number", "in_person_id", "reverses", "corrects", "made_by", "reason", "tournament_id",
]


def ledger_rows(entries: QuerySet[LedgerEntry]) -> Any:
    for e in entries.select_related("member", "made_by", "round__match__table").order_by("created_at", "id").iterator():
        table = e.round.match.table.code if e.round_id else ""
        yield [
            e.pk, e.created_at.isoformat(), e.game, e.unit, e.member.username if e.member else "", e.is_bot,
            e.seat, e.label, e.amount, machine_money(e.amount, e.unit), e.kind, e.round_id or "", table,
            e.round.number if e.round_id else "", e.in_person_id or "", e.reverses_id or "", e.corrects_id or "",
            e.made_by.username if e.made_by else "", e.reason, e.tournament_id or "",
        ]


class MemberListFilter(admin.SimpleListFilter):
    """Entries of one member (or the bots' seats)."""

    title = _("member")
    parameter_name = "member"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        members = User.objects.filter(ledger_entries__isnull=False).distinct().order_by("username")
        return [("bots", gettext("Bots (the house)")),
            *((str(u.pk), f"{u.shown_name} ({u.username})") for u in members)]

    def queryset(self, request: HttpRequest, queryset: QuerySet[LedgerEntry]) -> QuerySet[LedgerEntry]:
        value = self.value()
        if value == "bots":
            return queryset.filter(is_bot=True)
        if (member := record_id(value)) is not None:
            return queryset.filter(member_id=member)
        return queryset


class ReadOnlyRecords(DeclaredLookupsOnly, ReadOnlyAdmin):
    """Records of the books: viewable, never added, changed or deleted through the admin."""

    def page(self, request: HttpRequest, template: str, title: str, **context: Any) -> TemplateResponse:
        return TemplateResponse(request, f"tables/ledger/{template}", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "title": title, **context,
        })


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyRecords):
    list_display = ("created_at", "game", "who", "amount_shown", "kind", "source", "reason", "made_by", "correct")
    list_filter = ("game", "kind", MemberListFilter, "is_bot", "unit", "created_at")
    search_fields = ("member__username", "member__display_name", "label", "reason")
    date_hierarchy = "created_at"
    list_select_related = ("member", "made_by", "round__match__table", "in_person", "tournament")
    readonly_fields = [f.name for f in LedgerEntry._meta.fields]
    change_list_template = "tables/ledger/admin_ledger_changelist.html"
    actions = ["export_csv"]

    @admin.display(description=_("who"), ordering="label")
    def who(self, entry: LedgerEntry) -> str:
        return gettext("%(name)s (bot)") % {"name": entry.label} if entry.is_bot else entry.label

    @admin.display(description=_("amount"), ordering="amount")
    def amount_shown(self, entry: LedgerEntry) -> str:
        return money_text(entry.amount, entry.unit)

    @admin.display(description=_("from"))
    def source(self, entry: LedgerEntry) -> str:
        if entry.round_id:
            url = reverse("admin:tables_round_replay", args=[entry.round_id])
            return format_html('<a href="{}">{}</a>', url, gettext("%(table)s, round %(number)s") % {
                "table": table_called(entry.round.match.table), "number": entry.round.number})
        if entry.tournament_id:
            url = reverse("tournament", args=[entry.tournament_id])
            return format_html('<a href="{}">{}</a>', url, gettext("tournament %(name)s (entry fees and prizes)") % {
                "name": entry.tournament.name})
        url = reverse("admin:tables_inpersonrecord_change", args=[entry.in_person_id])
        return format_html('<a href="{}">{}</a>', url, gettext("at the club (%(kind)s)") % {
            "kind": entry.in_person.get_kind_display()})

    @admin.display(description="")
    def correct(self, entry: LedgerEntry) -> str:
        if entry.kind == LedgerEntry.Kind.REVERSAL:
            return ""
        key = (f"round={entry.round_id}" if entry.round_id else f"tournament={entry.tournament_id}"
               if entry.tournament_id else f"in_person={entry.in_person_id}")
        link = format_html('<a href="{}?{}">{}</a>', reverse("admin:tables_ledgerentry_correct"), key,
                           gettext("correct…"))
        if entry.in_person_id is None:
            return link
        # The treasury's one-step replacement (tables.treasury), linked by URL name: the ledger imports nothing of it.
        return format_html('{} · <a href="{}">{}</a>', link,
                           reverse("treasury_replace_hand", args=[entry.in_person_id]), gettext("replace the hand…"))

    @admin.action(description=_("Export the selected entries as CSV"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet[LedgerEntry]) -> StreamingHttpResponse:
        return csv_response("ledger.csv", LEDGER_HEADER, ledger_rows(queryset))

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("balances/", wrap(self.balances_view), name="tables_ledgerentry_balances"),
            path("export.csv", wrap(self.export_view), name="tables_ledgerentry_export"),
            path("correct/", wrap(self.correct_view), name="tables_ledgerentry_correct"),
            *super().get_urls(),
        ]

    def balances_view(self, request: HttpRequest) -> TemplateResponse:
        form = PeriodForm(request.GET or None)
        period = form.period() if request.GET else {"game": None, "start": None, "end": None}
        return self.page(request, "admin_balances.html", gettext("Balances per member"), form=form, period=period,
                         rows=balances(**period))

    def export_view(self, request: HttpRequest) -> HttpResponse:
        form = PeriodForm(request.GET or None)
        if request.GET and not form.is_valid():  # not every entry instead of the period asked for
            return HttpResponseBadRequest(" ".join(str(error) for errors in form.errors.values() for error in errors),
                                          content_type="text/plain; charset=utf-8")
        period = form.period() if request.GET else {"game": None, "start": None, "end": None}
        entries = in_period(LedgerEntry.objects.all(), period["start"], period["end"])
        if period["game"]:
            entries = entries.filter(game=period["game"])
        stamp = timezone.localdate().isoformat()
        return csv_response(f"ledger-{stamp}.csv", LEDGER_HEADER, ledger_rows(entries))

    def correct_view(self, request: HttpRequest) -> HttpResponse:
        source = request.GET.get("round") or request.POST.get("round")
        other = request.GET.get("in_person") or request.POST.get("in_person")
        fees = request.GET.get("tournament") or request.POST.get("tournament")
        entries = LedgerEntry.objects.filter(reversed_by__isnull=True).exclude(kind=LedgerEntry.Kind.REVERSAL)
        if (round_id := record_id(source)) is not None:
            entries = entries.filter(round_id=round_id)
        elif (in_person_id := record_id(other)) is not None:
            entries = entries.filter(in_person_id=in_person_id)
        elif (tournament_id := record_id(fees)) is not None:
            entries = entries.filter(tournament_id=tournament_id)
        else:
            messages.error(request, gettext("Choose the round (or in-person result) to correct from the ledger."))
            return redirect("admin:tables_ledgerentry_changelist")
        standing = list(entries.order_by("seat", "id"))
        if not standing:
            messages.error(request, gettext("There is nothing to correct there."))
            return redirect("admin:tables_ledgerentry_changelist")
        form = CorrectionForm(request.POST or None, entries=standing)
        if request.method == "POST" and form.is_valid():
            try:
                written = correct_entries(admin=request.user, reason=form.cleaned_data["reason"],
                                          changes=form.changes())
            except TableError as error:
                form.add_error(None, str(error))
            else:
                count = len(written) // 2
                messages.success(request, ngettext(
                    "Corrected %(count)s entry: the original stays, with its reversal and its new amount.",
                    "Corrected %(count)s entries: the originals stay, each with its reversal and its new amount.",
                    count) % {"count": count})
                return redirect("admin:tables_ledgerentry_changelist")
        return self.page(request, "admin_correct.html", gettext("Correct ledger entries"), form=form, entries=standing,
                         source_round=source, source_in_person=other, source_tournament=fees)


@admin.register(InPersonRecord)
class InPersonRecordAdmin(ReadOnlyRecords):
    list_display = ("recorded_at", "played_on", "kind", "summary_shown", "recorded_by", "version")
    list_select_related = ("recorded_by", "replaced_by")
    list_filter = ("game", "kind", "played_on", ("recorded_by", admin.RelatedOnlyFieldListFilter))
    search_fields = ("summary", "note")
    date_hierarchy = "played_on"
    fields = ("game", "kind", "played_on", "night", "number", "summary_shown", "facts", "score", "note", "recorded_by",
              "recorded_at", "replaces_shown", "replaced_by_shown", "reason", "entries")
    readonly_fields = fields
    change_list_template = "tables/ledger/admin_inperson_changelist.html"
    change_form_template = "tables/ledger/admin_inperson_change.html"

    @admin.display(description=_("summary"))
    def summary_shown(self, record: InPersonRecord) -> str:
        """In the reader's language (the English `summary` is what the search looks in)."""
        return record.summary_shown

    @admin.display(description=_("version"))
    def version(self, record: InPersonRecord) -> str:
        successor = getattr(record, "replaced_by", None)
        if successor is not None:
            return gettext("replaced by %(id)s") % {"id": successor.pk}
        return gettext("replaces %(id)s") % {"id": record.replaces_id} if record.replaces_id else ""

    @admin.display(description=_("replaces"))
    def replaces_shown(self, record: InPersonRecord) -> str:
        if record.replaces_id is None:
            return "—"
        url = reverse("admin:tables_inpersonrecord_change", args=[record.replaces_id])
        return format_html('<a href="{}">{}</a>', url, gettext("in-person result %(id)s") % {"id": record.replaces_id})

    @admin.display(description=_("replaced by"))
    def replaced_by_shown(self, record: InPersonRecord) -> str:
        successor = InPersonRecord.objects.filter(replaces=record).first()
        if successor is None:
            return "—"
        url = reverse("admin:tables_inpersonrecord_change", args=[successor.pk])
        return format_html('<a href="{}">{}</a> {}', url, gettext("in-person result %(id)s") % {"id": successor.pk},
                           gettext("(by %(by)s on %(day)s: %(reason)s)") % {
                               "by": successor.recorded_by.shown_name, "day": date_format(successor.recorded_at.date()),
                               "reason": successor.reason})

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        record = context.get("original")
        if record is not None:
            context["replaced"] = InPersonRecord.objects.filter(replaces=record).exists()
            context["replace_url"] = reverse("treasury_replace_hand", args=[record.pk])
        return super().render_change_form(request, context, *args, **kwargs)

    @admin.display(description=_("ledger entries"))
    def entries(self, record: InPersonRecord) -> str:
        lines = [f"{e.label}: {money_text(e.amount, e.unit)} ({e.get_kind_display()})"
                 for e in record.ledger_entries.order_by("created_at", "id")]
        return "; ".join(lines)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("record/sheepshead/", wrap(self.sheepshead_view), name="tables_inpersonrecord_sheepshead"),
            path("record/hawk/", wrap(self.hawk_view), name="tables_inpersonrecord_hawk"),
            *super().get_urls(),
        ]

    def _record(self, request: HttpRequest, form: Any, call: Any, title: str) -> HttpResponse:
        if request.method == "POST" and form.is_valid():
            try:
                record = call(admin=request.user, **form.service_kwargs())
            except TableError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, gettext("Recorded: %(summary)s") % {"summary": record.summary_shown})
                return redirect(reverse("admin:tables_ledgerentry_balances") + f"?game={record.game}")
        return self.page(request, "admin_inperson_form.html", title, form=form)

    def sheepshead_view(self, request: HttpRequest) -> HttpResponse:
        form = SheepsheadResultForm(request.POST or None)
        kind = request.POST.get("kind")
        call = inperson.record_sheepshead_leaster if kind == "leaster" else inperson.record_sheepshead_hand
        return self._record(request, form, call, gettext("Record a Sheepshead hand played at the club"))

    def hawk_view(self, request: HttpRequest) -> HttpResponse:
        return self._record(request, HawkResultForm(request.POST or None), inperson.record_hawk_round,
                            gettext("Record a Hawk round played at the club"))


def _members_named(ids: Any) -> str:
    """Member ids (a night's seats, a settlement's balances) as the names people know, in the order given."""
    ids = [int(i) for i in ids or []]
    named = {u.pk: u.shown_name for u in User.objects.filter(pk__in=ids)}
    return ", ".join(named.get(i, f"#{i}") for i in ids)


@admin.register(ClubNight)
class ClubNightAdmin(ReadOnlyRecords):
    """The treasurer's nights, read here; entered, shown whole and corrected in the treasury's pages."""

    list_display = ("played_on", "game", "hand_count", "recorded_by", "recorded_at")
    list_filter = ("game", "played_on", ("recorded_by", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("recorded_by",)
    search_fields = ("note",)
    date_hierarchy = "played_on"
    fields = ("game", "played_on", "players", "options", "note", "recorded_by", "recorded_at", "sheet")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ClubNight]:
        return super().get_queryset(request).annotate(hands_recorded=models.Count("hands"))

    @admin.display(description=_("number of hands"), ordering="hands_recorded")
    def hand_count(self, night: ClubNight) -> int:
        return night.hands_recorded

    @admin.display(description=_("players in seat order"))
    def players(self, night: ClubNight) -> str:
        return _members_named(night.seats)

    @admin.display(description=_("score sheet"))
    def sheet(self, night: ClubNight) -> str:
        # The treasury's page of the night, linked by URL name: the ledger imports nothing of the treasury.
        return format_html('<a href="{}">{}</a>', reverse("treasury_night", args=[night.pk]),
                           gettext("the night's score sheet"))


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyRecords):
    """The treasurer's settlements, read here; made on the treasury's settle page."""

    list_display = ("settled_at", "game", "settled_by", "payment_count", "note")
    list_filter = ("game", "settled_at", ("settled_by", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("settled_by",)
    search_fields = ("note",)
    date_hierarchy = "settled_at"
    fields = ("game", "unit", "settled_at", "settled_by", "after_entry", "through_entry", "members", "balances",
              "payments", "note")
    readonly_fields = fields

    @admin.display(description=_("payments"))
    def payment_count(self, settlement: Settlement) -> int:
        return len(settlement.payments or [])

    @admin.display(description=_("members settled"))
    def members(self, settlement: Settlement) -> str:
        return _members_named(settlement.balances or {})


@admin.register(NightPayment)
class NightPaymentAdmin(ReadOnlyRecords):
    """Money paid at the table for a club night, read here; recorded on the night's settle sheet in the treasury."""

    list_display = ("paid_on", "payer", "payee", "amount_shown", "night_link", "recorded_by", "recorded_at")
    list_filter = ("paid_on", ("payer", admin.RelatedOnlyFieldListFilter), ("payee", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("payer", "payee", "night", "recorded_by")
    search_fields = ("note", "payer__username", "payer__display_name", "payee__username", "payee__display_name")
    date_hierarchy = "paid_on"
    fields = ("night_link", "paid_on", "payer", "payee", "amount_shown", "note", "recorded_by", "recorded_at")
    readonly_fields = fields

    @admin.display(description=_("amount"), ordering="amount")
    def amount_shown(self, payment: NightPayment) -> str:
        return dollars_text(payment.amount, signed=False)

    @admin.display(description=_("club night"), ordering="night__played_on")
    def night_link(self, payment: NightPayment) -> str:
        # The night's settle sheet in the treasury, where payments are recorded, by URL name (as ClubNightAdmin's).
        return format_html('<a href="{}">{}</a>', reverse("treasury_night_settle", args=[payment.night_id]),
                           date_format(payment.night.played_on))


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "text", "actor", "user", "table_version", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        """Each row is titled by the move's name, which asks its round whether it is revealed: one query."""
        return super().get_queryset(request).select_related("round")


ROUND_CSV_HEADER = ["id", "table", "game", "round", "started_at", "finished_at", "over", "players", "deltas",
                    "amounts_shown", "commitment", "salt", "seed", "moves"]


def round_rows(rounds: QuerySet[Round]) -> Any:
    """One CSV line per round; the seed and the result only once the round is over."""
    for r in rounds.select_related("match__table").order_by("started_at", "id").iterator():
        table = r.match.table
        names, _bots = seat_names(r)
        deltas = (r.result or {}).get("deltas", []) if r.revealed else []
        unit = (r.result or {}).get("unit", "points")
        yield [
            r.pk, table.code, table.game, r.number, r.started_at.isoformat(),
            r.finished_at.isoformat() if r.finished_at else "", r.over, " | ".join(names),
            " ".join(str(d) for d in deltas), " ".join(machine_money(d, unit) for d in deltas), r.commitment, r.salt,
            r.seed if r.revealed else HIDDEN, r.moves.count() if r.revealed else HIDDEN,
        ]


@admin.register(Round)
class RoundAdmin(DeclaredLookupsOnly, ReadOnlyAdmin):
    list_display = ("__str__", "table_name", "game", "number", "over", "started_at", "finished_at", "replay_link")
    list_filter = ("over", "match__table__game", member_filter("match__table__seats__user"), "started_at")
    search_fields = ("match__table__code", "match__table__seats__user__username")
    list_select_related = ("match__table",)
    fields = ("match", "number", "commitment", "salt", "seed_shown", "over", "result_shown", "match_before_shown",
              "state_shown", "moves_note", "deadline", "started_at", "finished_at", "voided_at", "voided_by",
              "void_reason")
    readonly_fields = fields
    date_hierarchy = "started_at"
    actions = ["export_csv", "void_rounds"]
    change_list_template = "tables/ledger/admin_round_changelist.html"


    def get_inlines(self, request: HttpRequest, obj: Round | None) -> list[Any]:
        return [MoveInline] if obj is not None and obj.revealed else []

    @admin.display(description=_("game"), ordering="match__table__game")
    def game(self, obj: Round) -> str:
        return obj.match.table.get_game_display()

    @admin.display(description=_("table"), ordering="match__table__name")
    def table_name(self, obj: Round) -> str:
        return table_called(obj.match.table)

    @admin.display(description=_("seed"))
    def seed_shown(self, obj: Round) -> str:
        return obj.seed if obj.revealed else gettext(HIDDEN)

    @admin.display(description=_("result"))
    def result_shown(self, obj: Round) -> str:
        if obj.voided:
            return gettext("voided: nobody was paid")
        return pretty_json(obj.result) if obj.revealed else gettext(HIDDEN)

    @admin.display(description=_("match before the deal"))
    def match_before_shown(self, obj: Round) -> str:
        return pretty_json(obj.match_before) if obj.revealed else gettext(HIDDEN)

    @admin.display(description=_("state (every hand)"))
    def state_shown(self, obj: Round) -> str:
        return pretty_json(obj.state) if obj.revealed else gettext(HIDDEN)

    @admin.display(description=_("moves"))
    def moves_note(self, obj: Round) -> str:
        if not obj.revealed:
            return gettext("%(count)s so far (%(hidden)s)") % {"count": obj.moves.count(), "hidden": gettext(HIDDEN)}
        url = reverse("admin:tables_round_replay", args=[obj.pk])
        return format_html('{} · <a href="{}">{}</a>', gettext("%(count)s moves, listed below") % {
            "count": obj.moves.count()}, url, gettext("replay every hand"))

    @admin.display(description=_("replay"))
    def replay_link(self, obj: Round) -> str:
        if not obj.revealed:
            return gettext(HIDDEN)
        return format_html('<a href="{}">{}</a>', reverse("admin:tables_round_replay", args=[obj.pk]),
            gettext("replay"))

    @admin.action(description=_("Export the selected rounds as CSV"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Round]) -> StreamingHttpResponse:
        return csv_response("rounds.csv", ROUND_CSV_HEADER, round_rows(queryset))

    def has_void_permission(self, request: HttpRequest) -> bool:
        return may_change_play(request)

    @admin.action(description=_("Void the selected unfinished rounds…"), permissions=["void"])
    def void_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, action="void_rounds", title=gettext("Void rounds"),
            button=gettext("Void them"), done=gettext("Voided"),
            intro=gettext("Each round ends unpaid (no ledger entries; its seed and moves become reviewable) and its "
                          "table, if still playing, deals the next round from the match as it stood. A finished round "
                          "is not voided: correct it through the ledger."),
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
            "title": gettext("Replay of %(round)s") % {"round": found}, "hidden": gettext(HIDDEN),
        }
        if found.revealed:
            step = whole_number(request.GET.get("step"))
            steps = [replay_step(round=found, step=0)]
            if step is not None:
                steps.append(replay_step(round=found, step=step))
            context.update(deal=steps[0], current=steps[-1] if step is not None else None)
        elif request.GET.get("step"):
            raise Http404(gettext(HIDDEN))
        return TemplateResponse(request, "tables/ledger/admin_replay.html", context)


class MatchPlaceInline(ReadOnlyInline):
    model = MatchPlace
    fields = ("seat", "user", "bot", "total", "place", "won")
    readonly_fields = fields
    ordering = ("place", "seat")


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyRecords):
    """Who won each match, as play recorded it when the match ended: read here, never written here."""

    list_display = ("finished_at", "game", "table_name", "ending", "rounds", "winners")
    list_filter = ("game", "ending", "finished_at")
    search_fields = ("table__name", "table__code", "places__user__username", "places__user__display_name")
    list_select_related = ("table",)
    fields = ("table", "match", "game", "unit", "ending", "rounds", "finished_at", "rating_seq")
    readonly_fields = fields
    inlines = [MatchPlaceInline]
    date_hierarchy = "finished_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[MatchResult]:
        return super().get_queryset(request).prefetch_related("places__user")

    @admin.display(description=_("table"))
    def table_name(self, result: MatchResult) -> str:
        return table_called(result.table)

    @admin.display(description=_("won"))
    def winners(self, result: MatchResult) -> str:
        won = [p for p in result.places.all() if p.won]
        return ", ".join(p.user.shown_name if p.user is not None else gettext("Bot (seat %(number)s)") % {
            "number": p.seat + 1} for p in won)


@admin.register(Season)
class SeasonAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """The club's seasons: the standings' "this season" is the one holding today (in the club's zone)."""

    list_display = ("name", "starts", "ends")
    date_hierarchy = "starts"
    # The standings turn a season's days into moments: they are days of the club's calendar, as in every day box.
    formfield_overrides = {models.DateField: {"form_class": ClubDayField}}
    ordering = ("-starts",)
