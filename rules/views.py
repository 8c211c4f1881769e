"""The rules pages: public, so anyone can learn a game before joining the club."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from rules.card_order import key_for
from rules.engine import registry


@login_not_required
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"specs": registry.all_specs()})


def page_templates(key: str, language: str | None) -> list[str]:
    """Where a game's page is looked for, first found wins. A game's own page tells its rules in words, written
    once per language (rules/<language>/<game>.html; English is rules/<game>.html); a game without a page in the
    reader's language gets its English page rather than less of the rules, and a game without any page the
    generic one from its spec."""
    base = (language or "en").split("-")[0]
    translated = [] if base == "en" else [f"rules/{base}/{key}.html"]
    return [*translated, f"rules/{key}.html", "rules/page.html"]


@login_not_required
def game(request: HttpRequest, key: str) -> HttpResponse:
    if not registry.known(key):
        raise Http404("The club plays no such game.")
    spec = registry.spec(key)
    context = {"spec": spec, "specs": registry.all_specs(), "card_order": key_for(key)}
    return render(request, page_templates(key, get_language()), context)
