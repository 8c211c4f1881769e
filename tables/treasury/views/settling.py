"""Settling up (staff only): one game's balances and who pays whom; a POST marks them settled."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from rules.engine import registry
from tables.play.services.errors import TableError
from tables.treasury.forms.settling import BooksForm, SettleForm
from tables.treasury.selectors.settling import (
    entries_after,
    money_game,
    open_balances,
    past_settlements,
    period_balances,
)
from tables.treasury.services.settling import settle_game


def _back(game: str) -> HttpResponse:
    return redirect(f"{reverse('treasury_settle')}?game={game}")


@staff_member_required
@require_http_methods(["GET", "POST"])
def settle(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        confirm = SettleForm(request.POST)
        if not confirm.is_valid():
            messages.error(request, gettext("That confirmation made no sense (the page may be out of date): look "
                                            "again."))
            game = request.POST.get("game")
            return _back(game if registry.known(game) else money_game())
        try:
            settlement, new = settle_game(treasurer=request.user, **confirm.service_kwargs())
        except TableError as error:
            messages.error(request, str(error))
        else:
            if new:
                later = entries_after(game=settlement.game, through=settlement.through_entry_id)
                paid = len(settlement.payments)
                said = ngettext("Settled: %(count)s payment recorded; balances start again from zero.",
                                "Settled: %(count)s payments recorded; balances start again from zero.",
                                paid) % {"count": paid}
                if later:
                    said += " " + ngettext(
                        "%(count)s entry recorded since this page was drawn stays open for the next settlement.",
                        "%(count)s entries recorded since this page was drawn stay open for the next settlement.",
                        later) % {"count": later}
                messages.success(request, said)
            else:
                messages.info(request, gettext("These balances were already settled; nothing more was written."))
        return _back(confirm.cleaned_data["game"])
    asked = request.GET.copy()
    if not asked.get("game"):
        asked["game"] = money_game()
    form = BooksForm(asked)
    if not form.is_valid():
        game = form.cleaned_data.get("game") or money_game()
        books = open_balances(game=game)
    else:
        period = form.period()
        game = period["game"]
        books = (period_balances(game=game, start=period["start"], end=period["end"])
                 if period["start"] or period["end"] else open_balances(game=game))
    confirm = SettleForm(initial={"game": game, "through": books.through, "seen": books.seen})
    return TemplateResponse(request, "tables/treasury/settle.html", {
        **admin.site.each_context(request), "title": gettext("Settling up: %(game)s") % {"game": books.spec.title},
        "form": form,
        "books": books, "confirm": confirm, "past": past_settlements(game=game),
        "games": [(spec.key, spec.title) for spec in registry.all_specs()],
    })
