"""The admin's in-person forms choose members with the member chooser: username, display name or email, and a
misspelt name is refused with the chooser's own sentence (nothing is recorded)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import InPersonRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(make_member) -> Client:
    client = Client()
    client.force_login(make_member("boss", is_staff=True))
    return client


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=f"{name.title()} Smith") for name in ("ann", "ben", "cat", "dan", "eve")]


def test_display_names_and_emails_name_players_picker_and_partner(admin_client, club) -> None:
    posted = admin_client.post(reverse("admin:tables_inpersonrecord_sheepshead"), {
        "kind": "hand", "player_1": "Ann Smith", "player_2": "BEN@example.org", "player_3": "cat", "player_4": "dan",
        "player_5": "eve smith", "picker": "ann smith", "partner": "Ben Smith", "picker_points": "75",
        "stake_cents": "100"})
    assert posted.status_code == 302
    record = InPersonRecord.objects.get()
    assert record.facts["players"] == ["ann", "ben", "cat", "dan", "eve"]
    assert (record.facts["picker"], record.facts["partner"]) == ("ann", "ben")


def test_a_misspelt_name_is_refused_with_the_choosers_message(admin_client, club) -> None:
    posted = admin_client.post(reverse("admin:tables_inpersonrecord_sheepshead"), {
        "kind": "hand", "player_1": "ann", "player_2": "ben", "player_3": "catt", "picker": "ann",
        "picker_points": "75", "stake_cents": "100"})
    assert posted.status_code == 200
    assert "No member is called “catt”. Pick one of the suggestions." in posted.content.decode()
    assert InPersonRecord.objects.count() == 0


def test_hawk_names_lafh_by_display_name_and_refuses_a_stranger(admin_client, club, make_member) -> None:
    url = reverse("admin:tables_inpersonrecord_hawk")
    form = {"player_1": "ann", "player_2": "ben", "player_3": "cat", "player_4": "dan", "lafh_1": "Ann Smith",
            "lafh_2": "Cat Smith", "lafh_pips": "151"}
    make_member("zed", display_name="Zed")
    refused = admin_client.post(url, {**form, "lafh_2": "Zed"})
    assert refused.status_code == 200 and "must be one of the players" in refused.content.decode()
    assert admin_client.post(url, form).status_code == 302
    assert InPersonRecord.objects.get().facts["lafh"] == ["ann", "cat"]


def test_the_form_page_offers_suggestions_as_one_types(admin_client, club) -> None:
    page = admin_client.get(reverse("admin:tables_inpersonrecord_sheepshead")).content.decode()
    assert 'name="player_7"' in page and f'hx-get="{reverse("member_suggestions")}?field=player_7"' in page
    assert "htmx-2.min.js" in page
