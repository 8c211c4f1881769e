"""The backstops that catch what the first line of defence lets through, each tested on its own:
the conditional seat update when a seat is taken between the read and the write, pushes that leave only
after commit, a stale move refused even when it would still be legal, and shared snapshots that one
release never reads from another."""

from __future__ import annotations

import io
import pickle
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tables.models import Move, Seat, Table
from tables.play import push, snapshots
from tables.play.services import play
from tables.play.services import tables as table_services
from tables.play.services.errors import StaleVersion, TableError, TableFull
from tables.play.services.tables import create_table, join_table
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act


def table_rows(table: Table) -> tuple:
    """Everything a refused call must leave as it was."""
    table.refresh_from_db()
    rnd = current_round(table)
    return (
        table.version, table.status,
        list(Seat.objects.filter(table=table).order_by("position").values_list("user_id", "is_bot", "joined_at")),
        Move.objects.filter(round__match__table=table).count(),
        rnd.state if rnd else None,
    )


# Shared snapshots and releases.


class _ClassRecorder(pickle.Pickler):
    """Pickles as usual and notes the class of everything it pickles."""

    def __init__(self, file: Any) -> None:
        super().__init__(file)
        self.classes: set[type] = set()

    def reducer_override(self, obj: Any) -> Any:
        self.classes.add(obj if isinstance(obj, type) else type(obj))
        return NotImplemented


@pytest.mark.django_db(transaction=True)
def test_two_releases_never_read_each_others_shared_snapshots(make_member, settings, monkeypatch) -> None:
    """In a rolling deploy old and new processes share one Redis: a snapshot pickled by one release must
    never be unpickled by another (its classes may differ), so the release is part of the key."""
    settings.TABLE_SNAPSHOTS_SHARED = True  # the local-memory cache pickles too: it stands in for Redis
    monkeypatch.setattr(snapshots, "RELEASE", "old-release")
    table = full_table("hawsker", [make_member("alice"), make_member("bob")])
    key = (table.code, table.version)

    snapshots.forget_here()  # as if asked in another process of the same release: read from the shared cache
    assert snapshots.recall(*key) is not None

    snapshots.forget_here()
    monkeypatch.setattr(snapshots, "RELEASE", "new-release")  # a process of the next release
    assert snapshots.recall(*key) is None
    assert snapshots.recall_here(*key) is None
    monkeypatch.setattr(snapshots, "RELEASE", "old-release")
    assert snapshots.recall(*key) is not None  # still there for the old release's processes


@pytest.mark.django_db(transaction=True)
def test_the_release_covers_the_source_of_every_class_a_snapshot_pickles(make_member) -> None:
    """Every class of this project that a real snapshot pickles (engine states, models, the snapshot itself)
    is defined in a file whose source goes into the release; third-party classes change only with their
    package's version, which is in it too."""
    table = full_table("sheepshead", [make_member(f"m{i}") for i in range(5)])
    snapshot = snapshots.recall(table.code, table.version)
    assert snapshot is not None and snapshot.state is not None
    recorder = _ClassRecorder(io.BytesIO())
    recorder.dump(snapshot)
    ours = {cls for cls in recorder.classes if cls.__module__.split(".")[0] in {"accounts", "tables", "rules"}}
    assert {"TableSnapshot", "Table", "Seat", "User", "State"} <= {cls.__name__ for cls in ours}
    hashed = set(snapshots.RELEASE_SOURCES)
    for cls in ours:
        assert Path(sys.modules[cls.__module__].__file__).resolve() in hashed, f"{cls} is pickled but not hashed"
    assert isinstance(snapshots.RELEASE, str) and len(snapshots.RELEASE) >= 12


# The seat race: the conditional update is what stops a second member taking a seat already taken.


@pytest.mark.django_db
@pytest.mark.parametrize(("position", "message"), [(None, "This table is full."), (1, "That seat is taken.")])
def test_a_seat_taken_between_the_read_and_the_write_is_refused_and_nothing_is_written(
        make_member, monkeypatch, position, message) -> None:
    """On SQLite nothing but the conditional `UPDATE ... WHERE user IS NULL` and its row count stands between
    two joiners once both have read the seat as free: here the other member's join lands exactly between
    this one's read of the free seats and its write (when it asks the time for `joined_at`)."""
    owner, late, quick = make_member("owner"), make_member("late"), make_member("quick")
    table = create_table(creator=owner, game="hawsker", players=2)
    before = table_rows(table)
    taken: list[int] = []

    def now() -> Any:
        if not taken:
            taken.append(Seat.objects.filter(table=table, position=1, user__isnull=True).update(user=quick))
        return timezone.now()

    monkeypatch.setattr(table_services, "timezone", SimpleNamespace(now=now))
    with pytest.raises(TableFull) as refused:
        join_table(table_id=table.pk, user=late, position=position)
    assert isinstance(refused.value, TableError) and str(refused.value) == message
    assert taken == [1]  # the other member really got the seat after this join had read it as free
    assert table_rows(table) == before  # no seat, no version, no match: the whole transaction is gone
    assert not Seat.objects.filter(user=late).exists()


# Pushes: only what commits is announced, and only once the outermost block has committed.


class _Layer:
    """Stands in for the channel layer: notes each group message and whether a transaction was still open."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.sent_inside_a_transaction = False

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))
        self.sent_inside_a_transaction |= transaction.get_connection().in_atomic_block


@pytest.fixture
def layer(monkeypatch) -> _Layer:
    recorder = _Layer()
    monkeypatch.setattr(push, "get_channel_layer", lambda: recorder)
    return recorder


@pytest.mark.django_db(transaction=True)
def test_a_service_that_fails_after_queueing_a_push_sends_nothing(make_member, monkeypatch, layer) -> None:
    owner, joiner = make_member("owner"), make_member("joiner")
    table = create_table(creator=owner, game="hawk", players=4)
    layer.sent.clear()
    before = table_rows(table)
    seat_filled = table_services._seat_filled
    queued: list[int] = []

    def fill_then_fail(filled: Table) -> None:
        seat_filled(filled)  # bumps the version and queues table.changed and lobby.changed
        queued.append(len(transaction.get_connection().run_on_commit))
        raise RuntimeError("the database went away after the push was queued")

    monkeypatch.setattr(table_services, "_seat_filled", fill_then_fail)
    with pytest.raises(RuntimeError):
        join_table(table_id=table.pk, user=joiner)
    assert layer.sent == []
    assert queued and queued[0] >= 2  # the failure came after both pushes were queued
    assert table_rows(table) == before


@pytest.mark.django_db(transaction=True)
def test_a_push_leaves_only_when_the_outermost_block_commits_and_only_once(make_member, layer) -> None:
    owner, joiner, third = make_member("owner"), make_member("joiner"), make_member("third")
    table = create_table(creator=owner, game="hawk", players=4)
    layer.sent.clear()

    with transaction.atomic():
        join_table(table_id=table.pk, user=joiner)  # the service's own block ends here, inside the outer one
        assert layer.sent == []
    table.refresh_from_db()
    assert layer.sent == [(push.table_group(table.pk), {"type": "table.changed", "version": table.version}),
                          (push.LOBBY_GROUP, {"type": "lobby.changed"})]

    layer.sent.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        join_table(table_id=table.pk, user=third)
        raise RuntimeError("the caller's transaction rolls back after the service succeeded")
    assert layer.sent == []
    assert not Seat.objects.filter(user=third).exists()
    assert not layer.sent_inside_a_transaction


# Versions: a move made against an older version is refused even when it would still be legal now.


@pytest.mark.django_db
def test_a_stale_move_that_would_still_be_legal_is_refused_and_changes_nothing(make_member, client) -> None:
    """The picker buries one card at a time: a second bury sent with the version from before the first one
    is still a legal move at the new version, and is refused all the same (a late or replayed request)."""
    members = [make_member(f"m{i}") for i in range(5)]
    table = full_table("sheepshead", members)
    picker = seat_to_act(table)
    assert "pick" in legal_for(table, picker)
    play.play_move(table_id=table.pk, user=members[picker], move_text="pick", expected_version=table.version)
    table.refresh_from_db()
    looked_at = table.version
    first, second = legal_for(table, picker)[:2]
    assert first.startswith("bury ") and second.startswith("bury ")
    play.play_move(table_id=table.pk, user=members[picker], move_text=first, expected_version=looked_at)
    assert seat_to_act(table) == picker and second in legal_for(table, picker)  # still legal now
    before = table_rows(table)

    with pytest.raises(StaleVersion):
        play.play_move(table_id=table.pk, user=members[picker], move_text=second, expected_version=looked_at)
    assert table_rows(table) == before

    client.force_login(members[picker])
    response = client.post(reverse("move", args=[table.code]), {"move": second, "version": str(looked_at)},
                           headers={"HX-Request": "true"})
    assert response.status_code == StaleVersion.status
    assert "moved on" in response.content.decode()
    assert table_rows(table) == before
