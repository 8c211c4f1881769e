"""What every page's frame shows: the club's name and the games it plays, from the settings and the registry,
so a game registered later appears in the footer like the four."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext

from rules.engine import registry
from rules.templatetags import say


def club(request: HttpRequest) -> dict[str, str]:
    titles = [say(spec.title) for spec in registry.all_specs()]
    if len(titles) < 2:
        games = titles[0] if titles else ""
    else:
        games = gettext("%(games)s and %(last)s") % {"games": ", ".join(titles[:-1]), "last": titles[-1]}
    return {"club_name": settings.CLUB_NAME, "club_games": games}
