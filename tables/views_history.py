"""Members' pages about finished play: my history, the standings, my rounds replayed, fair deals.

Thin views: they parse the query string, ask one selector (or the fairness check) and render.
A member sees their own entries and rounds only; other members appear in the standings (names
and balances per game) and nowhere else. Replays exist only for finished rounds the member played.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from rules.engine import registry
from tables.forms_ledger import PeriodForm
from tables.models import Round
from tables.selectors_history import (
    LOWER_IS_BETTER,
    can_replay,
    member_history,
    replay_step,
    round_members,
    standings,
)
from tables.services.fairness import DealNotRevealed, verify_deal

HISTORY_PAGE = 50


def my_history(request: HttpRequest) -> HttpResponse:
    form = PeriodForm(request.GET or None)
    period = form.period() if request.GET else {"game": None, "start": None, "end": None}
    history = member_history(user=request.user, **period)
    page = Paginator(history.rows, HISTORY_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "tables/history/mine.html", {
        "form": form, "history": history, "page": page, "query": query.urlencode(), "period": period,
    })


def standings_page(request: HttpRequest) -> HttpResponse:
    form = PeriodForm(request.GET or None)
    period = form.period() if request.GET else {"game": None, "start": None, "end": None}
    game = period["game"] or "sheepshead"
    spec = registry.spec(game)
    return render(request, "tables/history/standings.html", {
        "form": form, "spec": spec, "specs": registry.all_specs(), "period": period,
        "rows": standings(game=game, start=period["start"], end=period["end"]),
        "lower_is_better": game in LOWER_IS_BETTER,
    })


def _step(request: HttpRequest) -> int:
    raw = request.GET.get("step", "0")
    return int(raw) if raw.isdigit() and len(raw) < 6 else 0


def round_replay(request: HttpRequest, round_id: int) -> HttpResponse:
    found = get_object_or_404(Round.objects.select_related("match__table"), pk=round_id)
    if not can_replay(request.user, found):
        raise Http404("No finished round of yours has this number.")
    replay = replay_step(round=found, step=_step(request))
    template = "tables/history/replay.html#replay-panel" if request.htmx else "tables/history/replay.html"
    return render(request, template, {"replay": replay})


def fair_deal(request: HttpRequest, round_id: int) -> HttpResponse:
    """Any member may check any finished round's deal; the cards are shown to its players only."""
    try:
        check = verify_deal(round_id=round_id)
    except DealNotRevealed as error:
        raise Http404(str(error)) from None
    found = Round.objects.select_related("match__table").get(pk=round_id)
    played = request.user.pk in round_members(found)
    return render(request, "tables/history/fair.html", {
        "check": check, "round": found, "show_cards": played, "can_replay": played,
        "seat_rows": list(zip(range(1, len(check.redealt) + 1), check.redealt, check.recorded, check.seats_ok,
                              strict=False)),
    })
