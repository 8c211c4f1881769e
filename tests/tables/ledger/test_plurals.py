"""Names and amounts read as English: "Matches", "1 point", "2 points", never "Matchs" or "1 points"."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from config.jinja2 import environment
from tables.ledger.selectors import money_text
from tables.ledger.services.ledger import correct_entries
from tables.models import LedgerEntry
from tests.tables.ledger_support import finished_table

# A plural made by a bare "s" after a word that needs "es" (match, box, ...) or "ies" (entry).
BAD_PLURAL = re.compile(r"(?:ch|sh|ss|x|z)s$|[^aeiou]ys$")


@pytest.mark.parametrize("label", ["tables", "accounts"])
def test_every_model_has_a_proper_plural(label: str) -> None:
    for model in apps.get_app_config(label).get_models():
        plural = str(model._meta.verbose_name_plural)
        assert not BAD_PLURAL.search(plural), f"{model.__name__}: {plural!r}"


@pytest.mark.django_db
def test_the_admin_lists_matches_not_matchs(make_member) -> None:
    client = Client()
    client.force_login(make_member("boss", is_staff=True, is_superuser=True))
    for url in (reverse("admin:index"), reverse("admin:app_list", args=["tables"])):
        page = client.get(url).content.decode()
        assert "Matches" in page and "Matchs" not in page, url


@pytest.mark.parametrize(("amount", "shown"), [
    (1, "+1 point"), (-1, "-1 point"), (2, "+2 points"), (-2, "-2 points"), (0, "0 points"),
])
def test_points_are_counted_in_english(amount: int, shown: str) -> None:
    assert money_text(amount, "points") == shown


@pytest.mark.parametrize(("total", "shown"), [(1, "1 point"), (-1, "-1 point"), (0, "0 points"), (12, "12 points")])
def test_the_board_counts_points_in_english(total: int, shown: str) -> None:
    assert environment().from_string("{{ total|points }}").render(total=total) == shown


@pytest.mark.django_db
def test_a_one_point_entry_reads_one_point_in_the_history_and_the_admin(make_member) -> None:
    dora = make_member("dora", display_name="Dora")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    table = finished_table("hawsker", [dora], bots=1)
    entry = LedgerEntry.objects.get(round__match__table=table, member=dora)
    target = 1 if entry.amount != 1 else -1
    correct_entries(admin=boss, reason="Counted again", changes={entry.pk: target})
    shown = money_text(target, "points")
    member_client, admin_client = Client(), Client()
    member_client.force_login(dora)
    admin_client.force_login(boss)
    history = member_client.get(reverse("my_history")).content.decode()
    listing = admin_client.get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    for page in (history, listing):
        assert shown in page
        assert not re.search(r"(?<!\d)[+-]?1 (?:points|pts)\b", page)
