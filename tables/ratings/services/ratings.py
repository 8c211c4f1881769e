"""Rating a match: OpenSkill's Plackett-Luce model over the match's places, each seat a team of one.

Why it is built this way:
- A match is rated in the transaction that records its result (the ledger's `match_recorded` signal), so a
  result and its rating changes commit or roll back together, and no result is ever rated twice or missed.
- The ratings of a game are a fold over its matches in one order. Each rated result gets the next
  `rating_seq` of its game, taken under the game's lock (PostgreSQL: `pg_advisory_xact_lock`; SQLite's
  IMMEDIATE transaction already holds the one write lock), so concurrent matches are taken in one total
  order, and `rebuild_ratings` replays exactly that order.
- The update itself (`update`) is a pure function of the places and the ratings before, shared by
  `rate_match` and the rebuild: the same floats in, the same operations in the same order, the same floats
  out. That is what lets the rebuild compare with `==`.
- Bots are rated, one rating per game and bot level ("easy", "normal", "strong": the level each bot seat played
  at, recorded on its place), so beating the strong bot and beating the easy one are told apart and a member's
  rating against bots means something. A level holding several seats of one match is one player: every seat
  is rated from the level's rating before the match (as if copies of one skill sat there), and its new mu and
  sigma are the means of its seats' new values. Applying the seats one after another would count the match
  several times and make the result depend on seat order; the mean is order-free, takes each seat as an equal
  observation, and moves the level as far as one seat would if its seats did alike.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from openskill.models import PlackettLuce

from tables.models import MatchPlace, MatchResult, Rating, RatingChange, TournamentTable

_LOCK_NAMESPACE = 0x5A7E  # the first key of pg_advisory_xact_lock(int, int); the second is the game's
MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

PlayerKey = tuple[str, int | str]  # ("member", user id) or ("bot", the bot's level)


class RatingError(Exception):
    """A result that cannot be rated as asked (already rated, or not a result of a game to rate)."""


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


NEW_PLAYER = Skill(DEFAULT_MU, DEFAULT_SIGMA)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to members: the skill we are fairly sure the player has at least."""
    return mu - 3 * sigma


def provisional(matches: int) -> bool:
    return matches < settings.RATING_PROVISIONAL_MATCHES


def player_key(place: MatchPlace) -> PlayerKey:
    return ("member", place.user_id) if place.user_id is not None else ("bot", place.bot)


def update(places: Sequence[MatchPlace], before: dict[PlayerKey, Skill]) -> dict[PlayerKey, Skill]:
    """Each player's skill after the match: seats in seat order, ranks = places (a shared place is a tie).

    `before` holds every player of the match (new players at `NEW_PLAYER`). A player with several seats (a bot
    level) gets the mean of its seats' new values (see the module's docstring)."""
    seats = sorted(places, key=lambda p: p.seat)
    keys = [player_key(p) for p in seats]
    teams = [[MODEL.rating(mu=before[k].mu, sigma=before[k].sigma)] for k in keys]
    rated = MODEL.rate(teams, ranks=[float(p.place) for p in seats])
    after: dict[PlayerKey, list[Skill]] = {}
    for key, (new,) in zip(keys, rated, strict=True):
        after.setdefault(key, []).append(Skill(new.mu, new.sigma))
    return {key: _mean(skills) for key, skills in after.items()}


def _mean(skills: list[Skill]) -> Skill:
    if len(skills) == 1:
        return skills[0]
    return Skill(sum(s.mu for s in skills) / len(skills), sum(s.sigma for s in skills) / len(skills))


def rateable(places: Iterable[MatchPlace]) -> bool:
    """OpenSkill ranks two or more players; a match with fewer (one member beside nobody) says nothing."""
    return len({player_key(p) for p in places}) >= 2


def chosen_unrated(result: Any) -> bool:
    """Whether the match was played at a tournament table whose organiser chose an unrated tournament (issue 45):
    such a match is recorded like any other but moves nobody's rating. A migration's historical models (the
    rebuild run inside a migration, from before tournaments existed) have no tournaments to ask."""
    if not isinstance(result, MatchResult):
        return False
    return TournamentTable.objects.filter(table_id=result.table_id, round__tournament__rated=False).exists()


def lock_game(game: str) -> None:
    """Serialise the ratings of one game until the transaction ends (see the module's docstring)."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(game.encode()) & 0x7FFFFFFF
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, key])


def next_seq(game: str) -> int:
    last = MatchResult.objects.filter(game=game).aggregate(last=Max("rating_seq"))["last"]
    return (last or 0) + 1


def rate_match(*, result: MatchResult) -> list[RatingChange]:
    """Rate a recorded match: give it its game's next `rating_seq`, move its players' ratings, keep the changes.

    Returns the changes, one per player (a bot with several seats has one). A match with fewer than two
    players is left unrated (no seq, no changes). Rating a result twice is refused."""
    with transaction.atomic():
        lock_game(result.game)
        fresh = MatchResult.objects.select_for_update().get(pk=result.pk)
        if fresh.rating_seq is not None or fresh.rating_changes.exists():
            raise RatingError(f"match result {result.pk} is already rated (step {fresh.rating_seq})")
        places = list(fresh.places.all())
        if not rateable(places) or chosen_unrated(fresh):
            return []
        result.rating_seq = fresh.rating_seq = next_seq(result.game)
        MatchResult.objects.filter(pk=result.pk).update(rating_seq=result.rating_seq)
        ratings = _ratings_for(result.game, places)
        before = {key: Skill(r.mu, r.sigma) for key, r in ratings.items()}
        after = update(places, before)
        changes = []
        for key, skill in after.items():
            rating = ratings[key]
            changes.append(RatingChange(result=fresh, rating=rating, mu_before=rating.mu, sigma_before=rating.sigma,
                                        mu_after=skill.mu, sigma_after=skill.sigma))
            rating.mu, rating.sigma = skill.mu, skill.sigma
            rating.matches += 1
            rating.updated_at = result.finished_at
            rating.save(update_fields=["mu", "sigma", "matches", "updated_at"])
        return RatingChange.objects.bulk_create(changes)


def _ratings_for(game: str, places: Sequence[MatchPlace]) -> dict[PlayerKey, Rating]:
    """The players' ratings in the game, locked; a new player's is made at the model's defaults."""
    found: dict[PlayerKey, Rating] = {}
    for key in dict.fromkeys(player_key(p) for p in sorted(places, key=lambda p: p.seat)):
        kind, who = key
        lookup = {"user_id": who} if kind == "member" else {"bot": who}
        rating = Rating.objects.select_for_update().filter(game=game, **lookup).first()
        if rating is None:
            rating = Rating.objects.create(game=game, mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, matches=0, **lookup)
        found[key] = rating
    return found
