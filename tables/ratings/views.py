"""The ratings page: one game's members and bots by their conservative rating (login is the site's default)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine import registry
from tables.ratings.selectors import game_ratings


def ratings_page(request: HttpRequest) -> HttpResponse:
    """`?game=` picks the game; anything unknown shows the club's first game (as the standings do)."""
    asked = request.GET.get("game", "")
    game = asked if registry.known(asked) else registry.default_key()
    return render(request, "tables/ratings/ratings.html", {
        "spec": registry.spec(game), "specs": registry.all_specs(), "rows": game_ratings(game=game),
        "provisional_matches": settings.RATING_PROVISIONAL_MATCHES,
    })
