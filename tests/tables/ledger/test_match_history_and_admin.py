"""A member's matches in their history (place of how many, won or lost, the rounds they may replay), and the
admin's read-only match results and editable seasons."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from html import escape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import MatchPlace, MatchResult, Round, Season
from tables.play.services import clock
from tables.play.services.tables import leave_table
from tests.tables.helpers import current_round, full_table, play_one
from tests.tables.ledger_support import next_round, play_until_round_over

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_history_lists_my_matches_with_place_result_and_the_rounds_i_may_replay(make_member) -> None:
    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    table = full_table("hawk", [ann, ben], bots=2, rounds=2)
    play_until_round_over(table)
    next_round(table, [ann, ben])
    leave_table(table_id=table.pk, user=ben)  # the bot finishes the second round for Ben: still his (and his money)
    rng = random.Random(5)
    for _ in range(2000):
        if current_round(table).over:
            break
        if not play_one(table, {0: ann}, rng):
            clock.advance(table_id=table.pk, now=timezone.now() + timedelta(minutes=1))
    result = MatchResult.objects.get(table=table)
    first, second = Round.objects.filter(match__table=table).order_by("number")
    for member, rounds in ((ann, [first, second]), (ben, [first, second])):
        place = MatchPlace.objects.get(result=result, user=member)
        page = client_for(member).get(reverse("my_history")).content.decode()
        row = re.search(rf'<tr class="match-(won|lost)" data-match="{result.pk}">(.*?)</tr>', page, re.S)
        assert row is not None
        assert row.group(1) == ("won" if place.won else "lost")
        cells = row.group(2)
        assert f"{place.place} of 4" in cells and "played out" in cells and escape(table.name) in cells
        assert ("<td class=\"outcome\">Won</td>" if place.won else "<td class=\"outcome\">Lost</td>") in cells
        assert re.findall(r'href="/rounds/(\d+)/replay/"', cells) == [str(r.pk) for r in rounds]
        for rnd in rounds:  # every round linked is one the member may replay
            assert client_for(member).get(reverse("round_replay", args=[rnd.pk])).status_code == 200
    hawk_alone = full_table("hawk", [make_member("dan")], bots=3, rounds=1)
    play_until_round_over(hawk_alone)
    assert MatchResult.objects.filter(table=hawk_alone).exists()
    assert 'data-match="' + str(MatchResult.objects.get(table=hawk_alone).pk) not in page  # not Ben's match
    other = client_for(make_member("cat")).get(reverse("my_history")).content.decode()
    assert "No match of yours ended in this period." in other
    assert 'data-match="' not in client_for(ann).get(reverse("my_history"), {"game": "puskiyon"}).content.decode()


def test_penalty_totals_show_without_a_plus_in_my_history(make_member) -> None:
    ann = make_member("ann")
    table = full_table("puskiyon", [ann], bots=1, target=20)
    for _ in range(50):
        table.refresh_from_db()
        if table.status != table.Status.RUNNING:
            break
        next_round(table, [ann])
        play_until_round_over(table)
    place = MatchPlace.objects.get(user=ann)
    page = client_for(ann).get(reverse("my_history")).content.decode()
    row = re.search(r'<tr class="match-\w+" data-match="\d+">(.*?)</tr>', page, re.S).group(1)
    points = f"{place.total} point" + ("" if place.total == 1 else "s")
    assert f'<td class="num">{points}</td>' in row


def test_the_admin_shows_match_results_read_only_with_their_places_and_filters(make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    ann = make_member("ann", display_name="Ann")
    play_until_round_over(full_table("hawk", [ann], bots=3, rounds=1))
    result = MatchResult.objects.get()
    client = client_for(boss)
    listing = client.get(reverse("admin:tables_matchresult_changelist"), {"game__exact": "hawk", "ending__exact":
                                                                          "played"})
    assert listing.status_code == 200 and f"/{result.pk}/change/" in listing.content.decode()
    other = client.get(reverse("admin:tables_matchresult_changelist"), {"ending__exact": "closed"}).content.decode()
    assert f"/{result.pk}/change/" not in other
    detail = client.get(reverse("admin:tables_matchresult_change", args=[result.pk])).content.decode()
    assert "Ann" in detail or "ann" in detail
    assert "match places" in detail.lower() and 'name="_save"' not in detail
    assert client.get(reverse("admin:tables_matchresult_add")).status_code == 403
    assert client.post(reverse("admin:tables_matchresult_delete", args=[result.pk]), {"post": "yes"}).status_code == 403
    assert MatchResult.objects.filter(pk=result.pk).exists()
    assert client.get(reverse("admin:tables_matchresult_changelist"), {"rounds__gte": "1"}).status_code == 400


def test_the_admin_sets_a_season(make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    client = client_for(boss)
    added = client.post(reverse("admin:tables_season_add"),
                        {"name": "Summer 2026", "starts": "2026-06-01", "ends": "2026-08-31"})
    assert added.status_code == 302
    assert Season.objects.get().starts == date(2026, 6, 1)
    backwards = client.post(reverse("admin:tables_season_add"),
                            {"name": "Wrong", "starts": "2026-09-01", "ends": "2026-08-01"})
    assert backwards.status_code == 200 and Season.objects.count() == 1
