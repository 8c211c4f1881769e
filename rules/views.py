"""The rules pages: public, so anyone can learn a game before joining the club."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine import registry


@login_not_required
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"specs": registry.all_specs()})


@login_not_required
def game(request: HttpRequest, key: str) -> HttpResponse:
    if key not in registry.GAME_KEYS:
        raise Http404("The club plays no such game.")
    spec = registry.spec(key)
    return render(request, f"rules/{key}.html", {"spec": spec, "specs": registry.all_specs()})
