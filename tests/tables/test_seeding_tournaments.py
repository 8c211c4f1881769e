"""The demo's tournaments: one taking entries that a demo member can enter from its page, one finished at the club
with its results published, made once however often the seed runs, and booking no money."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.models import Entry, LedgerEntry, Tournament, TournamentTable
from tables.seeding import seed_members
from tables.seeding_tournaments import CHAMPIONSHIP, SWISS, SWISS_ROUNDS, seed_tournaments
from tables.tournaments import selectors, swiss

pytestmark = pytest.mark.django_db


def test_the_demo_tournaments_are_made_once_and_can_be_used() -> None:
    seed_members()
    assert seed_tournaments().created == 2
    again = seed_tournaments()
    assert (again.created, again.existing) == (0, 2)
    assert Tournament.objects.count() == 2

    championship = Tournament.objects.get(name=CHAMPIONSHIP)
    assert championship.status == Tournament.Status.ENTRIES_OPEN
    assert championship.starts_at is not None and championship.entry_fee_cents == 500
    frank = User.objects.get(username="frank")
    client = Client()
    client.force_login(frank)
    assert CHAMPIONSHIP in client.get(reverse("tournaments")).content.decode()
    client.post(reverse("tournament_enter", args=[championship.pk]))
    assert Entry.objects.filter(tournament=championship, user=frank, status=Entry.Status.ENTERED).exists()

    finished = Tournament.objects.get(name=SWISS)
    assert finished.status == Tournament.Status.FINISHED and finished.published_at is not None
    tables = list(TournamentTable.objects.filter(round__tournament=finished))
    byes = [table for table in tables if table.is_bye]
    played = [table for table in tables if not table.is_bye]
    assert len(byes) == SWISS_ROUNDS  # five entrants: one bye a round
    assert len(played) == 2 * SWISS_ROUNDS and all(table.winner_id for table in played)
    pairs = [frozenset(table.seats) for table in played]
    assert len(set(pairs)) == len(pairs)  # nobody met twice
    field = Entry.objects.filter(tournament=finished, status=Entry.Status.ENTERED).values_list("user_id", flat=True)
    expected = {member: swiss.WIN_POINTS * sum(table.winner_id == member for table in played)
                + swiss.BYE_POINTS * sum(member in table.seats for table in byes) for member in field}
    standings = selectors.standings(tournament_id=finished.pk)
    assert {one.user_id: one.score for one in standings} == expected
    assert [one.place for one in standings] == list(range(1, 6))
    assert not LedgerEntry.objects.filter(tournament__isnull=False).exists()  # no fee, nothing booked
    page = client.get(reverse("tournament", args=[finished.pk])).content.decode()
    leader = User.objects.get(pk=standings[0].user_id)
    assert leader.shown_name in page
