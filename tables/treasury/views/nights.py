"""The club night's pages: open a sheet, enter hands row by row (htmx), save the night, see saved nights.

An unsaved sheet lives in the treasurer's session (keyed by its token), not in the page: a tablet that reloads or
drops a background tab, or a slip of the finger on reload, must not cost an evening's hands. The session is the
server's (cached database sessions), so the sheet survives a reload and a browser restart on the same login; it is
gone when the treasurer logs out, and it is not shared with another device. Every row is priced again whenever the
sheet is shown and again on saving, so nothing in the session is trusted as a price.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import User
from rules.engine import registry
from rules.engine.sheepshead.house import HouseRules, house_rules
from tables.ledger.selectors import dollars_text
from tables.ledger.services.inperson import InPersonError, Priced
from tables.models import ClubNight, InPersonRecord
from tables.play.services.errors import TableError
from tables.treasury.forms.nights import OpenNightForm, row_form
from tables.treasury.selectors.nights import (
    cells,
    headline,
    house_rule_lines,
    night_for_token,
    night_hands,
    nights,
    sheet_members,
    totals,
)
from tables.treasury.services import nights as service

SESSION_KEY = "treasury_nights"


def next_row_initial(sheet: service.Sheet) -> dict[str, Any]:
    """The next row starts with the last row's players away: who has not come yet, or has gone, stays so until the
    treasurer says otherwise."""
    return {"away": list(sheet.rows[-1].get("away") or [])} if sheet.rows else {}


def sheet_house(sheet: service.Sheet) -> HouseRules:
    """The house rules the sheet was opened with (a sheet's options were checked when it was opened)."""
    return house_rules(sheet.options) if sheet.game == "sheepshead" else HouseRules()
ALREADY_SAVED = _("This sheet was already saved: here is its night. Nothing more was recorded.")


def sheet_title(sheet: service.Sheet) -> str:
    return gettext("Score sheet: %(game)s, %(day)s") % {"game": registry.spec(sheet.game).title,
                                                         "day": date_format(sheet.played_on)}


def _page(request: HttpRequest, template: str, title: str, status: int = 200, **context: Any) -> TemplateResponse:
    """A page in the admin's look: the admin site's context (site header, user tools, the nav sidebar)."""
    return TemplateResponse(request, f"tables/treasury/{template}", {
        **admin.site.each_context(request), "title": title, "opts": InPersonRecord._meta, **context,
    }, status=status)


def _sheets(request: HttpRequest) -> dict[str, Any]:
    return request.session.get(SESSION_KEY) or {}


def _keep(request: HttpRequest, sheet: service.Sheet) -> None:
    sheets = _sheets(request)
    sheets[sheet.token] = sheet.as_data()
    request.session[SESSION_KEY] = sheets


def _forget(request: HttpRequest, token: str) -> None:
    sheets = _sheets(request)
    if sheets.pop(token, None) is not None:
        request.session[SESSION_KEY] = sheets


def _open_sheet(request: HttpRequest, token: str) -> service.Sheet | None:
    data = _sheets(request).get(token)
    return service.Sheet.from_data(data) if data else None


@staff_member_required
def night_list(request: HttpRequest) -> TemplateResponse:
    open_sheets = [service.Sheet.from_data(d) for d in _sheets(request).values()]
    return _page(request, "nights.html", gettext("Club nights"), nights=nights()[:200], open_sheets=open_sheets)


@staff_member_required
def night_new(request: HttpRequest) -> HttpResponse:
    form = OpenNightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sheet = service.open_sheet(admin=request.user, game=data["game"], played_on=data["played_on"],
                                       players=form.players(), stake_cents=data.get("stake_cents"),
                                       note=data.get("note") or "", house=form.house())
        except TableError as error:
            form.add_error(None, str(error))
        else:
            _keep(request, sheet)
            return redirect("treasury_night_sheet", token=sheet.token)
    return _page(request, "night_new.html", gettext("Open a club night's score sheet"), form=form)


def _priced_rows(sheet: service.Sheet, members: list[User]) -> list[dict[str, Any]]:
    """Every row of the sheet with its price, or the reason it no longer prices (shown on the row)."""
    rows = []
    for number, row in enumerate(sheet.rows, 1):
        try:
            priced: Priced | None = service.price_row(sheet=sheet, members=members, row=row)
            problem = ""
        except InPersonError as error:
            priced, problem = None, str(error)
        rows.append({"number": number, "priced": priced, "problem": problem,
                     "headline": headline(priced.summary) if priced else "",
                     "cells": cells(members, service.seat_amounts(members=members, priced=priced), sheet.game)
                     if priced else []})
    return rows


def _sheet_context(sheet: service.Sheet, members: list[User], form: Any = None) -> dict[str, Any]:
    rows = _priced_rows(sheet, members)
    good = [[c.amount for c in r["cells"]] for r in rows if r["priced"] is not None]
    return {
        "sheet": sheet, "members": members, "rows": rows, "totals": totals(members, good, sheet.game),
        "form": form if form is not None else row_form(sheet.game, members=members, house=sheet_house(sheet),
                                                       initial=next_row_initial(sheet)),
        "house_rules": house_rule_lines(sheet.options),
        "next_number": len(sheet.rows) + 1, "game_title": registry.spec(sheet.game).title,
        "stake_text": dollars_text(sheet.options["stake_cents"],
            signed=False) if "stake_cents" in sheet.options else "",
    }


def _sheet_or_saved(request: HttpRequest, token: str) -> tuple[service.Sheet | None, HttpResponse | None]:
    """The open sheet, or the answer when there is none: the night it became, or back to opening one."""
    if (night := night_for_token(token)) is not None:
        messages.info(request, ALREADY_SAVED)
        return None, _redirect_htmx(request, reverse("treasury_night", args=[night.pk]))
    sheet = _open_sheet(request, token)
    if sheet is None:
        messages.error(request, gettext("That score sheet is not open in your session (it was saved, or you logged "
                                        "out since); open the night again."))
        return None, _redirect_htmx(request, reverse("treasury_night_new"))
    return sheet, None


def _redirect_htmx(request: HttpRequest, url: str) -> HttpResponse:
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@staff_member_required
def night_sheet(request: HttpRequest, token: str) -> HttpResponse:
    sheet, answer = _sheet_or_saved(request, token)
    if sheet is None:
        return answer  # type: ignore[return-value]
    members = sheet_members(sheet.seats)
    return _page(request, "night_sheet.html", sheet_title(sheet),
                 **_sheet_context(sheet, members))


@staff_member_required
@require_POST
def night_row(request: HttpRequest, token: str) -> HttpResponse:
    """Checks one hand; a good one joins the sheet and comes back priced with the new totals and an empty row for
    the next hand, a bad one comes back as typed with the reason on it. Nothing is written to the books."""
    sheet, answer = _sheet_or_saved(request, token)
    if sheet is None:
        return answer  # type: ignore[return-value]
    members = sheet_members(sheet.seats)
    form = row_form(sheet.game, request.POST, members=members, house=sheet_house(sheet))
    added = False
    if form.is_valid():
        try:
            service.add_row(admin=request.user, sheet=sheet, members=members, row=form.row())
        except TableError as error:
            form.add_error(None, str(error))
        else:
            _keep(request, sheet)
            added = True
    if not request.headers.get("HX-Request"):  # without script: the whole sheet again
        if added:
            return redirect(reverse("treasury_night_sheet", args=[token]) + "#entry")
        return _page(request, "night_sheet.html", sheet_title(sheet),
                     **_sheet_context(sheet, members, form=form))
    context = _sheet_context(sheet, members, form=None if added else form)
    context.update(added=added, added_row=context["rows"][-1] if added else None)
    return TemplateResponse(request, "tables/treasury/night_sheet.html#row_answer", context)


@staff_member_required
@require_POST
def night_row_remove(request: HttpRequest, token: str, number: int) -> HttpResponse:
    sheet, answer = _sheet_or_saved(request, token)
    if sheet is None:
        return answer  # type: ignore[return-value]
    try:
        service.remove_row(admin=request.user, sheet=sheet, number=number)
    except TableError as error:
        messages.error(request, str(error))
    else:
        _keep(request, sheet)
    return _redirect_htmx(request, reverse("treasury_night_sheet", args=[token]) + "#entry")


@staff_member_required
@require_POST
def night_save(request: HttpRequest, token: str) -> HttpResponse:
    if (night := night_for_token(token)) is not None:
        _forget(request, token)
        messages.info(request, ALREADY_SAVED)
        return redirect("treasury_night", night_id=night.pk)
    sheet, answer = _sheet_or_saved(request, token)
    if sheet is None:
        return answer  # type: ignore[return-value]
    members = sheet_members(sheet.seats)
    try:
        saved = service.save_night(admin=request.user, sheet=sheet, members=members)
    except TableError as error:
        return _page(request, "night_sheet.html",
                     sheet_title(sheet),
                     save_error=str(error), **_sheet_context(sheet, members), status=400)
    _forget(request, token)
    if saved.created:
        messages.success(request, ngettext("Saved: %(count)s hand of this night is in the ledger.",
                                           "Saved: %(count)s hands of this night are in the ledger.",
                                           len(sheet.rows)) % {"count": len(sheet.rows)})
    else:
        messages.info(request, ALREADY_SAVED)
    return redirect("treasury_night", night_id=saved.night.pk)


@staff_member_required
def night_detail(request: HttpRequest, night_id: int) -> TemplateResponse:
    night = get_object_or_404(ClubNight.objects.select_related("recorded_by"), pk=night_id)
    members, hands, grand = night_hands(night)
    stake = (night.options or {}).get("stake_cents")
    return _page(request, "night_detail.html", str(night), night=night, members=members, hands=hands, totals=grand,
                 stake_text=dollars_text(stake, signed=False) if stake else "",
                 house_rules=house_rule_lines(night.options or {}),
                 game_title=registry.spec(night.game).title)
