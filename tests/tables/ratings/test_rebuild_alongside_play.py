"""`rebuild_ratings` runs beside play: a match that ends while the rebuild replays is rated at once, not after it.

The rebuild's replay is held still (its fold waits on an event) while another thread records and rates a match of
the same game, as the ledger does when a clock step ends a match. That match's transaction must commit while the
replay is still held; then the rebuild finishes, and the stored ratings are exactly a full replay's: the new match
taken in once, in its order, nothing lost and nothing rated twice. Threads share the database, so these tests
commit for real (on SQLite, and on PostgreSQL with DATABASE_URL).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.models import F

from tables.models import MatchResult, Rating, RatingChange
from tables.ratings.services import rebuild
from tables.ratings.services.rebuild import Rebuilt, rebuild_ratings
from tests.tables.ratings.factories import days_ago, record_match

pytestmark = pytest.mark.django_db(transaction=True)

HANG = 60  # seconds: only a guard against a test that would hang; nothing here is timed


class Background(threading.Thread):
    """Runs `work` on a thread of its own (its own connection, closed after), keeping its result or its error."""

    def __init__(self, work: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.work, self.result, self.error = work, None, None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            self.result = self.work()
        except BaseException as error:  # the test reports it
            self.error = error
        finally:
            connection.close()
            self.done.set()


@pytest.fixture
def held_replay(monkeypatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The rebuild's fold, stopped at its first match until `release` is set: (`replaying`, `release`)."""
    replaying, release = threading.Event(), threading.Event()
    fold = rebuild.update

    def held(*args: Any, **kwargs: Any) -> Any:
        replaying.set()
        release.wait(HANG)
        return fold(*args, **kwargs)

    monkeypatch.setattr(rebuild, "update", held)
    yield replaying, release
    release.set()


def played(members: list, n: int) -> None:
    for i in range(n):
        game = "hawsker" if i % 3 else "hawk"
        seats = members[:2] if game == "hawsker" else [*members[:3], "easy"]
        record_match(game, seats, [(i * 7 + seat * 3) % 5 for seat in range(len(seats))], finished_at=days_ago(30 - i))


def test_a_match_ending_during_the_replay_is_rated_at_once_and_the_rebuild_takes_it_in(
        make_member, held_replay) -> None:
    replaying, release = held_replay
    ann, bob, cid = (make_member(name) for name in ("ann", "bob", "cid"))
    played([ann, bob, cid], 12)
    rebuilding = Background(lambda: rebuild_ratings(write=True))
    rebuilding.start()
    assert replaying.wait(HANG), rebuilding.error
    ending = Background(lambda: record_match("hawsker", [bob, ann], [9, 1]))
    ending.start()
    rated_during_the_replay = ending.done.wait(HANG)
    release.set()
    ending.join(HANG)
    rebuilding.join(HANG)
    assert rated_during_the_replay, "the match waited for the rebuild"
    assert ending.error is None and rebuilding.error is None, (ending.error, rebuilding.error)
    assert isinstance(rebuilding.result, Rebuilt) and rebuilding.result.matches == 13
    late = ending.result
    late.refresh_from_db()
    assert late.rating_seq == 9  # after the eight hawsker matches before it
    assert RatingChange.objects.filter(result=late).count() == 2
    assert MatchResult.objects.filter(rating_seq__isnull=False).count() == 13
    assert rebuild_ratings(write=False).differences == []


def test_tampered_rows_are_restored_while_matches_end_during_the_replay(make_member, held_replay) -> None:
    """The matches that end meanwhile are rated from the tampered rating (the stored one); the rebuild puts right
    the tampered rows and what those matches did with them, and every match is taken in once, in its order."""
    replaying, release = held_replay
    ann, bob, cid = (make_member(name) for name in ("ann", "bob", "cid"))
    played([ann, bob, cid], 6)
    first = RatingChange.objects.order_by("result__finished_at", "pk").first()
    RatingChange.objects.filter(pk=first.pk).update(mu_after=first.mu_after + 1.0)
    Rating.objects.filter(game="hawk", user=cid).update(mu=F("mu") - 2.0)
    rebuilding = Background(lambda: rebuild_ratings(write=True))
    rebuilding.start()
    assert replaying.wait(HANG), rebuilding.error
    endings = [Background(lambda i=i: record_match("hawk", [cid, ann, bob, "strong"], [i, 2, 3, 4])) for i in range(3)]
    for ending in endings:
        ending.start()
        assert ending.done.wait(HANG), "the match waited for the rebuild"
    release.set()
    rebuilding.join(HANG)
    assert rebuilding.error is None and all(e.error is None for e in endings), rebuilding.error
    differences = rebuilding.result.differences
    assert rebuilding.result.written and rebuilding.result.matches == 9
    assert f"match result {first.result_id}: the change of member {first.rating.user_id} differs" in differences
    assert any(line.startswith(f"hawk rating of member {cid.pk}: stored mu") for line in differences)
    hawk = MatchResult.objects.filter(game="hawk").order_by("rating_seq")
    assert list(hawk.values_list("rating_seq", flat=True)) == [1, 2, 3, 4, 5]
    assert [RatingChange.objects.filter(result=result).count() for result in hawk] == [4] * 5
    assert rebuild_ratings(write=False).differences == []


@pytest.mark.parametrize("many", [False, True], ids=["few", "many"])
def test_matches_that_arrive_after_the_replay_are_taken_in_under_the_lock_after_a_bounded_number_of_tries(
        make_member, monkeypatch, many: bool) -> None:
    """A match ends each time the replay outside the locks is done. Few arrivals: the rebuild folds them under the
    lock at once. More than it folds under the lock (`CATCH_UP` 0 here): it goes back to fold them outside, a bounded
    number of times, and the last time folds them under the lock all the same."""
    ann, bob = make_member("ann"), make_member("bob")
    played([ann, bob, make_member("cid")], 3)
    tries = rebuild.TRIES if many else 1
    if many:
        monkeypatch.setattr(rebuild, "CATCH_UP", 0)
    fold, lock = rebuild._fold_rated, rebuild._lock_games
    arrived, locked = [], []

    def busy_club(replay: Any) -> None:
        fold(replay)
        if not connection.in_atomic_block:  # the replay outside the locks: a match ends right after it
            arriving = Background(lambda: record_match("hawsker", [ann, bob], [len(arrived), 2]))
            arriving.start()
            arriving.join(HANG)
            assert arriving.error is None, arriving.error
            arrived.append(arriving.result)

    def counted(models: Any) -> list[str]:
        locked.append(models)
        return lock(models)

    monkeypatch.setattr(rebuild, "_fold_rated", busy_club)
    monkeypatch.setattr(rebuild, "_lock_games", counted)
    done = rebuild_ratings(write=True)
    assert len(locked) == len(arrived) == tries
    assert done.matches == 3 + tries and done.differences == []
    assert list(MatchResult.objects.filter(game="hawsker").order_by("rating_seq").values_list(
        "rating_seq", flat=True)) == list(range(1, 3 + tries))
    assert rebuild_ratings(write=False).differences == []
