"""A Hawk night on the sheet: points per the engine's `score_from_facts`, LAFH chosen among the night's players."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine import hawk
from tables.models import ClubNight, LedgerEntry
from tests.tables.treasury.night_support import sheet_version
from tests.tables.treasury.test_nights import HTMX, add, open_night, save, shown_totals

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=name.title()) for name in NAMES]


@pytest.fixture
def staff(make_member) -> Client:
    client = Client()
    client.force_login(make_member("boss", is_staff=True))
    return client


def test_a_hawk_night_totals_the_engines_points(staff, club) -> None:
    token = open_night(staff, NAMES, game="hawk", stake="")
    rng = random.Random(7)
    expected = [0] * 4
    for number in range(1, 13):
        solo = rng.random() < 0.25
        lafh = [rng.randrange(4)] if solo else sorted(rng.sample(range(4), 2))
        pips = rng.randint(40, 200)
        plus = [k for k in hawk.BONUS_KINDS if rng.random() < 0.2]
        minus = [k for k in hawk.BONUS_KINDS if rng.random() < 0.2]
        score = hawk.score_from_facts(players=4, lafh=lafh, lafh_pips=pips, nob_pips=220 - pips, lafh_bonuses=plus,
                                      nob_bonuses=minus)
        row = {"lafh_1": str(club[lafh[0]].pk), "lafh_2": "" if solo else str(club[lafh[1]].pk),
               "lafh_pips": str(pips), "nob_pips": "", "lafh_bonuses": plus, "nob_bonuses": minus}
        if solo:
            row["solo"] = "on"
        answer = add(staff, token, row)
        assert "errornote" not in answer, (number, row, answer)
        expected = [t + d for t, d in zip(expected, score.deltas, strict=True)]
        assert shown_totals(answer) == {m.pk: t for m, t in zip(club, expected, strict=True)}
    assert save(staff, token).status_code == 302
    night = ClubNight.objects.get()
    assert night.game == "hawk" and night.options == {} and night.hands.count() == 12
    booked = {m.pk: sum(LedgerEntry.objects.filter(member=m, game="hawk").values_list("amount", flat=True))
              for m in club}
    assert booked == {m.pk: t for m, t in zip(club, expected, strict=True)}


def test_hawk_rows_refuse_what_the_service_refuses(staff, club, make_member) -> None:
    stranger = make_member("zed", display_name="Zed")
    token = open_night(staff, NAMES, game="hawk", stake="")
    one = {"lafh_1": str(club[0].pk), "lafh_2": "", "lafh_pips": "150"}
    assert "tick solo, or name both" in add(staff, token, one)
    assert "Solo means one LAFH player: leave “LAFH (last trick)” empty" in add(
        staff, token, {**one, "lafh_2": str(club[1].pk), "solo": "on"})
    assert "The LAFH player (Zed) must be one of the players." in add(staff, token, {**one,
                                                                                    "lafh_2": str(stranger.pk)})
    assert "every card is dealt" in add(staff, token, {**one, "lafh_2": str(club[1].pk), "nob_pips": "10"})
    bad_bonus = staff.post(reverse("treasury_night_row", args=[token]),
                           {**one, "solo": "on", "lafh_bonuses": ["sneaky"], "version": sheet_version(token)},
                           **HTMX).content.decode()
    assert "sneaky is not one of the available choices" in bad_bonus
    assert LedgerEntry.objects.count() == 0
    assert "Add hand #2" in add(staff, token, {**one, "solo": "on"})


def test_a_three_player_hawk_night_asks_for_nob_pips(staff, club) -> None:
    token = open_night(staff, NAMES[:3], game="hawk")
    page = staff.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    assert 'name="lafh_2"' not in page and 'name="solo"' not in page  # one LAFH player, never solo, with 3
    assert "write down NOB&#x27;s pips" in add(staff, token, {"lafh_1": str(club[2].pk), "lafh_pips": "100"})
    answer = add(staff, token, {"lafh_1": str(club[2].pk), "lafh_pips": "100", "nob_pips": "50"})
    score = hawk.score_from_facts(players=3, lafh=[2], lafh_pips=100, nob_pips=50)
    assert shown_totals(answer) == {m.pk: d for m, d in zip(club[:3], score.deltas, strict=True)}
