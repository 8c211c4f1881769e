"""The club's physical table in German (issue 23): the treasurer's night pages (open, sheet, saved night), the replace
form, the admin's in-person forms and a recorded hand's admin page, a statement and a member's own history holding an
in-person hand with its real summary, and the refusals met on a night's row and an in-person form. Each page, shown
to a German browser, says none of the English phrases below (the summaries', the refusals', the bonus kinds', the
pages' own), and says the hand in German with money as German writes it ("1,00 $")."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand, record_sheepshead_leaster
from tables.models import InPersonRecord, Round
from tests.i18n.test_german_pages import visible_text
from tests.tables.ledger_support import finished_table
from tests.tables.treasury.night_support import sheet_version

pytestmark = pytest.mark.django_db

NAMES = ["anna", "bernd", "clara", "dieter", "erika"]
HTMX = {"HTTP_HX_REQUEST": "true"}

# English a German reader must not meet on these pages (whole words, case as written).
ENGLISH = (
    # a hand's summary
    "took", "points", "rate", "stake", "alone", "with", "Leaster", "leaster", "pips", "won", "lost", "each",
    "collecting", "nothing paid",
    # the refusals
    "must be one of the players", "cannot happen", "is not a whole number", "players", "Nothing was saved",
    "there is no partner", "Hand",
    # Hawk's bonus kinds
    "heavy", "four suits", "straight", "a trick of more than", "consecutive",
    # titles and the pages' own words
    "night on", "at the club on", "match at", "round", "seat", "Score sheet", "Save the night", "Totals",
    "Add hand", "Replace", "Preview", "Record a", "In-person", "in-person", "Statement", "My history",
    # any English sentence
    "the", "and", "of", "to", "you", "your",
)
ENGLISH_MONEY = re.compile(r"[+-]?\$\d")  # "$1.00": German writes "1,00 $"


def english_left(html: str) -> list[str]:
    text = visible_text(html)
    left = [phrase for phrase in ENGLISH if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text)]
    return left + ENGLISH_MONEY.findall(text)


def test_the_check_finds_a_summary_in_english_and_passes_it_in_german() -> None:
    english = "<p>Anna with Bernd took 75 points (rate +1, stake $1.00): Anna +$2.00</p>"
    assert english_left(english) == ["took", "points", "rate", "stake", "with", "$1", "+$2"]
    assert english_left("<p>Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $): Anna +2,00 $</p>") == []


@pytest.fixture
def tess(make_member):
    return make_member("tess", display_name="Tess", is_staff=True, is_superuser=True)


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=name.title()) for name in NAMES]


def german(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    return client


def page(client: Client, url: str, **data: str) -> str:
    response = client.post(url, data) if data else client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    assert '<html lang="de"' in html
    return html


def open_night(client: Client, names: list[str], game: str) -> str:
    form = {"game": game, "played_on": timezone.localdate().isoformat(), "stake_cents": "100"}
    form.update({f"seat_{n}": name for n, name in enumerate(names, 1)})
    response = client.post(reverse("treasury_night_new"), form)
    assert response.status_code == 302, visible_text(response.content.decode())[-1500:]
    return response["Location"].rstrip("/").rsplit("/", 1)[-1]


def add(client: Client, token: str, row: dict[str, str]) -> str:
    response = client.post(reverse("treasury_night_row", args=[token]), {**row, "version": sheet_version(token)},
                           **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_a_sheepshead_nights_pages_are_german_from_opening_to_the_saved_night(tess, club) -> None:
    client = german(tess)
    assert english_left(page(client, reverse("treasury_night_new"))) == []
    token = open_night(client, NAMES, "sheepshead")
    anna, bernd, clara = club[0], club[1], club[2]
    add(client, token, {"picker": str(anna.pk), "partner": str(bernd.pk), "points": "75"})
    add(client, token, {"picker": str(clara.pk), "points": "30"})
    add(client, token, {"picker": "leaster", "leaster_points": "10 30 0 40 40", "leaster_tricks": "1 1 0 2 2"})
    sheet = page(client, reverse("treasury_night_sheet", args=[token]))
    assert english_left(sheet) == [], english_left(sheet)
    assert "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $)" in sheet
    assert "Clara allein macht 30 Augen (Faktor -2, Einsatz 1,00 $)" in sheet
    assert "Ramsch gewonnen von Anna mit 10 Augen, kassiert 1,00 $ von jedem Spieler." in sheet

    saved = client.post(reverse("treasury_night_save", args=[token]), {"version": sheet_version(token)})
    assert saved.status_code == 302
    night = page(client, saved["Location"])
    assert english_left(night) == [], english_left(night)
    assert "Sheepshead-Abend am" in night  # its title and breadcrumb (str of the night)
    assert "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $)" in night


def test_a_hawk_nights_sheet_names_the_bonus_kinds_and_the_rounds_in_german(tess, club) -> None:
    client = german(tess)
    token = open_night(client, NAMES[:4], "hawk")
    add(client, token, {"lafh_1": str(club[0].pk), "lafh_2": str(club[2].pk), "lafh_pips": "151",
                        "lafh_bonuses": ["heavy"], "nob_bonuses": ["four_suits"]})
    add(client, token, {"lafh_1": str(club[1].pk), "solo": "on", "lafh_pips": "100"})
    sheet = page(client, reverse("treasury_night_sheet", args=[token]))
    assert english_left(sheet) == [], english_left(sheet)
    assert "schwer" in sheet and "vier Farben" in sheet and "Straße" in sheet
    assert "LAFH (Anna und Clara) gewinnt mit 151 Augen" in sheet
    assert "LAFH solo (Bernd) verliert mit 100 Augen" in sheet


def test_a_refusal_on_a_nights_row_and_on_saving_is_german(tess, club, make_member) -> None:
    client = german(tess)
    token = open_night(client, NAMES, "sheepshead")
    stranger = make_member("zora", display_name="Zora")
    answer = add(client, token, {"picker": str(stranger.pk), "points": "75"})
    assert "Der Aufnehmer (Zora) muss einer der Spieler sein." in answer
    answer = add(client, token, {"picker": str(club[0].pk), "partner": str(club[1].pk), "points": "119"})
    assert "119 Augen gibt es in Sheepshead nicht (keine Karte zählt 1 Auge)." in answer
    assert english_left(answer) == [], english_left(answer)
    saved = client.post(reverse("treasury_night_save", args=[token]), {"version": sheet_version(token)})
    assert saved.status_code == 400
    assert "Die Spielliste hat noch keine Spiele" in saved.content.decode()


def test_the_admins_in_person_forms_and_a_recorded_hands_pages_are_german(tess, club) -> None:
    client = german(tess)
    for name in ("sheepshead", "hawk"):
        form = page(client, reverse(f"admin:tables_inpersonrecord_{name}"))
        assert english_left(form) == [], (name, english_left(form))
    hawk = page(client, reverse("admin:tables_inpersonrecord_hawk"))
    assert "schwer: ein Stich mit mehr als 9 Augen je Spieler" in hawk

    record = record_sheepshead_hand(admin=tess, players=NAMES, picker="anna", partner="bernd", picker_points=75)
    change = page(client, reverse("admin:tables_inpersonrecord_change", args=[record.pk]))
    assert "Sheepshead-Spiel am Clubtisch am" in change  # the record's title (its str)
    assert "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $): Anna +2,00 $" in change
    assert "took 75 points" not in change and "$1.00" not in change
    listed = page(client, reverse("admin:tables_inpersonrecord_changelist"))
    assert "Anna mit Bernd macht 75 Augen" in listed and "took 75 points" not in listed


def test_a_refusal_on_an_in_person_form_is_german(tess, club) -> None:
    client = german(tess)
    answer = page(client, reverse("admin:tables_inpersonrecord_sheepshead"), kind="hand", player_1="anna",
                  player_2="bernd", player_3="clara", picker="anna", partner="bernd", picker_points="75",
                  stake_cents="100")
    assert "Bei 3 Spielern gibt es keinen Partner: der Aufnehmer spielt immer allein." in answer
    answer = page(client, reverse("admin:tables_inpersonrecord_hawk"), player_1="anna", player_2="bernd",
                  player_3="clara", lafh_1="anna", lafh_pips="0", nob_pips="0")
    assert "Jede Partei hat zwischen 0 und 220 Augen, beide zusammen höchstens 220." in answer
    assert english_left(answer) == [], english_left(answer)
    assert InPersonRecord.objects.count() == 0


def test_the_replace_form_and_its_preview_are_german(tess, club) -> None:
    client = german(tess)
    hand = record_sheepshead_hand(admin=tess, players=NAMES, picker="anna", partner="bernd", picker_points=75,
                                  played_on=date(2024, 3, 1))
    form = page(client, reverse("treasury_replace_hand", args=[hand.pk]))
    assert english_left(form) == [], english_left(form)
    assert "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $)" in form
    preview = client.post(reverse("treasury_replace_hand", args=[hand.pk]), {
        "kind": "sheepshead_hand", **{f"seat_{n}": name for n, name in enumerate(NAMES, 1)}, "picker": "anna",
        "partner": "bernd", "picker_points": "91", "stake_cents": "100", "played_on": "2024-03-01",
        "reason": "falsch gezählt"}, **HTMX).content.decode()
    assert "Anna mit Bernd macht 91 Augen (Faktor +2, Einsatz 1,00 $)" in preview
    assert english_left(preview) == [], english_left(preview)

    rnd = record_hawk_round(admin=tess, players=NAMES[:4], lafh=["anna", "clara"], solo=False, lafh_pips=151)
    hawk = page(client, reverse("treasury_replace_hand", args=[rnd.pk]))
    assert english_left(hawk) == [], english_left(hawk)
    assert "Straße: vier aufeinanderfolgende Zahlen einer Farbe in einem Stich" in hawk


def test_a_statement_and_a_members_history_say_the_in_person_hand_in_german(tess, club) -> None:
    day = timezone.localdate() - timedelta(days=1)
    record_sheepshead_hand(admin=tess, players=NAMES, picker="anna", partner="bernd", picker_points=75, played_on=day)
    record_sheepshead_leaster(admin=tess, players=NAMES[:3], points=[10, 50, 60], tricks=[1, 3, 6], played_on=day)
    statement = page(german(tess), reverse("treasury_statement") + "?member=anna&game=sheepshead")
    history = page(german(club[0]), reverse("my_history"))
    for shown in (statement, history):
        assert english_left(shown) == [], english_left(shown)
        assert "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $): Anna +2,00 $, Bernd +1,00 $" in shown
        assert "Ramsch gewonnen von Anna mit 10 Augen, kassiert 1,00 $ von jedem Spieler." in shown


def test_an_online_rounds_admin_page_is_titled_in_german(tess, club) -> None:
    table = finished_table("sheepshead", club[:2], bots=3)
    done = Round.objects.get(match__table=table, number=1)
    change = page(german(tess), reverse("admin:tables_round_change", args=[done.pk]))
    assert "Runde 1 der Partie an" in change and "round 1 of match at" not in change
