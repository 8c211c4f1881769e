"""The lobby, quick play, invitations, the chat and the words around the board in German (issue 23): the parts a
socket pushes are rendered in their viewer's language, the new-table form says the engines' house rules in German,
the refusals are German, and a table's name the club gave it is read in the reader's language though it is stored
in English."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from html import unescape

import pytest
from asgiref.sync import sync_to_async
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from tables.invitations import rendering as invitation_rendering
from tables.play.forms import NewTableForm
from tables.play.services.errors import TableError
from tables.play.services.tables import create_table, table_name
from tables.play.table_names import shown_name
from tables.quickplay import rendering as quick_rendering
from tables.quickplay.forms import QuickPlayForm
from tables.quickplay.services.matchmaking import clean_request, enqueue
from tests.i18n.test_german_pages import english_left, visible_text
from tests.sockets import communicator, session_cookie


def test_a_name_the_club_gave_is_read_in_the_readers_language_and_stored_in_english() -> None:
    name = table_name(owner="Greta", game="hawk", quick=True, number=2)
    assert name == "Greta's quick Hawk table 2"
    with translation.override("de"):
        assert shown_name(name) == "Hawk-Schnellspieltisch 2 von Greta"
        assert shown_name("Greta's Sheepshead table") == "Sheepshead-Tisch von Greta"
        assert shown_name("Practice against bots") == "Üben gegen Bots"  # the club's tables for newcomers
        assert shown_name("Freitagsrunde") == "Freitagsrunde"  # a member's own name stays as written
        assert shown_name("Greta's Skat table") == "Greta's Skat table"  # no game of the club: the member's words
    assert shown_name(name) == name


def test_the_lobby_notices_are_rendered_in_the_language_active_for_the_viewer() -> None:
    with translation.override("de"):
        ready = quick_rendering.render_notice("table_ready", {
            "table": "abc123", "game": "hawk", "name": "Greta's quick Hawk table"})
        expired = quick_rendering.render_notice("queue_expired", {"game": "hawk"})
        dropped = quick_rendering.render_notice("queue_dropped", {"game": "sheepshead"})
        invited = invitation_rendering.render_notice("invited", {
            "invitation": 3, "table": "abc", "name": "Greta's Hawk table", "by": "Greta"})
        withdrawn = invitation_rendering.render_notice("withdrawn", {
            "invitation": 3, "table": "abc", "name": "Greta's Hawk table", "by": "Greta"})
    assert "Dein Tisch ist bereit:" in ready and "Hawk-Schnellspieltisch von Greta" in ready
    assert "Innerhalb von 10 Minuten hat niemand" in expired
    assert "Deine Schnellspiel-Anfrage für Sheepshead wurde zurückgezogen" in dropped
    assert "Greta lädt dich ein: Hawk-Tisch von Greta." in invited
    assert "Greta hat die Einladung zurückgezogen" in withdrawn
    for html in (ready, expired, dropped, invited, withdrawn):
        assert not english_left(visible_text(html)), html


def test_the_forms_say_the_engines_house_rules_and_their_own_fields_in_german() -> None:
    with translation.override("de"):
        new_table = render_to_string("tables/lobby/lobby.html#new-table", {"form": NewTableForm(game="hawk")})
        quick = render_to_string("tables/quickplay/form.html", {"form": QuickPlayForm(game="sheepshead")})
    assert "Jeden Bonusstich zählen" in new_table and "Runden pro Partie" in new_table
    assert "Sekunden pro Zug" in new_table and "4 Spieler" in new_table and "Tisch aufmachen" in new_table
    assert "Club-Einsatz: 1,00 $" in quick and "Einsatz" in quick and "Mit Bots spielen" in quick
    assert 'data-more="Mehr Optionen: Spieler, Bots, Hausregeln"' in quick
    for html in (new_table, quick):
        left = english_left(visible_text(html))
        assert not left, left
        assert "Count every bonus trick" not in html and "Seconds per turn" not in html and "Club stakes" not in html


@pytest.mark.django_db
def test_quick_play_refuses_in_german(make_member: Callable[..., User]) -> None:
    with translation.override("de"), pytest.raises(TableError) as refused:
        clean_request(game="hawk", players=9, band="", options=None, bots_after_seconds=None)
    assert str(refused.value) == "Hawk spielen 2 bis 6 Spieler."
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(make_member("greta", display_name="Greta"))
    answer = client.post(reverse("quick_cancel"), HTTP_HX_REQUEST="true")
    assert answer.status_code == 400 and "Du wartest gerade nicht im Schnellspiel." in answer.content.decode()


@pytest.mark.django_db
def test_the_table_page_gives_its_scripts_german_words(make_member: Callable[..., User]) -> None:
    greta = make_member("greta", display_name="Greta")
    table = create_table(creator=greta, game="hawk", players=4)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(greta)
    html = client.get(reverse("table", args=[table.code])).content.decode()
    page = re.search(r'<div class="table-page"[^>]*>', html)
    assert page, html[:500]
    for said in ('data-said-your-turn="Du bist dran"', 'data-said-reconnecting="verbinde neu …"',
                 'data-said-live="live"', 'data-said-reload="Neu laden"'):
        assert said in page.group(0)
    assert "Hawk-Tisch von Greta" in html and 'aria-label="Der Tisch"' in html
    assert "Greta's Hawk table" not in visible_text(html)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_german_members_lobby_socket_says_their_table_is_ready_in_german(
        make_member: Callable[..., User]) -> None:
    """The notice is rendered inside the socket's handler, so in the member's saved language; an English member
    seated at the same table by the same push reads English."""
    greta = await sync_to_async(make_member)("greta", display_name="Greta", language="de")
    hans = await sync_to_async(make_member)("hans", display_name="Hans")
    await sync_to_async(enqueue)(user=greta, game="hawsker")
    sockets = {}
    for member in (greta, hans):
        comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(member))
        assert (await comm.connect())[0]
        sockets[member.username] = comm
    await sync_to_async(enqueue)(user=hans, game="hawsker")
    notices = {name: unescape(await _notice(comm)) for name, comm in sockets.items()}
    assert "Dein Tisch ist bereit:" in notices["greta"] and "Hawsker-Schnellspieltisch von Greta" in notices["greta"]
    assert "Your table is ready:" in notices["hans"] and "Greta's quick Hawsker table" in notices["hans"]
    for comm in sockets.values():
        await comm.disconnect()


async def _notice(comm, timeout: float = 5.0) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise AssertionError("no table_ready notice")
        message = await comm.receive_from(timeout=left)
        if 'data-notice="table_ready"' in message:
            return message
