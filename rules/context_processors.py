"""What every page's frame shows: the club's name and the games it plays, from the settings and the registry,
so a game registered later appears in the footer like the four."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext

from rules.engine import registry


def club(request: HttpRequest) -> dict[str, str]:
    titles = [spec.title for spec in registry.all_specs()]
    games = titles[0] if len(titles) < 2 else gettext("%(games)s and %(last)s") % {
        "games": ", ".join(titles[:-1]), "last": titles[-1]}
    return {"club_name": settings.CLUB_NAME, "club_games": games}
