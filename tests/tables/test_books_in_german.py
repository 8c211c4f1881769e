"""The club's books and club life in German (issue 23): a member's history, the standings, replays, the fair-deal
check, profiles and ratings, and the treasurer's pages and the admin of the club's own models, each rendered with
German asked for by the browser, say German and none of the English phrases their templates hold; money reads
"12,50 $" in German and "$12.50" in English."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tables.ledger.selectors import club_today, dollars_text, money_text
from tables.models import LedgerEntry, Round
from tests.tables.ledger_support import finished_table
from tests.tables.treasury.books_support import booked, club_night

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat"]

# English phrases of the pages below (from their templates and the sentences their selectors write): none may be
# left on a page shown in German.
ENGLISH = [
    "My history", "Every round you finished", "Balances", "Running balance", "Rounds and entries", "Replay rounds",
    "See the club's standings", "Check the deal", "At the club's table", "Standings:", "Ranked by", "Not yet ranked",
    "The house: bots", "Bots play for the house", "Days are the club's", "Win rate", "Points per hand",
    "Per hand", "This month", "All time", "Was this deal the one committed to?", "Dealt again from the seed",
    "Check it yourself", "Replay this round", "The round is over, so every hand is shown", "Step through the round",
    "Every move in order", "Move 0 of", "The deal.", "Forward", "Member since", "Matches finished",
    "Recent matches", "Highest rating", "not rated yet", "Ratings:", "A skill rating from every finished match",
    "highest first", "Statement for", "Balance brought forward", "What happened", "Print this page",
    "Download as CSV", "Statements for everyone", "Who pays whom", "Past settlements", "Mark settled",
    "Since the last settlement", "Settling up", "Club nights", "Saved nights", "Recorded by", "Ledger entries",
    "Balances per member", "Export these entries", "Record a Sheepshead hand", "Record a Hawk round",
    "Home</a>", "Bots (the house)", "Easy bot", "Normal bot", "Strong bot", "(you)", "hand; change in the period",
    "hands; change in the period",
    "Club night of", "Open a club night", "Sums of ledger entries", "Choose a game and a period",
]


@pytest.fixture(scope="module", autouse=True)
def _compiled_catalogue() -> None:
    """`make install` compiles the catalogue (its .mo is not committed); a checkout that has not run it yet gets it
    compiled here, so these tests read the German the .po holds."""
    po = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        call_command("compilemessages", locale=["de"], ignore_patterns=[".venv", "var"], verbosity=0)


def english_left(html: str) -> list[str]:
    text = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    return [phrase for phrase in ENGLISH if phrase in text]


def german(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    return client


@pytest.fixture
def treasurer(make_member):
    return make_member("tess", display_name="Tess", is_staff=True, is_superuser=True)


@pytest.fixture
def club(make_member):
    return {name: make_member(name, display_name=name.title()) for name in NAMES}


@pytest.fixture
def books(treasurer, club):
    """Ann wins $12.50 at the club's table two days ago, and plays a hand of Sheepshead online with a bot."""
    ann, ben = club["ann"], club["ben"]
    night = club_night(treasurer, club_today() - timedelta(days=2), [ann, ben])
    booked(treasurer, club_today() - timedelta(days=2), {ann: 1250, ben: -1250}, night=night, number=1)
    table = finished_table("sheepshead", [ann, ben, club["cat"]], bots=2)
    return Round.objects.filter(match__table=table, over=True).first()


def test_money_is_written_as_each_language_writes_it() -> None:
    with translation.override("en"):
        assert (money_text(1250, "cents"), money_text(-1250, "cents"), dollars_text(1250, signed=False)) == (
            "+$12.50", "-$12.50", "$12.50")
    with translation.override("de"):
        assert (money_text(1250, "cents"), money_text(-1250, "cents"), dollars_text(1250, signed=False)) == (
            "+12,50 $", "-12,50 $", "12,50 $")
        assert dollars_text(123456, signed=False) == "1234,56 $"


def test_a_members_pages_of_the_books_are_german(club, books) -> None:
    ann = german(club["ann"])
    pages = {
        "history": reverse("my_history"),
        "standings": reverse("standings") + "?game=sheepshead&minimum=5",
        "replay": reverse("round_replay", args=[books.pk]),
        "fair deal": reverse("fair_deal", args=[books.pk]),
        "profile": reverse("member_profile", args=["ann"]),
        "ratings": reverse("ratings") + "?game=sheepshead",
    }
    for name, url in pages.items():
        response = ann.get(url)
        html = response.content.decode()
        assert response.status_code == 200, name
        assert '<html lang="de"' in html or response.headers.get("Content-Language") == "de", name
        assert english_left(html) == [], (name, english_left(html))
    history = ann.get(pages["history"]).content.decode()
    assert "Meine Spiele" in history and "Laufender Saldo" in history and "+12,50 $" in history
    assert "$12.50" not in history
    standings = ann.get(pages["standings"]).content.decode()
    assert "Tabelle: Sheepshead" in standings and "Leichter Bot" in standings  # the house, by its bots' level
    assert "War das Geben das vorher festgelegte?" in ann.get(pages["fair deal"]).content.decode()
    assert "Mitglied seit" in ann.get(pages["profile"]).content.decode()


def test_the_same_history_in_english_keeps_dollars_first(club, books) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(club["ann"])
    html = client.get(reverse("my_history")).content.decode()
    assert "My history" in html and "+$12.50" in html and "12,50 $" not in html


def test_the_treasurers_pages_are_german(treasurer, club, books) -> None:
    tess = german(treasurer)
    statement = tess.get(reverse("treasury_statement"), {"member": "ann", "game": "sheepshead"}).content.decode()
    assert "Kontoauszug für Ann" in statement and "Übertrag" in statement and "+12,50 $" in statement
    assert 'data-label="Saldo"' in statement  # the phone layout's word for the balance column
    for url in (reverse("treasury_statement") + "?member=ann", reverse("treasury_statements_everyone"),
                reverse("treasury_settle") + "?game=sheepshead", reverse("treasury_settle") + "?game=hawk",
                reverse("treasury_nights"),
                reverse("admin:tables_ledgerentry_balances"), reverse("admin:tables_ledgerentry_changelist")):
        html = tess.get(url).content.decode()
        assert english_left(html) == [], (url, english_left(html))
    settle = tess.get(reverse("treasury_settle") + "?game=sheepshead").content.decode()
    assert "Wer zahlt wem" in settle and re.search(r"\w+ zahlt \w+ \d+,\d\d \$", settle)


def test_the_statement_csv_speaks_german_but_keeps_amounts_machine_readable(treasurer, club, books) -> None:
    response = german(treasurer).get(reverse("treasury_statement_csv"), {"member": "ann", "game": "sheepshead"})
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("Mitglied,Benutzername,Spiel,Einheit,gespielt_am,gebucht_am,wo,Ergebnis")
    row = next(line for line in lines if ",1250," in line)
    assert "Clubabend vom" in row and "+$12.50" in row and "12,50" not in row


def test_the_admin_names_the_clubs_models_in_german(treasurer, books) -> None:
    html = german(treasurer).get(reverse("admin:app_list", args=["tables"])).content.decode()
    for name in ("Spielbetrieb", "Buchungen", "Ergebnisse am Clubtisch", "Partien", "Runden",
                 "Tische", "Saisons", "Partieergebnisse", "Chatnachrichten", "Schnellspiel-Anfragen"):
        assert name in html, name
    for english in ("Tables and play", "Ledger entries", "In-person results", "Matches"):
        assert f">{english}<" not in html, english
    entries = german(treasurer).get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    assert "Buchungen" in entries and LedgerEntry.objects.exists()
