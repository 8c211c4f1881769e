"""The club night's pages: open a sheet, enter hands row by row (htmx), change, insert and void rows, sign the night
off, list the open sheets and the saved nights.

A sheet being entered is a draft on the server (tables.treasury.services.nights), not in the page or the session:
a closed browser loses nothing, and any staff member carries on from any device through "Open sheets". Every form
that changes the sheet carries the version it was shown at; a change made on a page another device has changed
since is refused with the reason and the sheet as it is now. Every row is priced again whenever the sheet is shown
and again on saving, so nothing stored is trusted as a price.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import User
from rules.engine import registry
from rules.engine.sheepshead.house import HouseRules, house_rules
from tables.ledger.selectors import dollars_text
from tables.ledger.services.inperson import InPersonError, Priced
from tables.ledger.services.ledger import POINTS
from tables.models import ClubNight, InPersonRecord, NightDraft, TournamentTable
from tables.play.request_numbers import whole_number
from tables.play.services.errors import TableError
from tables.tournaments.club_tables import table_label
from tables.treasury.forms.nights import OpenNightForm, VoidForm, row_form
from tables.treasury.selectors.nights import (
    cells,
    draft_for_token,
    draft_rows,
    headline,
    house_rule_lines,
    night_hands,
    nights,
    open_sheet_count,
    open_sheets,
    points_headline,
    sheet_members,
    totals,
)
from tables.treasury.services import nights as service


def sheet_house(draft: NightDraft) -> HouseRules:
    """The house rules the sheet was opened with (a sheet's options were checked when it was opened)."""
    return house_rules(draft.options) if draft.game == "sheepshead" else HouseRules()


def next_row_initial(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The next row starts with the last row's players away: who has not come yet, or has gone, stays so until the
    treasurer says otherwise."""
    return {"away": list(rows[-1]["row"].data.get("away") or [])} if rows else {}


ALREADY_SAVED = _("This sheet was already saved: here is its night. Nothing more was recorded.")


def sheet_title(draft: NightDraft) -> str:
    return gettext("Score sheet: %(game)s, %(day)s") % {"game": registry.spec(draft.game).title,
                                                         "day": date_format(draft.played_on)}


def _page(request: HttpRequest, template: str, title: str, status: int = 200, **context: Any) -> TemplateResponse:
    """A page in the admin's look: the admin site's context (site header, user tools, the nav sidebar)."""
    return TemplateResponse(request, f"tables/treasury/{template}", {
        **admin.site.each_context(request), "title": title, "opts": InPersonRecord._meta, **context,
    }, status=status)


@staff_member_required
def night_list(request: HttpRequest) -> TemplateResponse:
    return _page(request, "nights.html", gettext("Club nights"), nights=nights()[:200],
                 open_count=open_sheet_count())


@staff_member_required
def sheets_open(request: HttpRequest) -> TemplateResponse:
    """Every sheet not signed off yet, whoever opened it: any staff member may carry on with any of them."""
    return _page(request, "sheets_open.html", gettext("Open sheets"), sheets=open_sheets())


@staff_member_required
def night_new(request: HttpRequest) -> HttpResponse:
    form = OpenNightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            draft = service.open_sheet(admin=request.user, game=data["game"], played_on=data["played_on"],
                                       players=form.players(), stake_cents=data.get("stake_cents"),
                                       note=data.get("note") or "", house=form.house())
        except TableError as error:
            form.add_error(None, str(error))
        else:
            return redirect("treasury_night_sheet", token=draft.token)
    return _page(request, "night_new.html", gettext("Open a club night's score sheet"), form=form)


def _priced_rows(draft: NightDraft, members: list[User]) -> list[dict[str, Any]]:
    """Every row of the sheet with its price, or the reason it no longer prices (shown on the row); a voided row
    is not priced: it counts nothing. A sheet kept for a tournament table shows each hand in tournament points
    (service.tournament_points, the numbers saving records), said without its stake."""
    rows = []
    in_points = draft.tournament_table_id is not None
    for row in draft_rows(draft):
        priced: Priced | None = None
        problem = ""
        if not row.void:
            try:
                priced = service.price_row(draft=draft, members=members, row=row.data)
                laid = service.seat_amounts(members=members, priced=priced, amounts=service.tournament_points(
                    game=draft.game, options=draft.options, priced=priced) if in_points else None)
            except InPersonError as error:
                priced, problem = None, str(error)
        rows.append({"number": row.number, "row": row, "priced": priced, "problem": problem,
                     "headline": (points_headline if in_points else headline)(priced.summary) if priced else "",
                     "cells": cells(members, laid, draft.game, POINTS if in_points else None) if priced else []})
    return rows


def tournament_link(table: TournamentTable) -> str:
    """The tournament table a sheet or night is kept for, linked to its round's print page (where its score sheet
    and its players' seat cards are)."""
    url = reverse("tournament_round_print", args=[table.round.tournament_id, table.round.number])
    return format_html('<a href="{}#sheet-{}" id="tournament-table">{}</a>', url, table.number, table_label(table))


def _version(request: HttpRequest) -> int | None:
    return whole_number(request.POST.get("version"), low=1)


def _sheet_context(request: HttpRequest, draft: NightDraft, members: list[User], form: Any = None,
                   **extra: Any) -> dict[str, Any]:
    rows = _priced_rows(draft, members)
    in_points = draft.tournament_table_id is not None
    good = [[c.amount for c in r["cells"]] for r in rows if r["priced"] is not None]
    next_number = max((r["number"] for r in rows), default=0) + 1
    insert = whole_number(request.GET.get("insert"), low=1, high=service.MAX_NUMBER)
    house = sheet_house(draft)
    if form is None:
        form = row_form(draft.game, members=members, house=house,
                        initial={**next_row_initial(rows), "number": insert or next_number})
    edit = extra.pop("edit", None)
    if edit is None and (asked := whole_number(request.GET.get("edit"), low=1)) is not None:
        edit = next((r for r in rows if r["number"] == asked), None)
        if edit is not None:
            edit = {"number": asked, "form": row_form(draft.game, members=members, house=house, prefix="edit",
                                                      initial={**edit["row"].data, "number": asked})}
    inserting = extra.pop("inserting", insert is not None)
    return {
        "draft": draft, "sheet": draft, "members": members, "rows": rows,
        "totals": totals(members, good, draft.game, POINTS if in_points else None),
        "counted": len(good), "form": form, "next_number": form["number"].value() or next_number,
        "inserting": inserting, "edit": edit, "void_form": VoidForm(),
        "house_rules": house_rule_lines(draft.options),
        "game_title": registry.spec(draft.game).title, "read_only": draft.signed_off,
        "stake_text": dollars_text(draft.options["stake_cents"], signed=False)
        if "stake_cents" in draft.options and not in_points else "",
        "tournament_link": tournament_link(draft.tournament_table) if in_points else "",
        **extra,
    }


def _draft(token: str) -> NightDraft:
    draft = draft_for_token(token)
    if draft is None:
        raise Http404(gettext("There is no such score sheet."))
    return draft


def _redirect_htmx(request: HttpRequest, url: str) -> HttpResponse:
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _to_night(request: HttpRequest, night: ClubNight) -> HttpResponse:
    messages.info(request, ALREADY_SAVED)
    return _redirect_htmx(request, reverse("treasury_night", args=[night.pk]))


def _to_sheet(request: HttpRequest, draft: NightDraft, anchor: str = "entry") -> HttpResponse:
    return _redirect_htmx(request, reverse("treasury_night_sheet", args=[draft.token]) + f"#{anchor}")


@staff_member_required
def night_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The sheet: open, to enter and change hands; signed off, read-only with a link to its night."""
    draft = _draft(token)
    members = sheet_members(draft.seats)
    return _page(request, "night_sheet.html", sheet_title(draft), **_sheet_context(request, draft, members))


def _row_change(request: HttpRequest, draft: NightDraft, members: list[User], form: Any, change: Any,
                **lazy: Any) -> tuple[bool, HttpResponse | None]:
    """A row's form handed to its service (add, insert or change; `lazy` arguments are read from the valid form):
    (True, None) done; (False, None) refused, the reason on the form and the draft re-read to show the sheet as it
    is now; (False, answer) the sheet was signed off meanwhile, the answer pointing to its night."""
    if not form.is_valid():
        return False, None
    try:
        change(admin=request.user, draft=draft, version=_version(request), members=members, row=form.row(),
               **{name: value() for name, value in lazy.items()})
    except service.SheetSignedOff as error:
        return False, _to_night(request, error.night)
    except TableError as error:
        form.add_error(None, str(error))
        draft.refresh_from_db()
        return False, None
    return True, None


@staff_member_required
@require_POST
def night_row(request: HttpRequest, token: str) -> HttpResponse:
    """Checks one hand; a good one joins the sheet (at the next number, the number typed, or inserted before the row
    holding it) and the sheet comes back with the new totals and an empty row for the next hand, a bad one comes
    back as typed with the reason on it. Nothing is written to the books."""
    draft = _draft(token)
    if draft.night is not None:
        return _to_night(request, draft.night)
    members = sheet_members(draft.seats)
    form = row_form(draft.game, request.POST, members=members, house=sheet_house(draft))
    inserting = request.POST.get("insert") == "1"
    add = service.insert_row if inserting else service.add_row
    added, answer = _row_change(request, draft, members, form, add, number=form.number)
    if answer is not None:
        return answer
    if not request.headers.get("HX-Request"):  # without script: the whole sheet again
        if added:
            return redirect(reverse("treasury_night_sheet", args=[token]) + "#entry")
        return _page(request, "night_sheet.html", sheet_title(draft), status=400,
                     **_sheet_context(request, draft, members, form=form, inserting=inserting))
    context = _sheet_context(request, draft, members, form=None if added else form,
                             inserting=not added and inserting)
    return TemplateResponse(request, "tables/treasury/night_sheet.html#row_answer", context)


@staff_member_required
@require_POST
def night_row_change(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Hand `number` typed again in place; refused, the sheet comes back with the row's form and the reason."""
    draft = _draft(token)
    if draft.night is not None:
        return _to_night(request, draft.night)
    members = sheet_members(draft.seats)
    form = row_form(draft.game, request.POST, members=members, house=sheet_house(draft), prefix="edit")
    changed, answer = _row_change(request, draft, members, form, service.change_row, number=lambda: number,
                                  new_number=form.number)
    if answer is not None:
        return answer
    if changed:
        return _to_sheet(request, draft, f"row-{form.number() or number}")
    return _page(request, "night_sheet.html", sheet_title(draft), status=400,
                 **_sheet_context(request, draft, members, edit={"number": number, "form": form}))


def _row_action(request: HttpRequest, token: str, number: int, act: Any, **kwargs: Any) -> HttpResponse:
    """A change to one row without a form of its own (void, count again, remove): done, or the reason said."""
    draft = _draft(token)
    if draft.night is not None:
        return _to_night(request, draft.night)
    try:
        act(admin=request.user, draft=draft, version=_version(request), number=number, **kwargs)
    except service.SheetSignedOff as error:
        return _to_night(request, error.night)
    except TableError as error:
        messages.error(request, str(error))
    return _to_sheet(request, draft, f"row-{number}")


@staff_member_required
@require_POST
def night_row_void(request: HttpRequest, token: str, number: int) -> HttpResponse:
    form = VoidForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _row_action(request, token, number, service.void_row, void=request.POST.get("void") != "0",
                       reason=reason)


@staff_member_required
@require_POST
def night_row_remove(request: HttpRequest, token: str, number: int) -> HttpResponse:
    return _row_action(request, token, number, service.remove_row)


@staff_member_required
@require_POST
def night_save(request: HttpRequest, token: str) -> HttpResponse:
    """Signs the sheet off (books it once); from a second device, or a second click: "already saved"."""
    draft = _draft(token)
    members = sheet_members(draft.seats)
    try:
        saved = service.save_night(admin=request.user, draft=draft, version=_version(request), members=members)
    except service.StaleSheet as error:
        messages.error(request, str(error))
        return _to_sheet(request, draft, "save-form")
    except TableError as error:
        return _page(request, "night_sheet.html", sheet_title(draft), save_error=str(error), status=400,
                     **_sheet_context(request, draft, members))
    if not saved.created:
        return _to_night(request, saved.night)
    count = saved.night.hands.count()
    messages.success(request, ngettext("Saved: %(count)s hand of this night is in the ledger.",
                                       "Saved: %(count)s hands of this night are in the ledger.",
                                       count) % {"count": count})
    return redirect("treasury_night", night_id=saved.night.pk)


@staff_member_required
def night_detail(request: HttpRequest, night_id: int) -> TemplateResponse:
    night = get_object_or_404(ClubNight.objects.select_related("recorded_by", "tournament_table__round__tournament"),
                              pk=night_id)
    members, hands, grand = night_hands(night)
    table = night.tournament_table
    stake = (night.options or {}).get("stake_cents") if table is None else None  # a tournament's: points, no money
    return _page(request, "night_detail.html", str(night), night=night, members=members, hands=hands, totals=grand,
                 sheet=NightDraft.objects.filter(night=night).first(),
                 stake_text=dollars_text(stake, signed=False) if stake else "",
                 house_rules=house_rule_lines(night.options or {}),
                 game_title=registry.spec(night.game).title,
                 tournament_link=tournament_link(table) if table else "")
