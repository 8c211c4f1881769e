"""A member already playing at a running table goes to the lobby and to an open table: what they are refused
there stays in the page they are on. With htmx a refusal is a 4xx carrying HX-Retarget to that page's error
region (role="alert"; static/js/refusals.js swaps it in, DEBUG or not); without htmx the page comes back whole
with the message. Nothing changes."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.urls import reverse

from tables.models import Seat, Table
from tables.play.services.tables import create_table
from tests.tables.helpers import client_for, full_table, new_table_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PLAYING = escape("already playing at alice's Hawsker table")  # the table's name, as the page writes it


@pytest.fixture
def player(make_member):
    """Alice, seated at a running Hawsker table."""
    alice = make_member("alice")
    full_table("hawsker", [alice, make_member("bob")])
    return alice


@pytest.fixture
def open_table(make_member) -> Table:
    return create_table(creator=make_member("carol"), game="hawsker", players=2)


def region(html: str, element_id: str) -> str:
    match = re.search(rf'<(\w+) id="{element_id}"[^>]*>.*?</\1>', html, re.S)
    assert match, f"no #{element_id} in the page"
    return match.group(0)


def test_take_a_seat_while_playing_elsewhere_is_refused_into_the_table_pages_error_region(player, open_table):
    client = client_for(player)
    page = client.get(reverse("table", args=[open_table.code])).content.decode()
    assert "Take a seat" in page
    answer = client.post(reverse("join", args=[open_table.code]), **HTMX)
    assert answer.status_code == 403
    target = answer["HX-Retarget"]
    assert 'role="alert"' in region(page, target.removeprefix("#"))  # the region is on the page it came from
    shown = region(answer.content.decode(), target.removeprefix("#"))
    assert 'role="alert"' in shown and PLAYING in shown
    assert answer["HX-Reswap"] == "outerHTML"
    assert not Seat.objects.filter(table=open_table, user=player).exists()


def test_without_htmx_take_a_seat_while_playing_elsewhere_brings_the_table_page_back_with_the_message(
        player, open_table):
    client = client_for(player)
    answer = client.post(reverse("join", args=[open_table.code]), follow=True)
    assert answer.redirect_chain == [(reverse("table", args=[open_table.code]), 302)]
    page = answer.content.decode()
    assert 'id="board"' in page and "<header" in page
    assert PLAYING in re.search(r'<ul class="messages".*?</ul>', page, re.S)[0]
    assert not Seat.objects.filter(table=open_table, user=player).exists()


def test_opening_a_table_while_playing_elsewhere_brings_the_lobby_back_with_the_message(player) -> None:
    tables_before = Table.objects.count()
    answer = client_for(player).post(reverse("create_table"), new_table_data("hawk"))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "<header" in page and 'id="new-table"' in page
    errors = region(page, "new-table")
    assert PLAYING in errors and 'role="alert"' in errors
    assert Table.objects.count() == tables_before


def test_the_refusal_to_open_a_table_while_playing_is_at_the_top_of_the_lobby_with_a_link(player) -> None:
    """Issue 41: the form is far down the lobby; the refusal is also shown first thing, linking to the table."""
    running = Table.objects.get(seats__user=player)
    page = client_for(player).post(reverse("create_table"), new_table_data("hawk")).content.decode()
    top = region(page, "lobby-refusal")
    assert 'role="alert"' in top and PLAYING in top
    assert f'href="{reverse("table", args=[running.code])}"' in top and "Go to your table" in top
    assert page.index('id="lobby-refusal"') < page.index('id="panel-tables"') < page.index('id="new-table"')
