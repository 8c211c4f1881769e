"""A tournament's online table links back to its tournament (play's hook, tables.play.table_links): its page says
"Part of <tournament>, session N, table M" as a link to the tournament's page, for its players and for staff watching;
an ordinary table's page (public, or private with a creator) links nowhere. The providers are asked once per full
page, never for a move or a board, and a table that is not a seated one costs the tournaments' provider no query."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.urls import reverse

from tables.models import Table, Tournament, TournamentTable
from tables.play import table_links
from tables.play.services.tables import add_bot, create_table, join_table
from tables.play.table_links import TableLink
from tables.tournaments import services
from tables.tournaments.table_link import tournament_link
from tests.tables.helpers import client_for, legal_for, seat_to_act
from tests.tables.tournaments.online_support import drawn, entered

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<span class="table-link">.*?<a href="(?P<url>[^"]+)">(?P<text>[^<]*)</a>', re.S)


def links_on(content: bytes) -> list[tuple[str, str]]:
    return [(html.unescape(found["url"]), " ".join(html.unescape(found["text"]).split()))
            for found in LINK.finditer(content.decode())]


def started_session(make_member, staff) -> tuple[Tournament, list[TournamentTable], dict]:
    tournament, members = entered(make_member, staff, game="sheepshead", format="sessions", count=9, rounds=2,
                                  hands_per_session=2)
    tournament.name = "Winter cup"
    tournament.save(update_fields=["name"])
    round_ = drawn(tournament, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    return tournament, list(round_.tables.order_by("number")), {member.pk: member for member in members}


def test_a_tournament_table_links_back_and_an_ordinary_one_does_not(make_member, staff) -> None:
    tournament, tables, members = started_session(make_member, staff)
    second = tables[1]
    assert second.table is not None
    page = f"/t/{second.table.code}/"
    back = (reverse("tournament", args=[tournament.pk]), "Part of Winter cup, session 1, table 2")
    for viewer in (members[second.seats[0]], members[second.seats[-1]], staff):  # players, and staff watching
        response = client_for(viewer).get(page)
        assert response.status_code == 200
        assert links_on(response.content) == [back]

    # In the member's language, as every word on the page.
    german = client_for(members[second.seats[0]]).get(page, headers={"accept-language": "de"})
    assert links_on(german.content) == [(back[0], "Teil von Winter cup, Sitzung 1, Tisch 2")]

    alice, bob = make_member("alice"), make_member("bob")
    public = create_table(creator=alice, game="hawk", players=4)
    private = create_table(creator=bob, game="hawk", players=4, private=True)
    for table, viewer in ((public, alice), (public, bob), (private, bob)):
        response = client_for(viewer).get(f"/t/{table.code}/")
        assert response.status_code == 200
        assert links_on(response.content) == []
        assert b"Part of" not in response.content


def test_the_provider_reads_nothing_for_a_table_no_feature_seated(make_member, staff,
                                                                    django_assert_num_queries) -> None:
    _, tables, _ = started_session(make_member, staff)
    alice = make_member("alice")
    public = create_table(creator=alice, game="hawk", players=4)
    private = create_table(creator=make_member("bob"), game="hawk", players=4, private=True)
    with django_assert_num_queries(0):
        assert tournament_link(public) is None
        assert tournament_link(private) is None
    seated = Table.objects.get(pk=tables[0].table_id)
    with django_assert_num_queries(1):
        link = tournament_link(seated)
    assert link is not None and link.text.endswith("session 1, table 1")
    # A seated table no tournament knows (its tournament table gone): one query, and no link.
    TournamentTable.objects.filter(pk=tables[0].pk).update(table=None)
    with django_assert_num_queries(1):
        assert tournament_link(seated) is None


@pytest.fixture
def spy():
    """A provider that counts how often it is asked, registered for the test only."""
    asked: list[int] = []

    def provider(table: Table) -> TableLink | None:
        asked.append(table.pk)
        return TableLink(text="the spy's event", url="/spy/")

    table_links.register(provider)
    table_links.register(provider)  # a second registration (a second `ready`) adds nothing
    yield asked
    table_links.unregister(provider)


def test_providers_are_asked_once_per_page_and_never_for_a_move_or_a_board(make_member, spy) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="puskiyon", players=4, turn_seconds=600)
    join_table(table_id=table.pk, user=bob)
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice)
    table.refresh_from_db()

    page = client_for(alice).get(f"/t/{table.code}/")
    assert spy == [table.pk]
    assert links_on(page.content) == [("/spy/", "Part of the spy's event")]

    members = {0: alice, 1: bob}
    seat = seat_to_act(table)
    assert seat in members, "bots play until a member is to act"
    client = client_for(members[seat])
    client.defaults["HTTP_HX_REQUEST"] = "true"
    moved = client.post(f"/t/{table.code}/move/",
                        {"move": random.Random(3).choice(legal_for(table, seat)), "version": table.version})
    assert moved.status_code == 200 and b'id="board"' in moved.content
    assert client.get(f"/t/{table.code}/board/").status_code == 200
    table.refresh_from_db()
    assert table.version > page.context["table"].version  # the move was made
    assert spy == [table.pk], "a provider was asked for a move or a board"
