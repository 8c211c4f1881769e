"""Rebuilding every rating from the recorded matches: the check that the stored ratings are what the matches say.

The ratings are a fold over each game's results in `rating_seq` order (see `ratings`), so replaying that fold
from new players must give exactly the stored floats. A result recorded without a seq (before ratings
existed, or by a path that did not rate it) is taken after the rated ones, oldest first, and given its seq
when the rebuild writes.

A rebuild never stops play. Matches keep ending while it runs, each rated under its game's lock inside the clock
step (or request) that ended it, with its table locked; a rebuild holding the game locks through a whole replay
froze every table for as long. So the replay takes no lock: results and rating changes are written once and never
edited (only a rebuild puts a change right), and the results a game has rated always form an unbroken run of seqs
(each seq is taken under the game's lock from the last one committed), so the rebuild reads them in short pages,
folds them, and compares (and, writing, puts right) the stored changes of each page as it goes. Only then does it
take the game locks, in one short transaction: it folds just the results rated since it last read (seqs beyond
the last it saw), rates the unrated ones after them, compares every rating (a few rows a player) and writes what
differs. When more than `CATCH_UP` results arrived meanwhile it lets go, folds them outside the lock and tries
again; the last of `TRIES` attempts takes them in under the lock whatever their number, so a rebuild always ends.
Build-aside-and-swap was the other way: it copies all ratings and changes and must still catch up on the matches
rated during the copy under the lock, which is this same last step, so it would only add the copy.

Every statement stays small (a page of `PAGE` results, writes in batches of `PAGE` rows), so the rebuild runs
under the connection's ordinary statement timeout (settings: DATABASE_STATEMENT_TIMEOUT) like any request.

A migration that changes who the players of recorded matches are (0019: each bot level a player of its own) runs
the same rebuild on its historical models (`Models.of(apps)`), so the database it leaves is one the rebuild finds
nothing to change in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q

from tables.models import MatchResult, Rating, RatingChange
from tables.ratings.services.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    NEW_PLAYER,
    PlayerKey,
    Skill,
    chosen_unrated,
    lock_game,
    player_key,
    rateable,
    update,
)

RatingKey = tuple[str, PlayerKey]  # (game, player)
ChangeKey = tuple[int, PlayerKey]  # (result id, player)

PAGE = 500  # results read at once, rows written at once: every statement and every write's transaction stays short
CATCH_UP = 100  # results rated since the replay read that are folded under the game locks; more: fold them outside
TRIES = 5  # times the rebuild comes to lock; the last folds what arrived under the lock, however much it is


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
class _Replay:
    """The fold so far, and the stored changes found to differ from it that are still to be written."""

    models: Models
    report: Rebuilt = field(default_factory=Rebuilt)
    ratings: dict[RatingKey, tuple[Skill, int, datetime]] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)  # game -> the last rating_seq folded
    fix: dict[ChangeKey, tuple[str, Skill, Skill]] = field(default_factory=dict)  # to update or create: (game, ...)
    stored: dict[ChangeKey, Any] = field(default_factory=dict)  # the stored rows of the changes in `fix`
    extra: list[int] = field(default_factory=list)  # ids of stored changes no match gives


def rebuild_ratings(*, write: bool, models: Models = APP_MODELS) -> Rebuilt:
    """Replay every game's matches; with `write`, make the stored ratings and changes exactly the replay's."""
    replay = _Replay(models)
    for attempt in range(1, TRIES + 1):
        _fold_rated(replay)  # no lock held: matches go on being rated meanwhile
        if write and (replay.fix or replay.extra):
            _write_changes(replay, _rating_ids(models))
        with transaction.atomic():
            _lock_games(models)
            if attempt < TRIES and _arrived(replay) > CATCH_UP:
                continue  # let go of the locks, and fold what arrived outside them
            _fold_rated(replay)
            _fold_unrated(replay, write=write)
            ratings = _compare_ratings(replay)
            if write and replay.report.differences:
                _write_ratings(replay, ratings)
                _write_changes(replay, {key: rating.pk for key, rating in ratings.items()})
                replay.report.written = True
            return replay.report
    raise AssertionError("unreachable: the last attempt always returns")


def _lock_games(models: Models) -> list[str]:
    """Every game that has results, locked in one order; a game whose first result arrives meanwhile too."""
    locked: list[str] = []
    while True:
        games = set(models.MatchResult.objects.order_by().values_list("game", flat=True).distinct()) - set(locked)
        if not games:
            return locked
        for game in sorted(games):
            lock_game(game)
            locked.append(game)


def _unseen(replay: _Replay) -> Q:
    """Rated results beyond the last seq of their game that the replay folded."""
    beyond = Q(rating_seq__isnull=False)
    for game, seq in replay.seen.items():
        beyond &= ~Q(game=game, rating_seq__lte=seq)
    return beyond


def _arrived(replay: _Replay) -> int:
    """How many results were rated since the replay last read (counted up to one more than `CATCH_UP`)."""
    return len(replay.models.MatchResult.objects.filter(_unseen(replay)).values_list("pk")[:CATCH_UP + 1])


def _fold_rated(replay: _Replay) -> None:
    """Fold every rated result beyond what was folded, each game in its seq order, a page at a time."""
    results = replay.models.MatchResult.objects
    games = sorted(results.filter(_unseen(replay)).order_by().values_list("game", flat=True).distinct())
    for game in games:
        while page := list(results.filter(game=game, rating_seq__gt=replay.seen.get(game, 0))
                           .order_by("rating_seq").prefetch_related("places")[:PAGE]):
            _fold(replay, page)
            replay.seen[game] = page[-1].rating_seq


def _fold_unrated(replay: _Replay, *, write: bool) -> None:
    """Results recorded without a seq, oldest first: each rateable one takes its game's next seq (under the lock)."""
    results = replay.models.MatchResult.objects
    ids = list(results.filter(rating_seq__isnull=True).order_by("game", "finished_at", "pk")
               .values_list("pk", flat=True))
    for start in range(0, len(ids), PAGE):
        chunk = ids[start:start + PAGE]
        found = {r.pk: r for r in results.filter(pk__in=chunk).prefetch_related("places")}
        page = [found[pk] for pk in chunk]
        for result in page:
            if not rateable(result.places.all()) or chosen_unrated(result):
                continue  # left without a seq, as rating it would leave it; any change it has is reported
            result.rating_seq = replay.seen[result.game] = replay.seen.get(result.game, 0) + 1
            replay.report.differences.append(f"{result.game} match result {result.pk} is not rated: step "
                                             f"{result.rating_seq} when written")
            if write:
                results.filter(pk=result.pk).update(rating_seq=result.rating_seq)
        _fold(replay, page)


def _fold(replay: _Replay, page: list[Any]) -> None:
    """Take a page of results into the fold, in order, and compare their stored changes with what they give."""
    expected: dict[ChangeKey, tuple[str, Skill, Skill]] = {}
    for result in page:
        places = list(result.places.all())
        if not rateable(places) or chosen_unrated(result):
            continue
        replay.report.matches += 1
        before = {}
        for place in places:
            key = (result.game, player_key(place))
            before[key[1]] = replay.ratings[key][0] if key in replay.ratings else NEW_PLAYER
        for player, skill in update(places, before).items():
            key = (result.game, player)
            count = replay.ratings[key][1] if key in replay.ratings else 0
            replay.ratings[key] = (skill, count + 1, result.finished_at)
            expected[(result.pk, player)] = (result.game, before[player], skill)
    stored = {(c.result_id, _player(c.rating)): c for c in replay.models.RatingChange.objects.filter(
        result_id__in=[result.pk for result in page]).select_related("rating")}
    differences = replay.report.differences
    for key, (game, before, after) in expected.items():
        result_id, (kind, who) = key
        change = stored.get(key)
        if change is None:
            differences.append(f"match result {result_id}: no rating change of {kind} {who}")
        elif (change.mu_before, change.sigma_before, change.mu_after, change.sigma_after) != (
                before.mu, before.sigma, after.mu, after.sigma):
            differences.append(f"match result {result_id}: the change of {kind} {who} differs")
            replay.stored[key] = change
        else:
            continue
        replay.fix[key] = (game, before, after)
    for key in stored.keys() - expected.keys():
        result_id, (kind, who) = key
        differences.append(f"match result {result_id}: a rating change of {kind} {who} that the match does not give")
        replay.extra.append(stored[key].pk)


def _player(rating: Any) -> PlayerKey:
    return ("member", rating.user_id) if rating.user_id is not None else ("bot", rating.bot)


def _rating_key(rating: Any) -> RatingKey:
    return (rating.game, _player(rating))


def _name(key: RatingKey) -> str:
    game, (kind, who) = key
    return f"{game} rating of {kind} {who}"


def _rating_ids(models: Models) -> dict[RatingKey, int]:
    return {_rating_key(r): r.pk for r in models.Rating.objects.only("pk", "game", "user_id", "bot")}


def _compare_ratings(replay: _Replay) -> dict[RatingKey, Any]:
    """Every stored rating against the fold (under the locks: a rating moves with every match); the stored rows."""
    ratings = {_rating_key(r): r for r in replay.models.Rating.objects.all()}
    differences = replay.report.differences
    for key, (skill, count, _when) in replay.ratings.items():
        stored = ratings.get(key)
        if stored is None:
            differences.append(f"{_name(key)} is missing: mu {skill.mu!r}, sigma {skill.sigma!r}")
        elif (stored.mu, stored.sigma, stored.matches) != (skill.mu, skill.sigma, count):
            differences.append(
                f"{_name(key)}: stored mu {stored.mu!r}, sigma {stored.sigma!r}, {stored.matches} matches; "
                f"the matches give mu {skill.mu!r}, sigma {skill.sigma!r}, {count} matches")
    for key in ratings.keys() - replay.ratings.keys():
        differences.append(f"{_name(key)} comes from no recorded match")
    return ratings


def _write_ratings(replay: _Replay, ratings: dict[RatingKey, Any]) -> None:
    """Under the locks: every rating as the fold has it (missing ones made), ratings no match gives deleted."""
    rows = replay.models.Rating.objects
    rows.filter(pk__in=[ratings.pop(key).pk for key in ratings.keys() - replay.ratings.keys()]).delete()
    for key, (skill, count, when) in replay.ratings.items():
        game, (kind, who) = key
        rating = ratings.get(key)
        if rating is None:
            lookup = {"user_id": who} if kind == "member" else {"bot": who}
            rating = ratings[key] = rows.create(game=game, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, **lookup)
        rating.mu, rating.sigma, rating.matches, rating.updated_at = skill.mu, skill.sigma, count, when
    rows.bulk_update(list(ratings.values()), ["mu", "sigma", "matches", "updated_at"], batch_size=PAGE)


def _write_changes(replay: _Replay, rating_ids: dict[RatingKey, int]) -> None:
    """Put right the stored changes found to differ so far, in short transactions of `PAGE` rows.

    Outside the locks this touches only changes of results the replay has folded: no match being rated writes
    those. A missing change whose rating does not exist yet waits for the locked step, which makes the rating."""
    rows = replay.models.RatingChange.objects
    for start in range(0, len(replay.extra), PAGE):
        with transaction.atomic():
            rows.filter(pk__in=replay.extra[start:start + PAGE]).delete()
    touched, fresh = [], []
    for key, (game, before, after) in list(replay.fix.items()):
        result_id, player = key
        values = {"mu_before": before.mu, "sigma_before": before.sigma, "mu_after": after.mu,
                  "sigma_after": after.sigma}
        change = replay.stored.pop(key, None)
        if change is not None:
            for name, value in values.items():
                setattr(change, name, value)
            touched.append(change)
        elif (game, player) in rating_ids:
            fresh.append(replay.models.RatingChange(result_id=result_id, rating_id=rating_ids[(game, player)],
                                                    **values))
        else:
            continue
        del replay.fix[key]
    for start in range(0, max(len(touched), len(fresh)), PAGE):
        with transaction.atomic():
            rows.bulk_update(touched[start:start + PAGE], ["mu_before", "sigma_before", "mu_after", "sigma_after"])
            rows.bulk_create(fresh[start:start + PAGE])
    if replay.extra or touched or fresh:
        replay.report.written = True
    replay.extra = []
