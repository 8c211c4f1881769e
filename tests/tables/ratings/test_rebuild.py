"""`manage.py rebuild_ratings`: the recorded matches, replayed in their order, give exactly the stored ratings."""

from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command

from tables.models import MatchResult, Rating, RatingChange
from tables.ratings.services.rebuild import rebuild_ratings
from tests.tables.ratings.factories import days_ago, record_match

pytestmark = pytest.mark.django_db

SEATS = {"sheepshead": (5, 5), "hawk": (3, 4), "hawsker": (2, 2), "puskiyon": (2, 7)}
BOTS = ["easy", "easy", "normal", "strong"]  # each level a player of its own; easy is the most common


def snapshot() -> tuple[list, list]:
    ratings = sorted(Rating.objects.values_list("game", "user_id", "bot", "mu", "sigma", "matches"),
                     key=lambda row: (row[0], row[1] or 0, row[2]))
    changes = sorted(RatingChange.objects.values_list(
        "result_id", "rating__user_id", "rating__bot", "mu_before", "sigma_before", "mu_after", "sigma_after"),
        key=lambda row: (row[0], row[1] or 0, row[2]))
    return ratings, changes


@pytest.fixture
def club(make_member):
    """500 matches of the four games, members and bots mixed (several bot seats per match at times, ties too),
    from a fixed seed: each recorded and rated as the ledger does it."""
    rng = random.Random(19)
    members = [make_member(f"m{i}") for i in range(12)]
    for n in range(500):
        game = rng.choice(sorted(SEATS))
        low, high = SEATS[game]
        players = rng.randint(low, high)
        humans = rng.randint(1, players)
        seats: list = rng.sample(members, humans) + [rng.choice(BOTS) for _ in range(players - humans)]
        rng.shuffle(seats)
        totals = [rng.randint(-3, 3) * 10 for _ in seats]  # few values: ties are common
        record_match(game, seats, totals, finished_at=days_ago(500 - n))
    return members


def test_the_rebuild_gives_the_stored_values_after_500_matches(club) -> None:
    rated = MatchResult.objects.filter(rating_seq__isnull=False).count()
    assert rated == 500
    stored = snapshot()
    assert {row[2] for row in stored[0] if row[1] is None} == {"easy", "normal", "strong"}  # three bot players
    assert len({row[0] for row in stored[0]}) == 4
    checked = rebuild_ratings(write=False)
    assert checked.differences == [] and checked.matches == 500
    call_command("rebuild_ratings", "--check")
    call_command("rebuild_ratings")
    assert snapshot() == stored  # float equality, every rating and every change


def test_check_reports_a_tampered_rating_and_writes_nothing_then_the_rebuild_restores_it(club) -> None:
    stored = snapshot()
    victim = Rating.objects.filter(user__isnull=False).order_by("pk").first()
    Rating.objects.filter(pk=victim.pk).update(mu=victim.mu + 1e-9)
    change = RatingChange.objects.order_by("pk").last()
    RatingChange.objects.filter(pk=change.pk).update(sigma_after=1.0)
    tampered = snapshot()
    with pytest.raises(CommandError, match="2 difference"):
        call_command("rebuild_ratings", "--check")
    assert snapshot() == tampered
    call_command("rebuild_ratings")
    assert snapshot() == stored
    assert rebuild_ratings(write=False).differences == []


def test_the_rebuild_rates_results_recorded_without_a_rating_in_order(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    record_match("hawsker", [ann, bob], [5, 1], finished_at=days_ago(3))
    expected_after = snapshot()
    Rating.objects.all().delete()
    MatchResult.objects.update(rating_seq=None)
    late = record_match("hawsker", [ann, bob], [1, 5], finished_at=days_ago(1), signal=False)
    with pytest.raises(CommandError):
        call_command("rebuild_ratings", "--check")
    call_command("rebuild_ratings")
    late.refresh_from_db()
    assert late.rating_seq == 2
    ratings = {r.user_id: r for r in Rating.objects.all()}
    assert ratings[ann.pk].matches == 2
    first = RatingChange.objects.get(result__rating_seq=1, rating__user=ann)
    assert (first.mu_after, first.sigma_after) == next(
        (row[5], row[6]) for row in expected_after[1] if row[1] == ann.pk)
    assert rebuild_ratings(write=False).differences == []


def test_a_rating_no_match_gives_is_reported_and_removed(make_member) -> None:
    ann = make_member("ann")
    Rating.objects.create(game="hawk", user=ann, mu=40.0, sigma=1.0, matches=3)
    assert len(rebuild_ratings(write=False).differences) == 1
    call_command("rebuild_ratings")
    assert not Rating.objects.exists()
