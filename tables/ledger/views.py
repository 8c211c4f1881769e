"""Members' pages about finished play: my history, the standings, my rounds replayed, fair deals.

Thin views: they parse the query string, ask one selector (or the fairness check) and render.
A member sees their own entries and rounds only; other members appear in the standings (names
and balances per game) and nowhere else. A finished round's replay and fair-deal check (its seed
deals every hand again) exist for its players and the club's staff only.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine import registry
from tables.ledger.forms import PeriodForm, StandingsForm
from tables.ledger.selectors import (
    MATCHES_SHOWN,
    can_see_round,
    club_today,
    club_zone,
    current_season,
    member_history,
    replay_step,
    standings,
)
from tables.ledger.services.fairness import DealNotRevealed, verify_deal
from tables.models import Round
from tables.play.request_numbers import whole_number

HISTORY_PAGE = 50


def my_history(request: HttpRequest) -> HttpResponse:
    form = PeriodForm(request.GET or None)
    period = form.period() if request.GET else {"game": None, "start": None, "end": None}
    history = member_history(user=request.user, **period)
    page = Paginator(history.rows, HISTORY_PAGE).get_page(whole_number(request.GET.get("page"), low=1))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "tables/ledger/mine.html", {
        "form": form, "history": history, "page": page, "query": query.urlencode(), "period": period,
        "matches_shown": MATCHES_SHOWN,
    })


def standings_page(request: HttpRequest) -> HttpResponse:
    today = club_today()
    season = current_season(today)
    form = StandingsForm(request.GET or None, today=today, season=season)
    period = form.filters() if request.GET else {"game": None, "start": None, "end": None, "minimum": 0,
                                                  "period": StandingsForm.ALL}
    game = period["game"] or registry.default_key()
    spec = registry.spec(game)
    rows = standings(game=game, start=period["start"], end=period["end"], minimum=period["minimum"])
    return render(request, "tables/ledger/standings.html", {
        "form": form, "spec": spec, "specs": registry.all_specs(), "period": period, "season": season,
        "ranked": [r for r in rows if r.rank is not None],
        "unranked": [r for r in rows if r.rank is None and not r.house],
        "house": [r for r in rows if r.house], "club_zone": club_zone().key,
        "columns": 7 if spec.ranked_by == "matches" else 5,
    })


def _step(request: HttpRequest) -> int:
    """The replay's step; anything but a number shows the deal (the replay clamps a step past the end)."""
    return whole_number(request.GET.get("step")) or 0


def _finished_round(request: HttpRequest, round_id: int) -> Round:
    """The round, if the viewer may see its hands; otherwise the same 404 as for no round at all."""
    found = Round.objects.select_related("match__table").filter(pk=round_id).first()
    if found is None or not can_see_round(request.user, found):
        raise Http404("No finished round of yours has this number.")
    return found


def round_replay(request: HttpRequest, round_id: int) -> HttpResponse:
    found = _finished_round(request, round_id)
    replay = replay_step(round=found, step=_step(request))
    template = "tables/ledger/replay.html#replay-panel" if request.htmx else "tables/ledger/replay.html"
    return render(request, template, {"replay": replay})


def fair_deal(request: HttpRequest, round_id: int) -> HttpResponse:
    """The check shows the seed, and the seed deals every hand again: it is for the round's players and staff."""
    found = _finished_round(request, round_id)
    try:
        check = verify_deal(round_id=found.pk)
    except DealNotRevealed as error:
        raise Http404(str(error)) from None
    return render(request, "tables/ledger/fair.html", {
        "check": check, "round": found,
        "seat_rows": list(zip(range(1, len(check.redealt) + 1), check.redealt, check.recorded, check.seats_ok,
                              strict=False)),
    })
