"""Quick play's refusals stay in the lobby. With htmx the answer is a 4xx carrying HX-Retarget (which
static/js/refusals.js swaps in, DEBUG or not, instead of letting django-htmx's debug helper put it in place of
the whole page) to a region of the lobby page, with the message in a role="alert"; without htmx the lobby page
comes back whole with the message. Either way nothing is asked for or cancelled."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import QueueRequest
from tables.quickplay.services.matchmaking import enqueue
from tests.tables.helpers import client_for, full_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PLAYING = escape("already playing at alice's Hawsker table")  # the table's name, as the page writes it


def alert_text(html: str) -> str:
    """The refusal's words (a link to the member's running table may follow them)."""
    match = re.search(r'<p class="error" role="alert">([^<]*)(?:<a [^>]*>[^<]*</a>)?</p>', html)
    assert match, html
    return match.group(1)


def assert_retargeted_into_the_lobby(client: Client, answer) -> None:
    """The refusal's target is a region the lobby page has, and the answer replaces that region whole."""
    target = answer["HX-Retarget"]
    assert target.startswith("#")
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'id="{target[1:]}"' in lobby
    assert answer["HX-Reswap"] == "outerHTML"
    assert f'id="{target[1:]}"' in answer.content.decode()


@pytest.fixture
def playing(make_member) -> Client:
    """The client of a member seated at a running table."""
    alice, bob = make_member("alice"), make_member("bob")
    full_table("hawsker", [alice, bob])
    return client_for(alice)


def test_asking_while_playing_elsewhere_is_a_refusal_shown_in_the_panel(playing) -> None:
    client = playing
    answer = client.post(reverse("quick_join"), {"game": "hawk", "players": "any"}, **HTMX)
    assert answer.status_code == 403
    assert_retargeted_into_the_lobby(client, answer)
    assert PLAYING in alert_text(answer.content.decode())
    assert 'id="quick-form" data-game="hawk"' in answer.content.decode()  # the member's choice is kept
    assert not QueueRequest.objects.exists()


def test_the_already_playing_refusal_links_to_the_running_table(make_member) -> None:
    """Issue 41: the refusal says where the member plays and takes them there in one click."""
    alice, bob = make_member("alice"), make_member("bob")
    running = full_table("hawsker", [alice, bob])
    client = client_for(alice)
    answer = client.post(reverse("quick_join"), {"game": "hawk", "players": "any"}, **HTMX)
    alert = re.search(r'<p class="error" role="alert">.*?</p>', answer.content.decode(), re.S).group(0)
    assert f'<a href="{reverse("table", args=[running.code])}" data-running-table="{running.code}">' in alert
    assert "Go to your table" in alert
    # Without htmx the lobby comes back with the message, the link in it.
    answer = client.post(reverse("quick_join"), {"game": "hawk", "players": "any"})
    page = client.get(answer["Location"]).content.decode()
    message = re.search(r'<ul class="messages".*?</ul>', page, re.S).group(0)
    assert PLAYING in message and f'href="{reverse("table", args=[running.code])}"' in message
    # A refusal for another reason has no such link.
    answer = client_for(bob).post(reverse("quick_cancel"), **HTMX)
    assert "data-running-table" not in answer.content.decode()


def test_a_nonsense_request_is_a_refusal_with_a_readable_message(member_client) -> None:
    answer = member_client.post(reverse("quick_join"), {"game": "hawsker", "players": "9", "band": "millions"},
                                **HTMX)
    assert answer.status_code == 400
    assert_retargeted_into_the_lobby(member_client, answer)
    message = alert_text(answer.content.decode())
    assert message.startswith("Quick play: ") and "Players: Select a valid choice" in message
    assert not QueueRequest.objects.exists()


def test_cancelling_nothing_is_a_refusal_shown_in_the_panel(member_client) -> None:
    answer = member_client.post(reverse("quick_cancel"), **HTMX)
    assert answer.status_code == 400
    assert_retargeted_into_the_lobby(member_client, answer)
    assert "not waiting in quick play" in alert_text(answer.content.decode())


def test_a_request_that_goes_through_is_no_refusal(member_client) -> None:
    answer = member_client.post(reverse("quick_join"), {"game": "hawk", "players": "4"}, **HTMX)
    assert answer.status_code == 200
    assert not answer.has_header("HX-Retarget")


def whole_lobby_with(client: Client, answer, message: str) -> None:
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("lobby"))
    page = client.get(answer["Location"]).content.decode()
    assert "<main" in page and 'id="quick-play"' in page and "<header" in page
    assert message in re.search(r'<ul class="messages".*?</ul>', page, re.S).group(0)


def test_without_htmx_asking_while_playing_elsewhere_brings_the_lobby_back_with_the_message(playing) -> None:
    client = playing
    answer = client.post(reverse("quick_join"), {"game": "hawk", "players": "any"})
    whole_lobby_with(client, answer, PLAYING)
    assert not QueueRequest.objects.exists()


def test_without_htmx_a_nonsense_request_brings_the_lobby_back_with_the_message(member_client) -> None:
    answer = member_client.post(reverse("quick_join"), {"game": "hawsker", "players": "9"})
    whole_lobby_with(member_client, answer, "Quick play: Players: Select a valid choice")
    assert not QueueRequest.objects.exists()


def test_without_htmx_cancelling_nothing_brings_the_lobby_back_with_the_message(member_client, member) -> None:
    answer = member_client.post(reverse("quick_cancel"))
    whole_lobby_with(member_client, answer, "not waiting in quick play")


def test_cancelling_too_late_changes_nothing(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    enqueue(user=alice, game="hawsker", players=2)
    enqueue(user=bob, game="hawsker", players=2)  # the table forms: alice is seated
    answer = client_for(alice).post(reverse("quick_cancel"), **HTMX)
    assert answer.status_code >= 400 and answer.has_header("HX-Retarget")
    assert alert_text(answer.content.decode())
    assert QueueRequest.objects.get(user=alice).state == QueueRequest.State.MATCHED
