"""The rules pages: public, so anyone can learn a game before joining the club."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules.card_order import key_for
from rules.engine import registry


@login_not_required
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"specs": registry.all_specs()})


@login_not_required
def game(request: HttpRequest, key: str) -> HttpResponse:
    if not registry.known(key):
        raise Http404("The club plays no such game.")
    spec = registry.spec(key)
    # A game's own page tells its rules in words; a game without one still gets the generic page from its spec.
    context = {"spec": spec, "specs": registry.all_specs(), "card_order": key_for(key)}
    return render(request, [f"rules/{key}.html", "rules/page.html"], context)
