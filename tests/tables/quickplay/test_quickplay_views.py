"""Quick play's pages: the lobby panel, asking and cancelling with htmx and without, and the admin."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import QueueRequest, Table
from tables.quickplay.services.matchmaking import enqueue
from tests.tables.helpers import full_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_shows_the_quick_play_panel_with_counts_and_the_form(make_member) -> None:
    alice = make_member("alice")
    enqueue(user=make_member("bob"), game="hawk", players=4)
    page = client_for(alice).get(reverse("lobby")).content.decode()
    assert 'id="quick-play"' in page
    assert 'data-game="hawk" data-waiting="1"' in page and 'data-game="sheepshead" data-waiting="0"' in page
    assert 'id="quick-form"' in page and 'hx-post="/quick/join/"' in page
    assert 'id="quick_players"' in page and 'id="id_players"' in page  # two forms, no clashing ids
    assert 'name="quick_opt_rounds"' in page and page.count('name="opt_rounds"') == 1  # nor clashing names


def test_asking_shows_my_place_and_the_request_that_completes_a_table_moves_me_there(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    answer = client_for(alice).post(reverse("quick_join"), {"game": "hawsker", "players": "2", "band": "short"},
                                    **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-state="waiting"' in html and 'data-place="1" data-of="1"' in html
    assert "Hawsker · Short game: to 50 points" in html
    page = client_for(alice).get(reverse("lobby")).content.decode()
    assert 'data-state="waiting"' in page and 'id="quick-form"' not in page
    moved = client_for(bob).post(reverse("quick_join"), {"game": "hawsker", "players": "2", "band": ""}, **HTMX)
    table = Table.objects.get()
    assert moved.status_code == 204 and moved["HX-Redirect"] == reverse("table", args=[table.code])
    assert table.options == {"short": True}


def test_the_form_carries_count_band_house_rules_and_bots(member_client, member) -> None:
    answer = member_client.post(reverse("quick_join"), {
        "game": "sheepshead", "players": "any", "band": "low", "bots_after": "60",
        "quick_opt_partner": "none", "quick_opt_rounds": "2",
    }, **HTMX)
    assert answer.status_code == 200
    request = QueueRequest.objects.get(user=member)
    assert (request.players, request.band, request.bots_after_seconds) == (None, "low", 60)
    assert request.options == {"partner": "none", "no_pick": "leaster", "rounds": 2}
    assert "Sheepshead · any number of players · Low stakes: 10¢ · bots after 1 min 00 s" in answer.content.decode()


def test_a_nonsense_request_is_refused_with_reasons_and_changes_nothing(member_client) -> None:
    answer = member_client.post(reverse("quick_join"), {
        "game": "sheepshead", "players": "12", "band": "millions", "bots_after": "7", "quick_opt_partner": "anyone",
    }, **HTMX)
    assert answer.status_code == 400
    errors = answer.context["quick_form"].errors
    assert {"players", "band", "bots_after", "quick_opt_partner"} <= set(errors)
    assert QueueRequest.objects.count() == 0


def test_a_refusal_from_the_service_is_shown_in_the_panel(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    answer = client_for(alice).post(reverse("quick_join"), {"game": "hawk", "players": "any"}, **HTMX)
    assert answer.status_code == 403
    assert escape(f"already playing at {table.name};") in answer.content.decode()
    assert QueueRequest.objects.count() == 0


def test_cancelling_brings_the_form_back_and_cancelling_again_says_why(member_client, member) -> None:
    enqueue(user=member, game="puskiyon", players=4, bots_after_seconds=60)
    answer = member_client.post(reverse("quick_cancel"), **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="quick-form"' in html
    assert re.search(r'<option value="puskiyon" selected>', html)  # the game they last asked for
    assert QueueRequest.objects.get().state == QueueRequest.State.CANCELLED
    again = member_client.post(reverse("quick_cancel"), **HTMX)
    assert again.status_code == 400 and "not waiting in quick play" in again.content.decode()


def test_without_htmx_the_forms_redirect_and_say_what_went_wrong(member_client, member) -> None:
    answer = member_client.post(reverse("quick_join"), {"game": "hawk", "players": "4"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("lobby"))
    assert QueueRequest.objects.get(user=member).state == QueueRequest.State.WAITING
    refused = member_client.post(reverse("quick_join"), {"game": "hawk", "players": "4"}, follow=True)
    assert "cancel that request first" in refused.content.decode()
    assert member_client.post(reverse("quick_cancel")).status_code == 302
    assert member_client.get(reverse("quick_join")).status_code == 405


def test_the_form_follows_the_game(member_client) -> None:
    hawsker = member_client.get(reverse("quick_form"), {"game": "hawsker"}, **HTMX).content.decode()
    assert 'value="any"' not in hawsker and 'name="quick_opt_short"' not in hawsker and 'name="band"' in hawsker
    puskiyon = member_client.get(reverse("quick_form"), {"game": "puskiyon"}, **HTMX).content.decode()
    assert 'value="any"' in puskiyon and 'name="quick_opt_target"' not in puskiyon
    hawk = member_client.get(reverse("quick_form"), {"game": "hawk"}, **HTMX).content.decode()
    assert 'name="band"' not in hawk and 'name="quick_opt_bonus_per_trick"' in hawk


def test_the_panel_and_go_links(member_client, make_member) -> None:
    alice, bob = make_member("bob"), make_member("carol")
    table = full_table("hawsker", [alice, bob])
    go = member_client.get(reverse("quick_go", args=[table.code]), **HTMX)
    assert go.status_code == 204 and go["HX-Redirect"] == f"/t/{table.code}/"
    assert member_client.get(reverse("quick_go", args=[table.code]))["Location"] == f"/t/{table.code}/"
    assert member_client.get(reverse("quick_go", args=["nope"])).status_code == 404
    assert 'id="quick-mine"' in member_client.get(reverse("quick_panel"), **HTMX).content.decode()
    assert Client().get(reverse("quick_panel")).status_code == 302  # members only


def test_the_admin_lists_requests_with_their_state_and_times(make_member) -> None:
    staff = make_member("treasurer", is_staff=True, is_superuser=True)
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    enqueue(user=alice, game="hawsker")
    enqueue(user=bob, game="hawsker")
    enqueue(user=carol, game="hawk", players=4)
    client = client_for(staff)
    listing = client.get(reverse("admin:tables_queuerequest_changelist")).content.decode()
    assert listing.count('class="field-state">matched<') == 2
    assert listing.count('class="field-state">waiting<') == 1 and "carol" in listing
    assert 'class="field-created_at nowrap"' in listing and "By state" in listing
    waiting_only = client.get(reverse("admin:tables_queuerequest_changelist"), {"state__exact": "waiting"})
    assert "carol" in waiting_only.content.decode() and "bob" not in waiting_only.content.decode()
    request = QueueRequest.objects.get(user=carol)
    detail = client.get(reverse("admin:tables_queuerequest_change", args=[request.pk]))
    assert detail.status_code == 200 and "expires" in detail.content.decode().lower()
    assert client.get(reverse("admin:tables_queuerequest_add")).status_code == 403
