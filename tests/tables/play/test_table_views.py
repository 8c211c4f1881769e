"""The lobby and table pages, and what only a move's POST has (its refusal retargeted, its CSRF check); the
moves' reliability, by POST and over the socket alike, is tests/tables/play/test_moves_both_ways.py."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests.tables.helpers import full_table, legal_for, seat_to_act

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_lobby_lists_public_tables_and_hides_private_ones(make_member) -> None:
    alice = make_member("alice")
    client = client_for(alice)
    response = client.post(reverse("create_table"), {
        "game": "hawk", "players": "4", "turn_seconds": "60", "opt_rounds": "0",
    })
    assert response.status_code == 302
    public = Table.objects.get()
    client.post(reverse("create_table"), {
        "game": "puskiyon", "players": "3", "turn_seconds": "60", "opt_target": "100", "private": "on",
    })
    private = Table.objects.get(private=True)
    page = client_for(make_member("bob")).get(reverse("lobby")).content.decode()
    assert public.code in page
    assert private.code not in page


def test_a_nonsense_table_form_is_refused_with_reasons_and_creates_nothing(member_client) -> None:
    response = member_client.post(reverse("create_table"), {
        "game": "sheepshead", "players": "12", "turn_seconds": "-3", "opt_stake_cents": "lots",
        "opt_partner": "anyone", "opt_no_pick": "leaster", "opt_rounds": "0",
    })
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert {"players", "turn_seconds", "opt_stake_cents", "opt_partner"} <= set(errors)
    assert Table.objects.count() == 0


def test_the_form_follows_the_chosen_game(member_client) -> None:
    html = member_client.get(reverse("new_table_form"), {"game": "puskiyon"}, **HTMX).content.decode()
    assert 'name="opt_target"' in html
    assert 'name="opt_stake_cents"' not in html


def test_the_table_page_shows_my_hand_and_no_one_elses(make_member) -> None:
    alice, bob, watcher = make_member("alice"), make_member("bob"), make_member("watcher")
    table = full_table("hawsker", [alice, bob])
    page = client_for(alice).get(reverse("table", args=[table.code])).content.decode()
    assert "Your hand" in page
    assert f'ws-connect="/ws/table/{table.code}/"' in page
    spectator = client_for(watcher).get(reverse("table", args=[table.code])).content.decode()
    assert "Your hand" not in spectator
    assert "data-move" not in spectator
    assert "You are watching" in spectator


def test_get_is_not_a_move(member_client, make_member) -> None:
    alice = make_member("bob")
    table = full_table("hawsker", [alice], bots=1)
    assert member_client.get(reverse("move", args=[table.code])).status_code == 405


def test_unknown_tables_are_404(member_client) -> None:
    assert member_client.get(reverse("table", args=["nope"])).status_code == 404


@pytest.mark.parametrize("action", ["move", "ready"])
def test_a_move_or_ready_posted_to_an_unknown_table_is_404_and_no_refusal(member_client, action) -> None:
    """The service locks the table by the address's code (one read of the row): none there is the 404 that
    looking it up first gave, not a refusal in the error box."""
    response = member_client.post(reverse(action, args=["nope"]), {"move": "play 10D", "version": "3"}, **HTMX)
    assert response.status_code == 404
    assert not response.has_header("HX-Retarget")


@pytest.mark.parametrize(("who", "data", "status"), [
    ("mover", {"move": "play 10D"}, 400),  # no version
    ("mover", {"move": "discard everything", "version": "{v}"}, 400),  # not a move
    ("outsider", {"move": "{legal}", "version": "{v}"}, 403),  # not seated
    ("mover", {"move": "{legal}", "version": "{stale}"}, 409),  # the table moved on
])
def test_every_refusal_of_a_move_is_retargeted_to_the_error_box(make_member, who, data, status) -> None:
    """static/js/table.js shows an error answer in #table-error only when it carries HX-Retarget (the site's
    own refusals); any other (a CSRF failure, a 404, a 500) leaves the board and asks for a reload."""
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = full_table("hawsker", [alice, bob])
    seat = seat_to_act(table)
    values = {"v": table.version, "stale": table.version - 1, "legal": legal_for(table, seat)[0]}
    sender = client_for(carol if who == "outsider" else [alice, bob][seat])
    response = sender.post(reverse("move", args=[table.code]), {k: v.format(**values) for k, v in data.items()}, **HTMX)
    assert response.status_code == status
    assert response["HX-Retarget"] == "#table-error"
    assert response["HX-Reswap"] == "outerHTML"
    assert 'id="table-error"' in response.content.decode()


def test_an_error_that_is_no_refusal_carries_no_retarget(make_member) -> None:
    """A CSRF failure is Django's page, not a refusal: table.js must not put it in the error box as one."""
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    seat = seat_to_act(table)
    client = Client(enforce_csrf_checks=True)
    client.force_login([alice, bob][seat])
    response = client.post(reverse("move", args=[table.code]),
                           {"move": legal_for(table, seat)[0], "version": table.version}, **HTMX)
    assert response.status_code == 403
    assert not response.has_header("HX-Retarget")
