"""Rebuilding every rating from the recorded matches: the check that the stored ratings are what the matches say.

The ratings are a fold over each game's results in `rating_seq` order (see `ratings`), so replaying that fold
from new players must give exactly the stored floats. A result recorded without a seq (before ratings
existed, or by a path that did not rate it) is taken after the rated ones, oldest first, and given its seq
when the rebuild writes. Written under every game's lock, in one transaction: a match ending meanwhile waits.

A migration that changes who the players of recorded matches are (0019: each bot level a player of its own) runs
the same rebuild on its historical models (`Models.of(apps)`), so the database it leaves is one the rebuild finds
nothing to change in.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from tables.models import MatchResult, Rating, RatingChange
from tables.ratings.services.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    NEW_PLAYER,
    PlayerKey,
    Skill,
    lock_game,
    player_key,
    rateable,
    update,
)

RatingKey = tuple[str, PlayerKey]  # (game, player)


@dataclass(frozen=True)
class Models:
    """The model classes the rebuild reads and writes: the app's own, or a migration's historical ones."""

    MatchResult: Any
    Rating: Any
    RatingChange: Any

    @classmethod
    def of(cls, apps: Any) -> Models:
        return cls(apps.get_model("tables", "MatchResult"), apps.get_model("tables", "Rating"),
                   apps.get_model("tables", "RatingChange"))


APP_MODELS = Models(MatchResult, Rating, RatingChange)


@dataclass
class Rebuilt:
    """What the matches say, and how the stored rows differ from it."""

    matches: int = 0
    differences: list[str] = field(default_factory=list)
    written: bool = False


@dataclass
class _Expected:
    ratings: dict[RatingKey, tuple[Skill, int, datetime]] = field(default_factory=dict)
    changes: dict[tuple[int, PlayerKey], tuple[Skill, Skill]] = field(default_factory=dict)
    new_seqs: dict[int, int] = field(default_factory=dict)  # result id -> the seq it is given


def rebuild_ratings(*, write: bool, models: Models = APP_MODELS) -> Rebuilt:
    """Replay every game's matches; with `write`, make the stored ratings and changes exactly the replay's."""
    with transaction.atomic():
        for game in sorted(set(models.MatchResult.objects.values_list("game", flat=True))):
            lock_game(game)
        expected, report = _replay(models)
        stored_ratings = {_rating_key(r): r for r in models.Rating.objects.all()}
        stored_changes = {(c.result_id, _player(c.rating)): c
                          for c in models.RatingChange.objects.select_related("rating")}
        _compare(expected, stored_ratings, stored_changes, report)
        if write and report.differences:
            _write(expected, stored_ratings, stored_changes, models)
            report.written = True
        return report


def _replay(models: Models) -> tuple[_Expected, Rebuilt]:
    expected, report = _Expected(), Rebuilt()
    results = models.MatchResult.objects.prefetch_related("places")
    ordered = list(results.filter(rating_seq__isnull=False).order_by("game", "rating_seq"))
    unrated = list(results.filter(rating_seq__isnull=True).order_by("game", "finished_at", "pk"))
    last_seq: dict[str, int] = defaultdict(int)
    for result in ordered:
        last_seq[result.game] = result.rating_seq
    for result in unrated:
        if rateable(result.places.all()):
            last_seq[result.game] += 1
            expected.new_seqs[result.pk] = last_seq[result.game]
            report.differences.append(f"{result.game} match result {result.pk} is not rated: step "
                                      f"{last_seq[result.game]} when written")
            ordered.append(result)
    for result in ordered:
        places = list(result.places.all())
        if not rateable(places):
            continue
        report.matches += 1
        before = {}
        for place in places:
            key = (result.game, player_key(place))
            before[key[1]] = expected.ratings[key][0] if key in expected.ratings else NEW_PLAYER
        for player, skill in update(places, before).items():
            key = (result.game, player)
            count = expected.ratings[key][1] if key in expected.ratings else 0
            expected.ratings[key] = (skill, count + 1, result.finished_at)
            expected.changes[(result.pk, player)] = (before[player], skill)
    return expected, report


def _player(rating: Rating) -> PlayerKey:
    return ("member", rating.user_id) if rating.user_id is not None else ("bot", rating.bot)


def _rating_key(rating: Rating) -> RatingKey:
    return (rating.game, _player(rating))


def _name(key: RatingKey) -> str:
    game, (kind, who) = key
    return f"{game} rating of {kind} {who}"


def _compare(expected: _Expected, ratings: dict[RatingKey, Rating], changes: dict, report: Rebuilt) -> None:
    for key, (skill, count, _when) in expected.ratings.items():
        stored = ratings.get(key)
        if stored is None:
            report.differences.append(f"{_name(key)} is missing: mu {skill.mu!r}, sigma {skill.sigma!r}")
        elif (stored.mu, stored.sigma, stored.matches) != (skill.mu, skill.sigma, count):
            report.differences.append(
                f"{_name(key)}: stored mu {stored.mu!r}, sigma {stored.sigma!r}, {stored.matches} matches; "
                f"the matches give mu {skill.mu!r}, sigma {skill.sigma!r}, {count} matches")
    for key in ratings.keys() - expected.ratings.keys():
        report.differences.append(f"{_name(key)} comes from no recorded match")
    for (result_id, player), (before, after) in expected.changes.items():
        stored = changes.get((result_id, player))
        want = (before.mu, before.sigma, after.mu, after.sigma)
        if stored is None:
            report.differences.append(f"match result {result_id}: no rating change of {player[0]} {player[1]}")
        elif (stored.mu_before, stored.sigma_before, stored.mu_after, stored.sigma_after) != want:
            report.differences.append(f"match result {result_id}: the change of {player[0]} {player[1]} differs")
    for result_id, player in changes.keys() - expected.changes.keys():
        report.differences.append(f"match result {result_id}: a rating change of {player[0]} {player[1]} "
                                  "that the match does not give")


def _write(expected: _Expected, ratings: dict[RatingKey, Rating], changes: dict, models: Models) -> None:
    results, rating_rows, change_rows = models.MatchResult.objects, models.Rating.objects, models.RatingChange.objects
    change_rows.filter(pk__in=[changes[k].pk for k in changes.keys() - expected.changes.keys()]).delete()
    rating_rows.filter(pk__in=[ratings[k].pk for k in ratings.keys() - expected.ratings.keys()]).delete()
    for result_id, seq in expected.new_seqs.items():
        results.filter(pk=result_id).update(rating_seq=seq)
    games_of: dict[int, str] = dict(results.filter(
        pk__in={result_id for result_id, _ in expected.changes}).values_list("pk", "game"))
    for key, (skill, count, when) in expected.ratings.items():
        game, (kind, who) = key
        rating = ratings.get(key)
        if rating is None:
            lookup = {"user_id": who} if kind == "member" else {"bot": who}
            rating = ratings[key] = rating_rows.create(game=game, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, **lookup)
        rating.mu, rating.sigma, rating.matches, rating.updated_at = skill.mu, skill.sigma, count, when
    rating_rows.bulk_update(list(ratings[k] for k in expected.ratings), ["mu", "sigma", "matches", "updated_at"])
    fresh, touched = [], []
    for (result_id, player), (before, after) in expected.changes.items():
        values = {"mu_before": before.mu, "sigma_before": before.sigma, "mu_after": after.mu,
                  "sigma_after": after.sigma}
        change = changes.get((result_id, player))
        if change is None:
            rating = ratings[(games_of[result_id], player)]
            fresh.append(models.RatingChange(result_id=result_id, rating=rating, **values))
        else:
            for name, value in values.items():
                setattr(change, name, value)
            touched.append(change)
    change_rows.bulk_update(touched, ["mu_before", "sigma_before", "mu_after", "sigma_after"])
    change_rows.bulk_create(fresh)
