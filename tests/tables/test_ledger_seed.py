"""`manage.py seed` plays a few finished matches of each game, with their ledger entries, once."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.management import call_command
from django.db.models import Count, Sum

from rules.engine.registry import GAME_KEYS
from tables.ledger.selectors import member_history
from tables.ledger.services.fairness import verify_deal
from tables.models import LedgerEntry, MatchResult, Move, Round, Seat, Table
from tables.seeding import FINISHED_DEMO_MATCHES, FINISHED_DEMO_PREFIX

pytestmark = pytest.mark.django_db


def test_seed_adds_finished_matches_of_every_game_with_their_ledger_once() -> None:
    call_command("seed")
    demo = Table.objects.filter(name__startswith=FINISHED_DEMO_PREFIX)
    planned = Counter(game for game, *_rest in FINISHED_DEMO_MATCHES)
    assert set(planned) == set(GAME_KEYS) and min(planned.values()) >= 2  # every game, a few matches each
    assert demo.count() == len(FINISHED_DEMO_MATCHES)
    assert set(demo.values_list("status", flat=True)) == {Table.Status.FINISHED}
    per_game = dict(demo.values_list("game").annotate(n=Count("id")))
    assert per_game == planned
    assert not Seat.objects.filter(table__in=demo, away=True).exists()
    rounds = Round.objects.filter(match__table__in=demo)
    assert rounds.filter(over=False).count() == 0
    for rnd in rounds.select_related("match__table"):
        entries = LedgerEntry.objects.filter(round=rnd)
        assert entries.count() == rnd.match.table.seat_count
        if rnd.match.table.game == "sheepshead":
            assert entries.aggregate(s=Sum("amount"))["s"] == 0
        assert verify_deal(round_id=rnd.pk).ok
    assert Move.objects.filter(round__in=rounds, actor=Move.Actor.MEMBER).exists()  # members really played
    alice = Seat.objects.filter(table__in=demo, user__username="alice").first().user
    alices_games = {game for game, names, *_rest in FINISHED_DEMO_MATCHES if "alice" in names}
    assert {row.entry.game for row in member_history(user=alice).rows} == alices_games
    results = MatchResult.objects.filter(table__in=demo)
    assert dict(results.values_list("game").annotate(n=Count("id"))) == planned
    for result in results.select_related("table"):
        assert result.ending == "played" and result.places.count() == result.table.seat_count
        assert result.places.filter(won=True).exists()
    counts = (Table.objects.count(), Round.objects.count(), LedgerEntry.objects.count(), MatchResult.objects.count())
    call_command("seed")
    assert (Table.objects.count(), Round.objects.count(), LedgerEntry.objects.count(),
            MatchResult.objects.count()) == counts


def test_seed_records_the_results_of_a_club_seeded_before_results_were_kept() -> None:
    call_command("seed")
    kept = sorted(MatchResult.objects.values_list("match_id", "game", "rounds"))
    MatchResult.objects.all().delete()
    call_command("seed")
    assert sorted(MatchResult.objects.values_list("match_id", "game", "rounds")) == kept
    assert {game for _match, game, _rounds in kept} == set(GAME_KEYS)


def test_every_demo_member_has_a_place_in_each_demo_match_they_played() -> None:
    """The demo members play their matches to the end themselves: a member the house stood in for most of a match
    has no place in it, and their history then showed only the matches that happened to end in a round."""
    call_command("seed")
    for number, (game, names, *_rest) in enumerate(FINISHED_DEMO_MATCHES, start=1):
        result = MatchResult.objects.get(table__name__startswith=f"{FINISHED_DEMO_PREFIX} {number}:")
        placed = set(result.places.filter(user__isnull=False).values_list("user__username", flat=True))
        assert placed == set(names), (number, game, placed)
