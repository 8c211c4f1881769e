"""Migration 0019: recorded "bot" places take the level their seat played at, and the ratings are rebuilt from them,
so the database it leaves is one `rebuild_ratings` finds nothing to change in; going back restores the old ratings
exactly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tables.models import MatchPlace, Rating
from tables.ratings.services.rebuild import Models, rebuild_ratings
from tests.migrations import latest_schema_after, migrate  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0018_in_person_summaries_as_sentences"), ("accounts", "0005_display_name_verbose_name")]
AFTER = [("tables", "0019_bot_levels_rated_apart")]


def ratings_of(apps) -> list[tuple]:
    rating = apps.get_model("tables", "Rating")
    return sorted(rating.objects.values_list("game", "user__username", "bot", "mu", "sigma", "matches"),
                  key=lambda row: (row[0], row[1] or "", row[2]))


def recorded_club(apps) -> None:
    """Three ended matches as 0017 recorded them (every bot "bot"), rated as 0017 rated them."""
    User = apps.get_model("accounts", "User")
    Table, Seat, Match = (apps.get_model("tables", name) for name in ("Table", "Seat", "Match"))
    MatchResult, MatchPlace = apps.get_model("tables", "MatchResult"), apps.get_model("tables", "MatchPlace")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")

    def ended(code: str, game: str, level: str, day: int, seats: list, totals: list[int], *, keep_seats: bool = True):
        table = Table.objects.create(code=code, game=game, seat_count=len(seats), status="finished", bot_level=level)
        for position, who in enumerate(seats):
            if keep_seats:
                member = who if isinstance(who, User) else None
                Seat.objects.create(table=table, position=position, user=member, is_bot=member is None,
                                    bot_level=who if who == "strong" else "")  # a seat's own level, or the table's
        match = Match.objects.create(table=table, config={}, seed="s", state={}, over=True)
        result = MatchResult.objects.create(match=match, table=table, game=game, unit="points", ending="played",
                                            rounds=1, finished_at=datetime(2026, 11, day, 20, tzinfo=UTC))
        best = max(totals)
        for position, (who, total) in enumerate(zip(seats, totals, strict=True)):
            member = who if isinstance(who, User) else None
            MatchPlace.objects.create(result=result, seat=position, user=member, bot="" if member else "bot",
                                      total=total, place=1 + sum(t > total for t in totals), won=total == best)

    # Before bot levels: an easy table (0017 made every older table easy), three bot seats.
    ended("old1", "hawk", "easy", 1, [ann, "bot", "bot", "bot"], [30, 10, 20, 0])
    # Since: a normal table with a strong seat of its own, Ben first and Ann last.
    ended("new1", "hawk", "normal", 2, [ben, "strong", "bot", ann], [40, 30, 20, 10])
    # A strong table whose seats are gone: its level says what its bot played at.
    ended("new2", "hawsker", "strong", 3, [ann, "bot"], [1, 9], keep_seats=False)
    rebuild_ratings(write=True, models=Models.of(apps))


def test_bot_places_take_their_seat_s_level_and_the_ratings_are_rebuilt_from_them() -> None:
    apps = migrate(BEFORE)
    recorded_club(apps)
    old = ratings_of(apps)
    assert {row[2] for row in old if row[1] is None} == {"bot"}  # one bot per game

    apps = migrate(AFTER)
    places = {(code, seat): bot for code, seat, bot in MatchPlace.objects.filter(user__isnull=True).values_list(
        "result__table__code", "seat", "bot")}
    assert places == {("old1", 1): "easy", ("old1", 2): "easy", ("old1", 3): "easy",
                      ("new1", 1): "strong", ("new1", 2): "normal", ("new2", 1): "strong"}
    bots = {(game, bot): matches for game, bot, matches in Rating.objects.filter(user__isnull=True).values_list(
        "game", "bot", "matches")}
    assert bots == {("hawk", "easy"): 1, ("hawk", "strong"): 1, ("hawk", "normal"): 1, ("hawsker", "strong"): 1}
    # exactly what the matches now say (read with the models of that schema: the live ones are of a later one)
    assert rebuild_ratings(write=False, models=Models.of(apps)).differences == []
    new = ratings_of(apps)
    ann_old = next(row for row in old if row[:2] == ("hawk", "ann"))
    ann_new = next(row for row in new if row[:2] == ("hawk", "ann"))
    assert ann_new[5] == ann_old[5] == 2 and ann_new[3] != ann_old[3]  # her opponents changed, so her rating did

    apps = migrate(BEFORE)  # back: one "bot" again, and the ratings exactly as 0017 had them
    assert set(apps.get_model("tables", "MatchPlace").objects.filter(user__isnull=True).values_list(
        "bot", flat=True)) == {"bot"}
    assert ratings_of(apps) == old
