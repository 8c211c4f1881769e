"""German in the back office (issue 42, item 10): the admin's and the treasury's field labels, a club-made table
name in the reader's language on history, replays and statements, the rules pages' option tables without the
engine's keys, the fair page's sentence about the blind, and one German word each for the blind and the picker
throughout the catalogue."""

from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from rules.engine import registry
from rules.engine.sheepshead.house import NIGHT_OPTIONS
from tables.ledger.selectors import club_today
from tables.models import ClubNight, InPersonRecord, LedgerEntry, Round, Settlement, Table
from tables.treasury.selectors.settling import open_balances
from tables.treasury.services.settling import settle_game
from tests.tables.ledger_support import finished_table
from tests.tables.test_books_in_german import german
from tests.tables.treasury.books_support import booked, club_night

# The English labels a German treasurer met in the admin and the treasury (the list, and the other fields of
# the same records), as the admin writes them: capitalised, as a column heading or a field's label.
ENGLISH_LABELS = [
    "Created at", "Game", "Kind", "Reason", "Made by", "Played on", "Facts", "Score", "Recorded by", "Recorded at",
    "Member", "Seat", "Amount", "Unit", "Label", "Is bot", "Round", "In person", "Reverses", "Corrects", "Summary",
    "Summary said", "Note", "Number", "Night", "Replaces", "Seats", "Options", "Token", "Settled by", "Settled at",
    "Balances", "Payments", "After entry", "Through entry", "Who", "From", "Version", "Replaced by", "Hands",
    "Players in seat order", "Members settled", "Score sheet", "Ledger entries", "Date", "When", "Where", "Balance",
]
GERMAN_LABELS = ["Angelegt am", "Gespielt am", "Eingetragen von", "Angaben", "Wertung", "Vorgenommen von",
                 "Abgerechnet von", "Spiel", "Grund", "Art"]


def labels_in(page: str) -> set[str]:
    """Every text the page shows alone in an element (a column heading, a field's label, a cell), colon dropped."""
    return {html_lib.unescape(text).strip().rstrip(":").strip() for text in re.findall(r">([^<>]+)<", page)}


@pytest.fixture
def treasurer(make_member):
    return make_member("tess", display_name="Tess", is_staff=True, is_superuser=True)


@pytest.fixture
def club(make_member):
    return {name: make_member(name, display_name=name.title()) for name in ("ann", "ben", "cat")}


@pytest.mark.django_db
def test_the_admin_and_the_treasury_label_their_fields_in_german(treasurer, club) -> None:
    ann, ben = club["ann"], club["ben"]
    night = club_night(treasurer, club_today() - timedelta(days=1), [ann, ben])
    booked(treasurer, club_today() - timedelta(days=1), {ann: 250, ben: -250}, night=night, number=1)
    books = open_balances(game="sheepshead")
    settlement, _new = settle_game(treasurer=treasurer, game="sheepshead", through=books.through, seen=books.seen)
    entry, record = LedgerEntry.objects.first(), InPersonRecord.objects.get()
    assert ClubNight.objects.get() == night and Settlement.objects.get() == settlement
    pages = {
        "ledger": reverse("admin:tables_ledgerentry_changelist"),
        "ledger entry": reverse("admin:tables_ledgerentry_change", args=[entry.pk]),
        "in-person records": reverse("admin:tables_inpersonrecord_changelist"),
        "in-person record": reverse("admin:tables_inpersonrecord_change", args=[record.pk]),
        "club nights": reverse("admin:tables_clubnight_changelist"),
        "club night": reverse("admin:tables_clubnight_change", args=[night.pk]),
        "settlements": reverse("admin:tables_settlement_changelist"),
        "settlement": reverse("admin:tables_settlement_change", args=[settlement.pk]),
        "statement": reverse("treasury_statement") + "?member=ann&game=sheepshead",
        "everyone's statements": reverse("treasury_statements_everyone"),
        "settle": reverse("treasury_settle") + "?game=sheepshead",
        "nights": reverse("treasury_nights"),
        "night": reverse("treasury_night", args=[night.pk]),
        "replace a hand": reverse("treasury_replace_hand", args=[record.pk]),
    }
    tess = german(treasurer)
    seen_german: set[str] = set()
    for name, url in pages.items():
        response = tess.get(url)
        assert response.status_code == 200, name
        shown = labels_in(response.content.decode())
        assert shown & set(ENGLISH_LABELS) == set(), (name, shown & set(ENGLISH_LABELS))
        seen_german |= shown & set(GERMAN_LABELS)
        if name in ("in-person record", "ledger"):
            assert {"Gespielt am", "Angaben", "Wertung", "Eingetragen von"} <= shown or name == "ledger", shown
            assert {"Angelegt am", "Spiel", "Art", "Grund", "Vorgenommen von"} <= shown or name != "ledger", shown
    assert len(seen_german) >= 5, seen_german
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(treasurer)
    record_page = labels_in(english.get(pages["in-person record"]).content.decode())
    assert {"Played on", "Facts", "Score", "Recorded by"} <= record_page  # the labels are the same fields', in English


@pytest.mark.django_db
def test_a_club_made_table_name_reads_in_german_on_history_replay_and_statements(treasurer, club) -> None:
    table = finished_table("sheepshead", [club["ann"], club["ben"], club["cat"]], bots=2)
    Table.objects.filter(pk=table.pk).update(name="Ann's Sheepshead table 2")  # as the second of Ann's tables is named
    played = Round.objects.get(match__table=table, over=True)
    ann = german(club["ann"])
    pages = {
        "history": ann.get(reverse("my_history")).content.decode(),
        "replay": ann.get(reverse("round_replay", args=[played.pk])).content.decode(),
        "fair deal": ann.get(reverse("fair_deal", args=[played.pk])).content.decode(),
        "admin rounds": german(treasurer).get(reverse("admin:tables_round_changelist")).content.decode(),
        "admin replay": german(treasurer).get(reverse("admin:tables_round_replay", args=[played.pk])).content.decode(),
        "statement": german(treasurer).get(reverse("treasury_statement") + "?member=ann&game=sheepshead")
        .content.decode(),
    }
    for name, page in pages.items():
        text = html_lib.unescape(page)
        assert "Sheepshead-Tisch 2 von Ann" in text, name
        assert "Ann's Sheepshead table" not in text, name
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(club["ann"])
    assert "Ann's Sheepshead table 2" in html_lib.unescape(english.get(reverse("my_history")).content.decode())


@pytest.mark.django_db
def test_the_fair_page_names_the_blind_in_german_grammar(club) -> None:
    table = finished_table("sheepshead", [club["ann"], club["ben"], club["cat"]], bots=2)
    played = Round.objects.get(match__table=table, over=True)
    page = html_lib.unescape(german(club["ann"]).get(reverse("fair_deal", args=[played.pk])).content.decode())
    assert "und dieselbe Blinde." in page
    assert "dasselbe blind" not in page and not re.search(r"\bblind\b", page)
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(club["ann"])
    assert "and the same blind." in english.get(reverse("fair_deal", args=[played.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_option_tables_show_labels_not_the_engines_keys(client, language) -> None:
    for spec in registry.all_specs():
        page = client.get(reverse("rules_game", args=[spec.key]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        table = re.search(r'<table class="options">.*?</table>', page, flags=re.S)
        assert table is not None, spec.key
        options = table.group(0)
        keys = {option.name for option in spec.options} | {
            value for option in spec.options for value, _label in option.choices}
        if spec.key == "sheepshead":  # the house rules of a club night are described on the same page
            keys |= {option.name for option in NIGHT_OPTIONS}
        assert "<code>" not in options, spec.key
        shown = labels_in(options) | set(re.findall(r"[\w_]+", options))
        assert {key for key in keys if "_" in key} & shown == set(), spec.key
        for key in keys:  # nowhere on the page as code, either (the German rules named two options by their keys)
            assert f"<code>{key}</code>" not in page, (spec.key, key)
        assert len(re.findall(r'<th scope="row">', options)) == len(spec.options)


def catalogue() -> list[tuple[str, str]]:
    """(msgid, msgstr) of every entry of the German catalogue, plural forms joined."""
    po = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
    found = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        parts: dict[str, list[str]] = {"msgid": [], "msgstr": []}
        current = None
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            match = re.match(r'(msgid_plural|msgid|msgstr(?:\[\d+\])?|msgctxt) "(.*)"$', line)
            if match:
                key = match.group(1)
                current = "msgstr" if key.startswith("msgstr") else "msgid" if key.startswith("msgid") else None
                value = match.group(2)
            elif line.startswith('"'):
                value = line[1:-1]
            else:
                continue
            if current:
                parts[current].append(value)
        if parts["msgid"] and "".join(parts["msgid"]):
            found.append((" ".join(parts["msgid"]), " ".join(parts["msgstr"])))
    return found


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{ *\w+ *\}\}")


def test_the_catalogue_says_die_blinde_and_aufnehmer_every_time() -> None:
    entries = [(PLACEHOLDER.sub("", msgid), msgstr) for msgid, msgstr in catalogue()]
    blind = [(msgid, msgstr) for msgid, msgstr in entries if re.search(r"\bblind\b", msgid, flags=re.I)]
    picker = [(msgid, msgstr) for msgid, msgstr in entries if re.search(r"\bpicker", msgid, flags=re.I)]
    assert len(blind) >= 10 and len(picker) >= 15  # the board's, the result's and the treasurer's sentences
    for msgid, msgstr in blind:
        assert re.search(r"\bBlinden?\b", msgstr), (msgid, msgstr)  # die Blinde, der Blinden
        assert not re.search(r"\b(?:Blind|Blinder|Blindes|Stock)\b", msgstr), (msgid, msgstr)
    for msgid, msgstr in picker:
        assert re.search(r"\bAufnehmer", msgstr), (msgid, msgstr)
    rules = (Path(settings.BASE_DIR) / "templates" / "rules" / "de" / "sheepshead.html").read_text(encoding="utf-8")
    assert "Blinde" in rules and "Aufnehmer" in rules
    assert not re.search(r"\b(?:Blind|Blinder)\b", rules)


def test_the_catalogue_and_the_rules_page_call_the_leaster_ramsch() -> None:
    """One German word for the hand nobody picks, as for the blind and the picker: the board, the results, the
    treasurer's sheet and the rules page all say Ramsch (the rules page names the American word once, in brackets)."""
    entries = [(PLACEHOLDER.sub("", msgid), msgstr) for msgid, msgstr in catalogue()]
    leaster = [(msgid, msgstr) for msgid, msgstr in entries if re.search(r"\bleasters?\b", msgid, flags=re.I)]
    assert len(leaster) >= 10
    for msgid, msgstr in leaster:
        assert "Ramsch" in msgstr and "Leaster" not in msgstr, (msgid, msgstr)
    rules = (Path(settings.BASE_DIR) / "templates" / "rules" / "de" / "sheepshead.html").read_text(encoding="utf-8")
    headings = re.findall(r"<h2[^>]*>([^<]*)</h2>", rules)
    assert "Ramsch" in headings and not any("Leaster" in heading for heading in headings)
    assert rules.count("Leaster") == 1  # „Leaster“ in brackets, where the Ramsch is explained


@pytest.mark.parametrize("app", ["tables", "accounts"])
def test_every_field_of_the_club_has_a_translated_label(app: str) -> None:
    """The admin and the treasury's forms label fields by their verbose_name: a field without one shows its English
    name to a German treasurer (the nights' payments and sheets, added beside the labelling work, had none)."""
    unlabelled = [f"{model.__name__}.{field.name}" for model in apps.get_app_config(app).get_models()
                  for field in model._meta.get_fields()
                  if field.concrete and not field.auto_created and not isinstance(field.verbose_name, Promise)]
    assert unlabelled == []
    with translation.override("de"):
        untranslated = [f"{model.__name__}.{field.name}" for model in apps.get_app_config(app).get_models()
                        for field in model._meta.get_fields()
                        if field.concrete and not field.auto_created
                        and str(field.verbose_name) == field.name.replace("_", " ")]
    assert untranslated == []
