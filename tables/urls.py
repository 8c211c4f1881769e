from __future__ import annotations

from django.urls import include, path

# Each feature's pages, at the paths and names they always had (no namespaces: `{% url 'table' %}` stays).
urlpatterns = [
    path("", include("tables.lobby.urls")),
    path("", include("tables.play.urls")),
    path("", include("tables.ledger.urls")),
    path("", include("tables.quickplay.urls")),
    path("treasury/", include("tables.treasury.urls")),
    path("", include("tables.ratings.urls")),
    path("", include("tables.profiles.urls")),
    path("", include("tables.invitations.urls")),
    path("", include("tables.chat.urls")),
    path("", include("tables.notices.urls")),
    path("tournaments/", include("tables.tournaments.club_urls")),
    path("tournaments/", include("tables.tournaments.urls")),
]
