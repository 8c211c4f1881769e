"""No request makes a 500, and none is sent to another site: every URL of the URLconf, as a member and as staff.

The URLs come from `get_resolver()` (tests/url_sweep.py), so a page added later is swept too. Each is visited,
its own forms, links and htmx requests say which query parameters it reads, and then every one of them (and a few
any page might read: `page`, `step`, `start`, `end`, `next`...) is sent each nasty value of `NASTY` alone, and all
of them at once. The treasury's forms (and the admin's ledger forms) are posted back with each field nasty in turn,
and every path argument is replaced by the same values. The answer may be a refusal, a 404 or a redirect to a page
of this site, never a 500 nor a redirect elsewhere. The club's zone is east of UTC by fourteen hours, where the
first midnight of year 1 is no moment Python can hold in UTC.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tables.chat.services import chat
from tables.ledger.services.inperson import record_sheepshead_hand
from tables.models import Round, Season, Table
from tables.tournaments import services as tournaments
from tables.tournaments.club_tables import set_where
from tables.treasury.services import nights
from tests.tables.ledger_support import finished_table
from tests.url_sweep import NASTY, Findings, Route, each_value, read_page, routes

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ANYWHERE = ("page", "step", "game", "start", "end", "period", "minimum", "member", "next", "field", "round",
            "in_person", "q", "p", "o", "e")
"""Query parameters any page might read without drawing them (and the admin's own)."""
ADMIN_MODEL = r"admin/(?P<app>\w+)/(?P<model>\w+)/"
ADMIN_REQUESTS, SITE_REQUESTS = 1200, 1500
"""The staff sweep's parts send at least this many requests each, the crawl included (the admin's 3,208 and the rest's
2,592 when they were split; the admin's in two halves)."""
IN_PATHS = ("²", "١٢", "9" * 40, "-1", "<x'\"%>", "https://evil.example/")
"""The nasty values a path can carry (an empty one never reaches the view; the calendar's days are no path's)."""


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def world(make_member, settings) -> dict[str, Any]:
    """A member with a finished round, an in-person hand, a saved club night, an open sheet, a chat line, a
    season, and staff: the objects path arguments name."""
    settings.TIME_ZONE = "Pacific/Kiritimati"
    ann = make_member("ann", display_name="Ann")
    ben, cat = make_member("ben"), make_member("cat")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    table = finished_table("hawk", [ann], bots=3)
    record = record_sheepshead_hand(admin=boss, players=["ann", "ben", "cat"], picker="ann", partner=None,
                                    picker_points=70, stake_cents=50)
    sheet = nights.open_sheet(admin=boss, game="sheepshead", played_on=None, players=[ann, ben, cat],
                              stake_cents=100)
    nights.add_row(admin=boss, draft=sheet, version=sheet.version, members=[ann, ben, cat],
                   row={"picker": str(ann.pk), "partner": "", "points": "70"})
    night = nights.save_night(admin=boss, draft=sheet, version=sheet.version, members=[ann, ben, cat]).night
    line = chat.post_line(author=ann, table_id=None, text="hello")
    Season.objects.create(name="Spring", starts="2026-03-01", ends="2026-05-31")
    staff = client_for(boss)
    opened = staff.post(reverse("treasury_night_new"), {
        "game": "sheepshead", "played_on": "2026-05-01", "stake_cents": "100", "seat_1": "ann", "seat_2": "ben",
        "seat_3": "cat"})
    token = opened["Location"].rstrip("/").rsplit("/", 1)[-1]
    staff.post(reverse("treasury_night_row", args=[token]), {"picker": str(ann.pk), "points": "61", "version": "1"})
    tournament = tournaments.create_tournament(organiser=boss, name="Cup", game="hawsker", format="swiss", rounds=1)
    tournaments.open_entries(tournament_id=tournament.pk, staff=boss)
    for player in (ann, ben):
        tournaments.enter(tournament_id=tournament.pk, user=player)
    tournaments.close_entries(tournament_id=tournament.pk, staff=boss)
    pairing = tournaments.draw_next_round(tournament_id=tournament.pk, staff=boss).tables.get()
    set_where(table_id=pairing.pk, staff=boss, where="club")
    tournaments.start_round(tournament_id=tournament.pk, staff=boss)
    values = {
        "tournament_id": str(tournament.pk), "table_id": str(pairing.pk),
        "code": table.code, "round_id": str(Round.objects.filter(match__table=table).first().pk),
        "record_id": str(record.pk), "night_id": str(night.pk), "token": token, "number": "1",
        "username": "ann", "pk": "1", "member_id": str(ben.pk), "message_id": str(line.pk), "key": "hawk",
        "uidb36": "1", "app_label": "tables", "content_type_id": str(ContentType.objects.get_for_model(Table).pk),
        "url": "nowhere/", "object_id": "1", "id": str(ann.pk),
    }
    return {"member": client_for(ann), "staff": staff, "values": values, "users": {"member": ann, "staff": boss}}


def values_for(route: Route, values: dict[str, str]) -> dict[str, str]:
    """The path arguments: an admin's object is that admin's model's first."""
    import re

    found = re.match(ADMIN_MODEL, route.pattern)
    if found and ("object_id", "path") in route.params:
        try:
            model = apps.get_model(found.group("app"), found.group("model"))
        except LookupError:
            return values
        first = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
        return {**values, "object_id": str(first or 1)}
    return values


def hierarchy_keys(path: str) -> list[str]:
    """An admin changelist's date hierarchy parameters (its links show only the levels above the one shown)."""
    for model, model_admin in admin.site._registry.items():
        if model_admin.date_hierarchy and path == f"/admin/{model._meta.app_label}/{model._meta.model_name}/":
            return [f"{model_admin.date_hierarchy}__{part}" for part in ("year", "month", "day")]
    return []


def crawl(client: Client, values: dict[str, str], findings: Findings) -> tuple[list[str], dict[str, set[str]]]:
    """Every URL once, plainly; the query parameters each path is used with on the pages seen."""
    urls, keys = [], {}
    for route in routes():
        url = route.url(values_for(route, values))
        urls.append(url)
        response = client.get(url)
        findings.check(response, f"GET {url}")
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            page = read_page(url, response.content.decode())
            for path, found in page.queries.items():
                keys.setdefault(path, set()).update(found)
            for form in page.forms:
                if form.method == "get":
                    keys.setdefault(urlsplit(form.action).path, set()).update(form.names())
    return urls, keys


def sweep_queries(client: Client, values: dict[str, str], *, admin: bool | None = None, share: tuple[int, int] = (0, 1),
                  ) -> Findings:
    """`admin`: only the admin's URLs (True), only the others (False), or all (None); `share` (k, n): of those, every
    n-th from the k-th. The crawl always visits every URL, since one page's links say which parameters another reads."""
    findings = Findings()
    urls, keys = crawl(client, values, findings)
    chosen = [url for url in dict.fromkeys(urls) if admin is None or urlsplit(url).path.startswith("/admin/") == admin]
    for url in chosen[share[0]::share[1]]:
        path = urlsplit(url).path
        own = sorted(keys.get(path, set()) | set(hierarchy_keys(path)))
        for key, value in each_value(own):
            findings.check(client.get(url, {key: value}), f"GET {url}?{key}={value!r}")
        for value in NASTY:
            every = dict.fromkeys([*own, *ANYWHERE], value)
            findings.check(client.get(url, every), f"GET {url} with every parameter {value!r}")
            if not path.startswith("/admin/"):
                findings.check(client.get(url, every, **HTMX), f"GET {url} (htmx) with every parameter {value!r}")
    return findings


def test_every_url_with_nasty_query_values_as_a_member(world) -> None:
    findings = sweep_queries(world["member"], world["values"])
    assert findings.requests > 2000  # the pages' own parameters were found (3,742 requests when this was written)
    assert not findings.lines, findings.report()


# In three parts, each well inside the per-test timeout on a loaded machine (the whole took 239 s at load 9-12; the
# admin's pages 159 s and the rest 58 s at load 20).
@pytest.mark.parametrize(("admin", "share", "at_least"), [
    (True, (0, 2), ADMIN_REQUESTS), (True, (1, 2), ADMIN_REQUESTS), (False, (0, 1), SITE_REQUESTS),
], ids=["admin-1", "admin-2", "site"])
def test_every_url_with_nasty_query_values_as_staff(world, admin: bool, share: tuple[int, int], at_least: int) -> None:
    findings = sweep_queries(world["staff"], world["values"], admin=admin, share=share)
    assert findings.requests > at_least  # the pages' own parameters were found
    assert not findings.lines, findings.report()


def nasty_paths(world: dict[str, Any]) -> Iterator[tuple[Route, str]]:
    for route in routes():
        base = values_for(route, world["values"])
        for name, _converter in route.params:
            for value in IN_PATHS:
                yield route, route.url({**base, name: value})


def test_every_path_argument_nasty_as_a_member_and_as_staff(world) -> None:
    findings = Findings()
    for route, url in nasty_paths(world):
        findings.check(world["member"].get(url), f"GET {url} (member)")
        findings.check(world["staff"].get(url), f"GET {url} (staff)")
        if not route.pattern.startswith("admin/"):
            with transaction.atomic():
                findings.check(world["staff"].post(url, {"next": "https://evil.example/"}), f"POST {url} (staff)")
                transaction.set_rollback(True)
    assert not findings.lines, findings.report()


def form_pages(world: dict[str, Any]) -> list[str]:
    """The treasury's pages, and the admin's pages where the ledger is written to by hand."""
    extra = [reverse("admin:tables_inpersonrecord_sheepshead"), reverse("admin:tables_inpersonrecord_hawk"),
             reverse("admin:tables_ledgerentry_correct") + f"?round={world['values']['round_id']}",
             reverse("admin:tables_ledgerentry_correct") + f"?in_person={world['values']['record_id']}",
             reverse("admin:tables_season_add")]
    return [route.url(values_for(route, world["values"])) for route in routes()
            if route.pattern.startswith("treasury/")] + extra


def test_the_treasurys_forms_posted_with_nasty_values(world) -> None:
    staff = world["staff"]
    findings = Findings()
    posted = 0
    for page in form_pages(world):
        response = staff.get(page)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for form in read_page(page, response.content.decode()).forms:
            if form.method != "post":
                continue
            posted += 1
            extra = HTMX if form.htmx else {}
            for name, value in each_value(form.names()):
                with transaction.atomic():  # each post starts from the same books and the same sheet
                    findings.check(staff.post(form.action, form.data(name, value), **extra),
                                   f"POST {form.action} {name}={value!r} (from {page})")
                    transaction.set_rollback(True)
    assert posted >= 8, posted  # the sheet's rows, opening a night, settling, replacing a hand, the admin's forms
    assert not findings.lines, findings.report()


def test_no_url_sends_a_member_or_staff_off_site_with_a_next(world) -> None:
    """Every URL, by GET and by POST, with `next` (and the names allauth and Django use) pointing elsewhere."""
    findings = Findings()
    for route in routes():
        url = route.url(values_for(route, world["values"]))
        for who in ("member", "staff"):
            for target in ("https://evil.example/", "//evil.example/", "https:/\\evil.example/"):
                query = {"next": target, "redirect_to": target, "success_url": target}
                findings.check(world[who].get(url, query), f"GET {url} next={target!r} ({who})")
                with transaction.atomic():
                    findings.check(world[who].post(url, query), f"POST {url} next={target!r} ({who})")
                    findings.check(world[who].post(url, query, **HTMX), f"POST {url} (htmx) next={target!r} ({who})")
                    transaction.set_rollback(True)
                if "_auth_user_id" not in world[who].session:  # that was the way out: back in for the next URL
                    world[who].force_login(world["users"][who])
    assert not findings.lines, findings.report()
