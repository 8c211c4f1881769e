"""Rating a recorded match: OpenSkill's Plackett-Luce updates checked against the formulas worked out here.

The expected numbers are not openskill's: `weng_lin_update` below is Algorithm 4 of Weng & Lin (2011, "A
Bayesian approximation method for online ranking", JMLR 12) for teams of one, with openskill's default
constants (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300 added to every sigma before the match,
gamma = sigma_i / c). openskill 6.2.0 also "averages the mu changes of tied teams", but that step compares
each player with itself (a no-op); the formulas below have no such step and the site's numbers agree.
"""

from __future__ import annotations

import math

import pytest
from django.db import transaction

from accounts.models import User
from tables.ledger.signals import match_recorded
from tables.models import MatchResult, Rating, RatingChange
from tables.ratings.services.ratings import RatingError, ordinal, provisional, rate_match
from tests.tables.ratings.factories import places_from_totals, record_match

pytestmark = pytest.mark.django_db

MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001, 25.0 / 300.0


def weng_lin_update(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Algorithm 4 (Plackett-Luce), each team one player: (mu, sigma) before -> after, rank 1 best."""
    sigma2 = [s * s + TAU * TAU for _, s in players]
    c = math.sqrt(sum(v + BETA * BETA for v in sigma2))
    strength = [math.exp(mu / c) for mu, _ in players]
    n = len(players)
    sum_q = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i, (mu, _) in enumerate(players):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = strength[i] / sum_q[q]
                omega += ((1.0 if q == i else 0.0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        gamma = math.sqrt(sigma2[i]) / c
        omega *= sigma2[i] / c
        delta *= gamma * sigma2[i] / (c * c)
        out.append((mu + omega, math.sqrt(sigma2[i]) * math.sqrt(max(1 - delta, KAPPA))))
    return out


def rating_of(user: User, game: str) -> Rating:
    return Rating.objects.get(game=game, user=user)


def test_the_reference_formulas_give_the_hand_worked_two_player_numbers() -> None:
    """Worked by hand: sigma'^2 = 625/9 + 1/144 = 69.451389; c^2 = 2 (69.451389 + 625/36) = 173.625, c =
    13.176684; both strengths equal, so p = 1/2: the winner's omega = 69.451389 / 13.176684 / 2 = 2.635389
    and the loser's -2.635389; delta = (8.333750 / 13.176684) (69.451389 / 173.625) / 4 = 0.063248 for both,
    so sigma = 8.333750 sqrt(1 - 0.063248) = 8.065901."""
    (win_mu, win_sigma), (lose_mu, lose_sigma) = weng_lin_update([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    assert win_mu == pytest.approx(27.635389, abs=1e-6)
    assert lose_mu == pytest.approx(22.364611, abs=1e-6)
    assert win_sigma == pytest.approx(8.065901, abs=1e-6)
    assert lose_sigma == pytest.approx(8.065901, abs=1e-6)


def test_a_two_player_match_moves_both_new_members_as_worked_by_hand(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    result = record_match("hawsker", [bob, ann], [3, 7])  # Hawsker: the higher total wins, so Ann
    assert result.rating_seq == 1
    ann_rating, bob_rating = rating_of(ann, "hawsker"), rating_of(bob, "hawsker")
    assert ann_rating.mu == pytest.approx(27.635389, abs=1e-6)
    assert bob_rating.mu == pytest.approx(22.364611, abs=1e-6)
    assert ann_rating.sigma == pytest.approx(8.065901, abs=1e-6) == bob_rating.sigma
    assert (ann_rating.matches, bob_rating.matches) == (1, 1)
    change = RatingChange.objects.get(result=result, rating=ann_rating)
    assert (change.mu_before, change.sigma_before) == (MU, SIGMA)
    assert (change.mu_after, change.sigma_after) == (ann_rating.mu, ann_rating.sigma)
    assert ordinal(ann_rating.mu, ann_rating.sigma) == pytest.approx(27.635389 - 3 * 8.065901, abs=1e-5)


def test_a_five_player_match_with_players_of_different_standing(make_member) -> None:
    members = [make_member(f"p{i}") for i in range(5)]
    before = [(31.0, 4.0), (25.0, 25.0 / 3.0), (19.5, 6.5), (27.25, 2.5), (22.0, 7.75)]
    for member, (mu, sigma) in zip(members, before, strict=True):
        Rating.objects.create(game="sheepshead", user=member, mu=mu, sigma=sigma, matches=9)
    totals = [-300, 450, 120, -150, -120]  # Sheepshead: money, the most wins; places 5, 1, 2, 4, 3
    result = record_match("sheepshead", members, totals)
    ranks = places_from_totals(totals)
    assert ranks == [5, 1, 2, 4, 3]
    expected = weng_lin_update(before, ranks)
    for member, (mu, sigma) in zip(members, expected, strict=True):
        rating = rating_of(member, "sheepshead")
        assert rating.mu == pytest.approx(mu, rel=1e-12)
        assert rating.sigma == pytest.approx(sigma, rel=1e-12)
        assert rating.matches == 10
    assert result.rating_changes.count() == 5
    winner = rating_of(members[1], "sheepshead")
    assert winner.mu > 25.0 and rating_of(members[0], "sheepshead").mu < 31.0


def test_a_tie_shares_a_place_and_both_move_as_the_formulas_say(make_member) -> None:
    ann, bob, cat = make_member("ann"), make_member("bob"), make_member("cat")
    Rating.objects.create(game="hawk", user=ann, mu=30.0, sigma=5.0, matches=3)
    Rating.objects.create(game="hawk", user=bob, mu=20.0, sigma=7.0, matches=3)
    record_match("hawk", [ann, bob, cat], [40, 40, 10])  # Hawk: points, the most wins; Ann and Bob tie first
    expected = weng_lin_update([(30.0, 5.0), (20.0, 7.0), (MU, SIGMA)], [1, 1, 3])
    for member, (mu, sigma) in zip([ann, bob, cat], expected, strict=True):
        assert rating_of(member, "hawk").mu == pytest.approx(mu, rel=1e-12)
        assert rating_of(member, "hawk").sigma == pytest.approx(sigma, rel=1e-12)
    # Sharing first place with a stronger player lifts the weaker one more than the stronger one.
    assert rating_of(bob, "hawk").mu - 20.0 > rating_of(ann, "hawk").mu - 30.0 > 0


def test_three_bot_seats_rate_the_bot_once_with_the_mean_of_its_seats(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    Rating.objects.create(game="sheepshead", bot="easy", mu=26.0, sigma=3.0, matches=40)
    totals = [200, -50, 100, -150, -100]  # seats: Ann, bot, Bob, bot, bot
    result = record_match("sheepshead", [ann, "easy", bob, "easy", "easy"], totals)
    ranks = places_from_totals(totals)
    expected = weng_lin_update([(MU, SIGMA), (26.0, 3.0), (MU, SIGMA), (26.0, 3.0), (26.0, 3.0)], ranks)
    bot = Rating.objects.get(game="sheepshead", bot="easy")
    seats = [expected[1], expected[3], expected[4]]
    assert bot.mu == pytest.approx(sum(mu for mu, _ in seats) / 3, rel=1e-12)
    assert bot.sigma == pytest.approx(sum(sigma for _, sigma in seats) / 3, rel=1e-12)
    assert bot.matches == 41  # one match, however many seats
    assert rating_of(ann, "sheepshead").mu == pytest.approx(expected[0][0], rel=1e-12)
    change = RatingChange.objects.get(result=result, rating=bot)
    assert (change.mu_before, change.sigma_before, change.mu_after) == (26.0, 3.0, bot.mu)
    assert result.rating_changes.count() == 3


def test_each_game_counts_its_own_steps_and_ratings(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    first = record_match("hawsker", [ann, bob], [5, 1])
    other = record_match("puskiyon", [ann, bob, "easy"], [10, 20, 30])
    second = record_match("hawsker", [ann, "easy"], [1, 5])
    assert (first.rating_seq, other.rating_seq, second.rating_seq) == (1, 1, 2)
    assert rating_of(ann, "hawsker").matches == 2 and rating_of(ann, "puskiyon").matches == 1
    # Puskiyon: the lowest total wins, so Ann (10) is first and rises.
    bot = Rating.objects.get(game="puskiyon", bot="easy")
    assert rating_of(ann, "puskiyon").mu > rating_of(bob, "puskiyon").mu > bot.mu


def test_rating_a_result_twice_is_refused_and_changes_nothing(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    result = record_match("hawsker", [ann, bob], [5, 1])
    before = list(Rating.objects.values_list("mu", "sigma", "matches"))
    with pytest.raises(RatingError):
        rate_match(result=MatchResult.objects.get(pk=result.pk))
    assert list(Rating.objects.values_list("mu", "sigma", "matches")) == before
    assert RatingChange.objects.count() == 2


def test_a_match_with_one_player_is_left_unrated(make_member) -> None:
    ann = make_member("ann")
    result = record_match("hawsker", [ann], [5])
    result.refresh_from_db()
    assert result.rating_seq is None and not Rating.objects.exists()


def test_the_rating_rolls_back_with_the_result(make_member) -> None:
    """The receiver runs inside the transaction that records the result: a failure after it undoes both."""
    ann, bob = make_member("ann"), make_member("bob")
    with pytest.raises(RuntimeError), transaction.atomic():
        record_match("hawsker", [ann, bob], [5, 1])
        assert Rating.objects.count() == 2
        raise RuntimeError("the round's transaction fails later")
    assert not Rating.objects.exists() and not MatchResult.objects.exists()


def test_the_signal_rates_the_result_it_carries(make_member) -> None:
    ann, bob = make_member("ann"), make_member("bob")
    result = record_match("hawsker", [ann, bob], [5, 1], signal=False)
    assert not Rating.objects.exists()
    match_recorded.send(sender=MatchResult, result=result)
    result.refresh_from_db()
    assert result.rating_seq == 1 and Rating.objects.count() == 2


def test_provisional_until_the_set_number_of_matches(settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 5
    assert provisional(4) and not provisional(5)
    settings.RATING_PROVISIONAL_MATCHES = 2
    assert not provisional(2)
