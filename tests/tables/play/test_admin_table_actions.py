"""What staff may do to a table from the admin: nothing by editing, close it or void its round by an action.

Editing a running table's game, status, seats or options broke it (every move then failed), so tables,
seats, matches, rounds and moves are read-only records in the admin. Closing a table and voiding a
round go through services under the table's lock, ask for a reason, and are recorded (who, when, why).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.models import LedgerEntry, Round, Seat, Table
from tables.play import push
from tables.play.services import play
from tables.play.services.admin_actions import close_table, void_round
from tables.play.services.errors import NotAllowed, TableError
from tables.play.services.tables import create_table, ensure_free_to_sit
from tests.tables.helpers import current_round, full_table
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

REASON = "The server fell over mid-hand; nobody can move."


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def boss(make_member) -> User:
    return make_member("boss", is_staff=True, is_superuser=True)


@pytest.fixture
def running(make_member) -> tuple[Table, User, User]:
    """A running Sheepshead table: Ann and Ben with three bots, the first round under way."""
    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    table = full_table("sheepshead", [ann, ben], bots=3)
    assert table.status == Table.Status.RUNNING and not current_round(table).over
    return table, ann, ben


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict[str, Any]]]:
    """Every message that really leaves for the channel layer (pushes go out only after commit)."""
    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(push, "_send_all", lambda batch: messages.extend(batch))
    return messages


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def snapshot(table: Table) -> tuple[Any, ...]:
    table.refresh_from_db()
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list("user_id", "is_bot", "away"))
    rnd = current_round(table)
    return (table.game, table.status, table.seat_count, table.options, table.name, table.version, seats,
            rnd.pk if rnd else None, rnd.over if rnd else None, rnd.moves_made if rnd else None)


def close_post(table: Table, **extra: Any) -> dict[str, Any]:
    return {"action": "close_tables", "_selected_action": [str(table.pk)], **extra}


# Read-only records ----------------------------------------------------------------------------------


def test_a_staff_post_to_the_table_change_page_changes_nothing(boss, running) -> None:
    table, _ann, _ben = running
    before = snapshot(table)
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    data = {
        "game": "hawk", "name": "renamed", "seat_count": "4", "options": "{}", "turn_seconds": "60",
        "status": Table.Status.OPEN, "created_by": "", "private": "on",
        "seats-TOTAL_FORMS": str(len(seats)), "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
        **{f"seats-{i}-id": str(seat.pk) for i, seat in enumerate(seats)},
        **{f"seats-{i}-table": str(table.pk) for i, seat in enumerate(seats)},
    }
    client = client_for(boss)
    url = reverse("admin:tables_table_change", args=[table.pk])
    response = client.post(url, data)
    assert response.status_code == 403
    assert snapshot(table) == before
    page = client.get(url)
    assert page.status_code == 200 and table.code in page.content.decode()
    html = page.content.decode()
    assert 'name="game"' not in html and 'name="status"' not in html and 'name="seats-0-user"' not in html
    assert client.get(reverse("admin:tables_table_add")).status_code == 403
    assert client.get(reverse("admin:tables_table_delete", args=[table.pk])).status_code == 403
    assert client.post(reverse("admin:tables_table_delete", args=[table.pk]), {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=table.pk).exists()


# Closing a table ------------------------------------------------------------------------------------


def test_the_close_action_asks_for_a_reason_then_ends_the_table_and_records_it(
        boss, running, sent, django_capture_on_commit_callbacks) -> None:
    table, ann, ben = running
    client = client_for(boss)
    url = reverse("admin:tables_table_changelist")
    before = snapshot(table)
    confirm = client.post(url, close_post(table))
    assert confirm.status_code == 200
    page = confirm.content.decode()
    assert 'name="reason"' in page and table.code in page and "Close" in page
    assert snapshot(table) == before  # asking changes nothing

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        done = client.post(url, close_post(table, post="yes", reason=REASON))
    assert done.status_code == 302
    assert not sent  # nothing announced before the commit
    for callback in callbacks:
        callback()

    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and table.finished_at is not None
    assert table.closed_by == boss and table.close_reason == REASON
    assert table.version > before[5]
    assert (push.table_group(table.pk), {"type": "table.changed", "version": table.version}) in sent
    voided = Round.objects.get(match__table=table, number=1)
    assert voided.over and voided.voided_by == boss and voided.void_reason == REASON and voided.voided_at
    assert voided.result is None and voided.deadline is None
    assert not LedgerEntry.objects.filter(round__match__table=table).exists()
    table.match.refresh_from_db()
    assert table.match.over
    for member in (ann, ben):  # the seats are free: they may sit elsewhere
        ensure_free_to_sit(member)
        create_table(creator=member, game="hawsker", players=2)
    with pytest.raises(TableError):
        play.play_move(table_id=table.pk, user=ann, move_text="pass", expected_version=table.version)
    entry = LogEntry.objects.get(object_id=str(table.pk), content_type__model="table")
    assert entry.user_id == boss.pk and REASON in entry.get_change_message()
    assert any("Closed" in text and table.code in text for text in texts(client.get(url)))
    # the voided round counts as over: its seed is shown to the admin, marked as voided
    review = client.get(reverse("admin:tables_round_change", args=[voided.pk])).content.decode()
    assert voided.seed in review and REASON in review and "nobody was paid" in review
    assert client.get(reverse("admin:tables_round_replay", args=[voided.pk]), {"step": "1"}).status_code == 200
    player = client_for(ann)
    board = player.get(reverse("table", args=[table.code])).content.decode()
    assert "was voided by the club" in board and "The club closed this table." in board and voided.seed in board
    assert player.get(reverse("round_replay", args=[voided.pk])).status_code == 200


def test_closing_without_a_reason_is_refused_and_changes_nothing(boss, running, sent) -> None:
    table, _ann, _ben = running
    before = snapshot(table)
    client = client_for(boss)
    for blank in ("", "   "):
        response = client.post(reverse("admin:tables_table_changelist"), close_post(table, post="yes", reason=blank))
        assert response.status_code == 200
        assert 'name="reason"' in response.content.decode() and "errorlist" in response.content.decode()
    with pytest.raises(TableError, match="reason"):
        close_table(table_id=table.pk, admin=boss, reason="  ")
    assert snapshot(table) == before
    assert not LogEntry.objects.exists() and not sent


def test_closing_an_open_table_frees_its_members_and_a_closed_table_cannot_be_closed_again(
        boss, make_member) -> None:
    cat = make_member("cat")
    table = create_table(creator=cat, game="hawk", players=4)
    closed = close_table(table_id=table.pk, admin=boss, reason=REASON)
    assert closed.status == Table.Status.ABANDONED and closed.closed_by == boss
    ensure_free_to_sit(cat, refuse_open_seat=True)
    with pytest.raises(TableError, match="already"):
        close_table(table_id=table.pk, admin=boss, reason=REASON)
    response = client_for(boss).post(reverse("admin:tables_table_changelist"),
                                     close_post(table, post="yes", reason=REASON), follow=True)
    assert any("already" in text for text in texts(response))
    assert LogEntry.objects.count() == 0  # a refusal is not recorded as a change


def test_a_table_closed_between_rounds_tells_its_players_and_offers_no_next_round(boss, make_member) -> None:
    ann = make_member("ann")
    table = finished_table("hawsker", [ann], bots=1)
    done = current_round(table)
    assert done.over and table.status == Table.Status.RUNNING
    close_table(table_id=table.pk, admin=boss, reason=REASON)
    done.refresh_from_db()
    assert done.voided_at is None and done.result  # a finished round stays as it was, paid
    page = client_for(ann).get(reverse("table", args=[table.code])).content.decode()
    assert "The club closed this table." in page and "Ready for the next round" not in page
    table.refresh_from_db()
    with pytest.raises(TableError):
        play.ready_for_next_round(table_id=table.pk, user=ann, expected_version=table.version)


def test_a_member_who_is_not_staff_cannot_reach_the_actions_nor_call_the_services(running) -> None:
    table, ann, _ben = running
    before = snapshot(table)
    client = client_for(ann)
    response = client.post(reverse("admin:tables_table_changelist"), close_post(table, post="yes", reason=REASON))
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]
    rnd = current_round(table)
    void = {"action": "void_rounds", "_selected_action": [str(rnd.pk)], "post": "yes", "reason": REASON}
    response = client.post(reverse("admin:tables_round_changelist"), void)
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]
    with pytest.raises(NotAllowed):
        close_table(table_id=table.pk, admin=ann, reason=REASON)
    with pytest.raises(NotAllowed):
        void_round(round_id=rnd.pk, admin=ann, reason=REASON)
    assert snapshot(table) == before


def test_staff_without_the_permission_to_change_tables_get_no_close_action(make_member, running) -> None:
    table, _ann, _ben = running
    viewer = make_member("viewer", is_staff=True)
    from django.contrib.auth.models import Permission

    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    before = snapshot(table)
    client = client_for(viewer)
    page = client.get(reverse("admin:tables_table_changelist")).content.decode()
    assert "close_tables" not in page
    client.post(reverse("admin:tables_table_changelist"), close_post(table, post="yes", reason=REASON))
    assert snapshot(table) == before


# Voiding a round ------------------------------------------------------------------------------------


def test_voiding_the_running_round_pays_nobody_and_deals_the_next(boss, running, sent,
                                                                   django_capture_on_commit_callbacks) -> None:
    table, _ann, _ben = running
    rnd = current_round(table)
    match_before = dict(table.match.state)
    before = snapshot(table)
    client = client_for(boss)
    url = reverse("admin:tables_round_changelist")
    data = {"action": "void_rounds", "_selected_action": [str(rnd.pk)]}
    confirm = client.post(url, data)
    assert confirm.status_code == 200 and 'name="reason"' in confirm.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {**data, "post": "yes", "reason": REASON})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.over and rnd.result is None and rnd.voided_by == boss and rnd.void_reason == REASON
    assert not LedgerEntry.objects.filter(round=rnd).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and table.version > before[5]
    following = current_round(table)
    assert following.number == rnd.number + 1 and not following.over and following.seed != rnd.seed
    table.match.refresh_from_db()
    assert table.match.state == match_before  # no totals changed, the dealer did not move on
    assert any(group == push.table_group(table.pk) and message.get("version") == table.version
               for group, message in sent)
    entry = LogEntry.objects.get(object_id=str(rnd.pk), content_type__model="round")
    assert entry.user_id == boss.pk and REASON in entry.get_change_message()


def test_a_finished_round_is_not_voided(boss, make_member) -> None:
    ann = make_member("ann")
    table = finished_table("hawsker", [ann], bots=1)
    done = Round.objects.get(match__table=table, number=1)
    entries = LedgerEntry.objects.filter(round=done).count()
    assert entries
    with pytest.raises(TableError, match="ledger"):
        void_round(round_id=done.pk, admin=boss, reason=REASON)
    client = client_for(boss)
    response = client.post(reverse("admin:tables_round_changelist"),
                           {"action": "void_rounds", "_selected_action": [str(done.pk)], "post": "yes",
                            "reason": REASON}, follow=True)
    assert any("ledger" in text for text in texts(response))
    done.refresh_from_db()
    assert done.voided_at is None and LedgerEntry.objects.filter(round=done).count() == entries
    assert not LogEntry.objects.exists()
