"""Quick play's services: matching, order of seating, bands, bots after a wait, expiry and refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tables.models import QueueRequest, Seat, Table
from tables.play.services.errors import NotAllowed, TableError
from tables.play.services.play import Live
from tables.play.services.tables import create_table, join_table, leave_table
from tables.quickplay.services import matchmaking
from tables.quickplay.services.matchmaking import cancel, enqueue, sweep
from tests.tables.helpers import full_table

pytestmark = pytest.mark.django_db

W = QueueRequest.State


def seated(table: Table) -> list[str | None]:
    return [s.user.username if s.user else ("bot" if s.is_bot else None)
            for s in Seat.objects.filter(table=table).select_related("user").order_by("position")]


def test_the_request_that_completes_a_table_seats_everyone_in_the_order_they_asked(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    first = enqueue(user=alice, game="hawsker")
    assert first.state == W.WAITING and first.table is None
    assert Table.objects.count() == 0
    second = enqueue(user=bob, game="hawsker")
    assert second.state == W.MATCHED
    table = second.table
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    assert seated(table) == ["alice", "bob"]
    first.refresh_from_db()
    assert first.state == W.MATCHED and first.table == table and first.ended_at is not None
    assert table.options == {"short": False} and table.name == "alice's quick Hawsker table"


def test_many_requests_pair_off_first_come_first_seated(make_member) -> None:
    members = [make_member(f"m{i}") for i in range(7)]
    for member in members:
        enqueue(user=member, game="hawsker")
    tables = list(Table.objects.order_by("pk"))
    assert [seated(t) for t in tables] == [["m0", "m1"], ["m2", "m3"], ["m4", "m5"]]
    assert QueueRequest.objects.get(state=W.WAITING).user.username == "m6"


def test_a_table_forms_only_from_requests_that_fit_it(make_member) -> None:
    a, b, c, d, e = (make_member(n) for n in "abcde")
    enqueue(user=a, game="puskiyon", players=3, band="standard")
    enqueue(user=b, game="puskiyon", players=4, band="standard")
    enqueue(user=c, game="puskiyon", players=3, band="long")  # another target: no match with a
    enqueue(user=d, game="puskiyon", players=3, band="standard")
    assert Table.objects.count() == 0
    made = enqueue(user=e, game="puskiyon", players=3)  # no band given: any target, so a and d
    assert made.state == W.MATCHED
    assert seated(made.table) == ["a", "d", "e"]
    assert made.table.options["target"] == 200  # the standard band
    assert set(QueueRequest.objects.filter(state=W.WAITING).values_list("user__username", flat=True)) == {"b", "c"}


def test_any_player_count_takes_the_first_table_that_can_form(make_member) -> None:
    a, b, c, d = (make_member(n) for n in "abcd")
    enqueue(user=a, game="hawk", players=4)
    enqueue(user=b, game="hawk")  # any number
    enqueue(user=c, game="hawk", players=3)
    made = enqueue(user=d, game="hawk")
    # b, c and d can make three; a (who wants four) would need a fourth: the three sit down now.
    assert made.table.seat_count == 3
    assert seated(made.table) == ["b", "c", "d"]
    assert QueueRequest.objects.get(state=W.WAITING).user == a


def test_bands_and_house_rules_keep_tables_apart(make_member) -> None:
    a, b, c, d, e, f = (make_member(n) for n in "abcdef")
    enqueue(user=a, game="sheepshead", players=3, band="low")
    enqueue(user=b, game="sheepshead", players=3, band="high")
    enqueue(user=c, game="sheepshead", players=3, band="low", options={"rounds": 2})
    enqueue(user=d, game="sheepshead", players=3, band="low")
    assert Table.objects.count() == 0
    made = enqueue(user=e, game="sheepshead", players=3)  # any stake, default rules: a and d at low
    assert seated(made.table) == ["a", "d", "e"]
    assert made.table.options["stake_cents"] == 10
    assert made.table.options["rounds"] == 0
    enqueue(user=f, game="sheepshead", players=3, options={"rounds": 2})
    assert QueueRequest.objects.filter(state=W.WAITING).count() == 3


def test_cancelled_requests_are_never_seated_and_cancelling_twice_says_why(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    enqueue(user=alice, game="hawsker")
    cancelled = cancel(user=alice)
    assert cancelled.state == W.CANCELLED and cancelled.ended_at is not None
    with pytest.raises(TableError, match="not waiting"):
        cancel(user=alice)
    assert enqueue(user=bob, game="hawsker").state == W.WAITING
    made = enqueue(user=carol, game="hawsker")
    assert seated(made.table) == ["bob", "carol"]
    with pytest.raises(NotAllowed, match="Too late to cancel"):
        cancel(user=bob)
    assert not Seat.objects.filter(user=alice).exists()


def test_overdue_requests_expire_and_are_never_matched(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    old = enqueue(user=alice, game="hawsker")
    assert old.expires_at - old.created_at == matchmaking.EXPIRES_AFTER
    QueueRequest.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    fresh = enqueue(user=bob, game="hawsker")  # the enqueue sweeps the game first: alice is gone
    assert fresh.state == W.WAITING
    old.refresh_from_db()
    assert old.state == W.EXPIRED and old.ended_at is not None and old.table is None
    QueueRequest.objects.filter(pk=fresh.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert sweep().expired == [fresh.pk]
    assert sweep().expired == []


def test_an_overdue_request_does_not_keep_its_member_out_of_the_queue(make_member) -> None:
    alice = make_member("alice")
    old = enqueue(user=alice, game="hawk")
    QueueRequest.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    new = enqueue(user=alice, game="puskiyon")
    assert new.state == W.WAITING
    old.refresh_from_db()
    assert old.state == W.EXPIRED


def test_bots_take_the_empty_seats_only_after_the_wait_the_member_chose(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    mine = enqueue(user=alice, game="puskiyon", players=4, bots_after_seconds=30)
    enqueue(user=bob, game="puskiyon", players=4, bots_after_seconds=300)  # accepts bots, later
    enqueue(user=carol, game="puskiyon", players=4)  # members only
    assert sweep().tables == []
    later = timezone.now() + timedelta(seconds=31)
    [table] = sweep(now=later).tables
    assert seated(table) == ["alice", "bob", "bot", "bot"]
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    mine.refresh_from_db()
    assert mine.state == W.MATCHED and mine.with_bots and mine.table == table
    assert QueueRequest.objects.get(state=W.WAITING).user == carol
    assert sweep(now=later).tables == []


def test_bots_after_wait_with_any_count_and_band_uses_the_game_defaults(make_member) -> None:
    alice = make_member("alice")
    enqueue(user=alice, game="sheepshead", bots_after_seconds=10)
    [table] = sweep(game="sheepshead", now=timezone.now() + timedelta(seconds=11)).tables
    assert table.seat_count == 5 and table.options["stake_cents"] == 100
    assert seated(table) == ["alice", "bot", "bot", "bot", "bot"]


def test_one_queue_at_a_time(make_member) -> None:
    alice = make_member("alice")
    enqueue(user=alice, game="hawk", players=4)
    with pytest.raises(NotAllowed, match="waiting in quick play for Hawk"):
        enqueue(user=alice, game="puskiyon")
    assert QueueRequest.objects.filter(user=alice).count() == 1


def test_the_database_itself_refuses_a_second_waiting_request(make_member) -> None:
    alice = make_member("alice")
    enqueue(user=alice, game="hawk", players=4)
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        QueueRequest.objects.create(user=alice, game="puskiyon", expires_at=now)
    QueueRequest.objects.create(user=alice, game="puskiyon", expires_at=now, state=W.CANCELLED)


def test_one_running_table_at_a_time(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = full_table("hawsker", [alice, bob])
    with pytest.raises(NotAllowed, match="already playing at alice's Hawsker table;"):
        enqueue(user=alice, game="hawk")
    with pytest.raises(NotAllowed, match="already playing"):
        create_table(creator=alice, game="hawk", players=4)
    other = create_table(creator=carol, game="hawk", players=4)
    with pytest.raises(NotAllowed, match="already playing"):
        join_table(table_id=other.pk, user=bob)
    assert QueueRequest.objects.count() == 0
    assert Table.objects.count() == 2
    # Having left (the bot plays the seat), a member is free again, but cannot take the seat back
    # while playing elsewhere.
    leave_table(table_id=table.pk, user=alice)
    elsewhere = join_table(table_id=other.pk, user=alice)
    assert elsewhere.table_id == other.pk
    for seat in range(2):
        join_table(table_id=other.pk, user=make_member(f"x{seat}"))
    with pytest.raises(NotAllowed, match="already playing"):
        join_table(table_id=table.pk, user=alice)


def test_waiting_members_cannot_sit_down_elsewhere_and_seated_members_cannot_queue(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    open_table = create_table(creator=bob, game="hawk", players=4)
    enqueue(user=alice, game="hawsker")
    with pytest.raises(NotAllowed, match="cancel that request first"):
        join_table(table_id=open_table.pk, user=alice)
    with pytest.raises(NotAllowed, match="cancel that request first"):
        create_table(creator=alice, game="hawk", players=4)
    with pytest.raises(NotAllowed, match="seat at bob's Hawk table, which is still open"):
        enqueue(user=bob, game="hawsker")
    cancel(user=alice)
    join_table(table_id=open_table.pk, user=alice)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "poker"}, "no game"),
    ({"game": "hawk", "players": 9}, "2 to 6 players"),
    ({"game": "hawk", "players": "4"}, "2 to 6 players"),
    ({"game": "hawsker", "players": 3}, "2 to 2 players"),
    ({"game": "hawk", "band": "high"}, "no stake or target"),
    ({"game": "puskiyon", "band": "forever"}, "no band"),
    ({"game": "sheepshead", "options": {"stake_cents": 5}}, "with the band"),
    ({"game": "sheepshead", "options": {"partner": "the queen"}}, "not one of"),
    ({"game": "hawk", "options": {"colour": "red"}}, "no option"),
    ({"game": "hawk", "bots_after_seconds": 3}, "10 to 540 seconds"),
    ({"game": "hawk", "bots_after_seconds": 3600}, "10 to 540 seconds"),
])
def test_nonsense_requests_are_refused_and_change_nothing(member, kwargs, message) -> None:
    with pytest.raises(TableError, match=message):
        enqueue(user=member, **kwargs)
    assert QueueRequest.objects.count() == 0


def test_hawsker_any_count_is_its_one_count(make_member) -> None:
    request = enqueue(user=make_member("alice"), game="hawsker", players=None)
    assert request.players == 2


def test_find_group_prefers_the_earliest_complete_table_then_the_larger(make_member) -> None:
    spec = matchmaking.registry.spec("puskiyon")
    people = [make_member(f"p{i}") for i in range(3)]
    now = timezone.now()
    waiting = [QueueRequest(user=p, game="puskiyon", players=None, band="", options={}, created_at=now,
                            expires_at=now, pk=i + 1) for i, p in enumerate(people)]
    kind, group = matchmaking.find_group(spec, waiting)
    assert (kind.players, kind.band) == (2, "standard")  # two can play at once; the default band first
    assert [r.pk for r in group] == [1, 2]
    waiting[1].players = 3
    kind, group = matchmaking.find_group(spec, waiting)
    assert kind.players == 3 and [r.pk for r in group] == [1, 2, 3]


def test_quick_plays_tables_have_normal_bots(make_member) -> None:
    """Quick play asks for the club's usual bots (the table clock decides their moves, never a request)."""
    alice = make_member("alice")
    enqueue(user=alice, game="hawk", players=4, bots_after_seconds=10)
    [table] = sweep(game="hawk", now=timezone.now() + timedelta(seconds=11)).tables
    table.refresh_from_db()
    assert table.bot_level == Table.BotLevel.NORMAL
    live = Live.load(table)
    assert [live.level_of(seat) for seat in range(4)] == ["normal"] * 4
    assert all(live.searches(seat) for seat in range(1, 4))
