"""Pages of the club: thin views that ask selectors and render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine import registry
from tables.services import presence


@login_not_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/home.html", {"specs": registry.all_specs()})


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby.html", {"online_count": presence.online_count()})
