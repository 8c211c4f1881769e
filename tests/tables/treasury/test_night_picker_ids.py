"""The night sheet's member boxes take a member's id in ASCII digits only (request_numbers.record_id).

`"²".isdigit()` is true and `int("²")` fails: the picker `²` was a 500. `int("\u0661")` is 1: the picker `\u0661` (an
Arabic-Indic one) named member 1, whom nobody chose. Both are now text naming nobody, refused on the row.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tables.treasury.night_support import sheet_rows, sheet_version
from tests.tables.treasury.test_nights import HTMX, open_night

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]
ARABIC_INDIC = str.maketrans("0123456789", "".join(chr(0x660 + n) for n in range(10)))
FULL_WIDTH = str.maketrans("0123456789", "".join(chr(0xFF10 + n) for n in range(10)))


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=f"{name.title()} Smith") for name in NAMES]


@pytest.fixture
def staff(make_member) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(make_member("boss", is_staff=True))
    return client


def rows(client: Client, token: str) -> list:
    return sheet_rows(token)


@pytest.mark.parametrize("field", ["picker", "partner"])
def test_a_picker_or_partner_in_other_digits_names_nobody(staff, club, field) -> None:
    token = open_night(staff, NAMES)
    ann, ben = club[0], club[1]
    good = {"picker": str(ann.pk), "partner": str(ben.pk), "points": "70", "leaster_points": "",
            "leaster_tricks": ""}
    mine = str(ann.pk if field == "picker" else ben.pk)
    for odd in (mine.translate(ARABIC_INDIC), mine.translate(FULL_WIDTH), "²", "³", "9" * 40, "-1", "0"):
        response = staff.post(reverse("treasury_night_row", args=[token]),
                              {**good, field: odd, "version": sheet_version(token)}, **HTMX)
        assert response.status_code == 200, (odd, response.status_code)
        assert "errornote" in response.content.decode(), odd
        assert rows(staff, token) == [], odd
    response = staff.post(reverse("treasury_night_row", args=[token]), {**good, "version": sheet_version(token)},
                          **HTMX)
    assert "errornote" not in response.content.decode()
    assert len(rows(staff, token)) == 1


def test_hawk_lafh_in_other_digits_names_nobody(staff, club) -> None:
    token = open_night(staff, NAMES[:4], game="hawk", stake="")
    cat = club[2]
    for odd in ("²", str(cat.pk).translate(ARABIC_INDIC)):
        response = staff.post(reverse("treasury_night_row", args=[token]),
                              {"lafh_1": odd, "lafh_2": "", "lafh_pips": "120", "nob_pips": "100",
                               "version": sheet_version(token)}, **HTMX)
        assert response.status_code == 200 and "errornote" in response.content.decode(), odd
        assert rows(staff, token) == []
