"""The ledger: one entry per seat per finished round, zero-sum money, balances as sums, corrections as pairs,
and no way (ORM, service, admin) to change or remove an entry once written."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Sum
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import balances, member_history, standings
from tables.ledger.services import ledger
from tables.ledger.services.ledger import LedgerError, correct_entries
from tables.models import EntryIsFinal, LedgerEntry, Round
from tables.play.services.errors import NotAllowed
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(make_member):
    return make_member("boss", is_staff=True, is_superuser=True)


@pytest.fixture
def sheepshead_table(make_member):
    """Two members and three bots, two finished Sheepshead hands."""
    members = [make_member("ann"), make_member("ben")]
    return finished_table("sheepshead", members, bots=3, rounds=2, stake_cents=25)


def test_every_finished_round_writes_one_entry_per_seat_and_sheepshead_rounds_sum_to_zero(sheepshead_table) -> None:
    rounds = list(Round.objects.filter(match__table=sheepshead_table, over=True))
    assert len(rounds) == 2
    for rnd in rounds:
        entries = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))
        assert [e.seat for e in entries] == [0, 1, 2, 3, 4]
        assert [e.amount for e in entries] == rnd.result["deltas"]
        assert sum(e.amount for e in entries) == 0
        assert {e.unit for e in entries} == {"cents"}
        assert [e.is_bot for e in entries] == [False, False, True, True, True]
        assert [e.member.username if e.member else None for e in entries] == ["ann", "ben", None, None, None]
        assert entries[2].label == "Bot 3"


@pytest.mark.parametrize(("game", "players"), [("hawk", 4), ("hawsker", 2), ("puskiyon", 3)])
def test_points_games_write_points_for_every_seat(make_member, game, players) -> None:
    table = finished_table(game, [make_member("solo")], bots=players - 1)
    rnd = Round.objects.get(match__table=table, number=1)
    entries = LedgerEntry.objects.filter(round=rnd).order_by("seat")
    assert [e.amount for e in entries] == rnd.result["deltas"]
    assert {e.unit for e in entries} == {"points"}
    assert entries.filter(is_bot=True).count() == players - 1


def test_a_money_set_that_does_not_sum_to_zero_is_refused(sheepshead_table) -> None:
    rnd = Round.objects.filter(match__table=sheepshead_table).first()
    before = LedgerEntry.objects.count()
    lopsided = [
        LedgerEntry(game="sheepshead", unit="cents", is_bot=True, seat=s, label="Bot", amount=a, round=rnd)
        for s, a in enumerate([100, -50])
    ]
    with pytest.raises(LedgerError, match="sum to zero"):
        ledger._write_set(lopsided)
    assert LedgerEntry.objects.count() == before


def test_a_round_goes_into_the_ledger_once(sheepshead_table) -> None:
    rnd = Round.objects.filter(match__table=sheepshead_table).first()
    seats = list(sheepshead_table.seats.order_by("position"))
    with pytest.raises(LedgerError, match="already in the ledger"):
        ledger.record_round(round=rnd, table=sheepshead_table, seats=seats)
    duplicate = LedgerEntry(game="sheepshead", unit="cents", is_bot=True, seat=2, label="Bot", amount=0, round=rnd,
                            position=10_000, digest="0" * 64)  # a free place in the chain: the seat is what repeats
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.bulk_create([duplicate])


def test_balances_are_sums_of_entries_for_any_period(sheepshead_table) -> None:
    ann = sheepshead_table.seats.get(position=0).user
    total = LedgerEntry.objects.filter(member=ann).aggregate(s=Sum("amount"))["s"]
    row = next(b for b in balances(game="sheepshead") if b.member_id == ann.pk)
    assert row.total == total and row.entries == 2
    history = member_history(user=ann)
    line = next(b for b in history.balances if b.game == "sheepshead")
    assert line.closing == total and line.rounds == 2
    assert history.rows[0].balance == total  # newest first: the running balance ends at the sum
    assert standings(game="sheepshead")[-1].name == "Easy bot"  # the house, by the level its bots played at
    assert sum(s.total for s in standings(game="sheepshead")) == 0
    # An entry booked on another day counts in that day's period only.
    first = LedgerEntry.objects.filter(member=ann).order_by("id").first()
    day = first.created_at.date()
    tomorrow = day.fromordinal(day.toordinal() + 1)
    assert balances(game="sheepshead", start=tomorrow) == []
    assert sum(b.total for b in balances(game="sheepshead", end=day)) == 0
    assert member_history(user=ann, start=tomorrow).rows == []
    assert next(b for b in member_history(user=ann, start=tomorrow).balances if b.game == "sheepshead").opening == total


def test_a_correction_is_a_reversal_and_a_new_entry_and_the_original_stays(sheepshead_table, admin_user) -> None:
    rnd = Round.objects.filter(match__table=sheepshead_table).order_by("number").first()
    entries = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))
    ann, bot = entries[0], entries[2]
    ann_before = LedgerEntry.objects.filter(member=ann.member).aggregate(s=Sum("amount"))["s"]
    written = correct_entries(admin=admin_user, reason="Picker points were miscounted",
                              changes={ann.pk: ann.amount + 50, bot.pk: bot.amount - 50})
    assert [e.kind for e in written] == ["reversal", "correction", "reversal", "correction"]
    assert written[0].reverses_id == ann.pk and written[0].amount == -ann.amount
    assert written[1].corrects_id == ann.pk and written[1].amount == ann.amount + 50
    assert all(e.made_by == admin_user and e.reason == "Picker points were miscounted" for e in written)
    ann.refresh_from_db()
    assert ann.amount == entries[0].amount  # the original is untouched and still there
    kinds = list(LedgerEntry.objects.filter(round=rnd, seat=0).order_by("id").values_list("kind", flat=True))
    assert kinds == ["result", "reversal", "correction"]
    assert LedgerEntry.objects.filter(round=rnd).aggregate(s=Sum("amount"))["s"] == 0
    ann_after = LedgerEntry.objects.filter(member=ann.member).aggregate(s=Sum("amount"))["s"]
    assert ann_after == ann_before + 50
    shown = [row.what for row in member_history(user=ann.member).rows]
    assert any(text.startswith("Reversed by") for text in shown) and any(t.startswith("Corrected by") for t in shown)


def test_corrections_are_refused_when_they_would_break_the_books(sheepshead_table, admin_user, make_member) -> None:
    rnd = Round.objects.filter(match__table=sheepshead_table).order_by("number").first()
    first, second = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))[:2]
    other = LedgerEntry.objects.filter(round__number=2, round__match__table=sheepshead_table).first()
    count = LedgerEntry.objects.count()
    with pytest.raises(NotAllowed):
        correct_entries(admin=make_member("plain"), reason="mine", changes={first.pk: 0})
    with pytest.raises(LedgerError, match="Say why"):
        correct_entries(admin=admin_user, reason="  ", changes={first.pk: first.amount + 1})
    with pytest.raises(LedgerError, match="sum to zero"):
        correct_entries(admin=admin_user, reason="typo", changes={first.pk: first.amount + 1})
    with pytest.raises(LedgerError, match="one round at a time"):
        correct_entries(admin=admin_user, reason="typo", changes={first.pk: first.amount + 1, other.pk: 0})
    with pytest.raises(LedgerError, match="nothing to correct"):
        correct_entries(admin=admin_user, reason="typo", changes={first.pk: first.amount})
    with pytest.raises(LedgerError, match="no ledger entry"):
        correct_entries(admin=admin_user, reason="typo", changes={999999: 1})
    assert LedgerEntry.objects.count() == count
    written = correct_entries(admin=admin_user, reason="ten cents moved",
                              changes={first.pk: first.amount + 10, second.pk: second.amount - 10})
    with pytest.raises(LedgerError, match="already been corrected"):
        correct_entries(admin=admin_user, reason="again",
                        changes={first.pk: 0, second.pk: first.amount + second.amount})
    with pytest.raises(LedgerError, match="itself a reversal"):
        correct_entries(admin=admin_user, reason="again", changes={written[0].pk: 0})


def test_no_orm_path_changes_or_removes_an_entry(sheepshead_table) -> None:
    entry = LedgerEntry.objects.first()
    amount = entry.amount
    entry.amount = amount + 1
    with pytest.raises(EntryIsFinal):
        entry.save()
    with pytest.raises(EntryIsFinal):
        entry.save(update_fields=["amount"])
    with pytest.raises(EntryIsFinal):
        entry.delete()
    with pytest.raises(EntryIsFinal):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=0)
    with pytest.raises(EntryIsFinal):
        LedgerEntry.objects.all().delete()
    with pytest.raises(EntryIsFinal):
        LedgerEntry.objects.bulk_update([entry], ["amount"])
    with pytest.raises(EntryIsFinal):
        LedgerEntry.objects.update_or_create(pk=entry.pk, defaults={"amount": 0})
    with pytest.raises(EntryIsFinal):
        LedgerEntry._base_manager.filter(pk=entry.pk).update(amount=0)
    with pytest.raises(EntryIsFinal):
        LedgerEntry.objects.bulk_create([entry], update_conflicts=True, update_fields=["amount"], unique_fields=["id"])
    with pytest.raises(EntryIsFinal), transaction.atomic():  # what `loaddata` does with an existing entry
        LedgerEntry.save_base(entry, raw=True)
    # Rows the ledger points to cannot be deleted from under it (no cascade reaches the ledger).
    with pytest.raises(ProtectedError):
        Round.objects.filter(match__table=sheepshead_table).delete()
    with pytest.raises(ProtectedError):
        sheepshead_table.delete()
    with pytest.raises(ProtectedError):
        entry.member.delete()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == amount
    assert LedgerEntry.objects.count() == 10


def test_the_admin_grants_no_way_to_add_change_or_delete_entries(sheepshead_table, admin_user) -> None:
    client = Client()
    client.force_login(admin_user)
    entry = LedgerEntry.objects.first()
    changelist = client.get(reverse("admin:tables_ledgerentry_changelist"))
    assert changelist.status_code == 200
    assert "delete_selected" not in changelist.content.decode()
    assert client.get(reverse("admin:tables_ledgerentry_add")).status_code == 403
    page = client.get(reverse("admin:tables_ledgerentry_change", args=[entry.pk]))
    assert page.status_code == 200 and 'name="amount"' not in page.content.decode()
    assert client.post(reverse("admin:tables_ledgerentry_change", args=[entry.pk]), {"amount": "0"}).status_code == 403
    assert client.post(reverse("admin:tables_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    response = client.post(reverse("admin:tables_ledgerentry_changelist"),
                           {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    assert response.status_code in (200, 302)
    assert LedgerEntry.objects.filter(pk=entry.pk, amount=entry.amount).exists()
    assert LedgerEntry.objects.count() == 10


def test_the_admin_corrects_through_the_service_and_keeps_both_entries(sheepshead_table, admin_user) -> None:
    client = Client()
    client.force_login(admin_user)
    rnd = Round.objects.filter(match__table=sheepshead_table).order_by("number").first()
    entries = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))
    url = reverse("admin:tables_ledgerentry_correct") + f"?round={rnd.pk}"
    form = client.get(url)
    assert form.status_code == 200 and f'name="amount_{entries[0].pk}"' in form.content.decode()
    data = {"round": str(rnd.pk), "reason": "wrong", **{f"amount_{e.pk}": str(e.amount) for e in entries}}
    data[f"amount_{entries[0].pk}"] = str(entries[0].amount + 10)
    refused = client.post(url, data)
    assert refused.status_code == 200 and "sum to zero" in refused.content.decode()
    data[f"amount_{entries[3].pk}"] = str(entries[3].amount - 10)
    assert client.post(url, data).status_code == 302
    assert LedgerEntry.objects.filter(round=rnd).count() == 5 + 4
    assert LedgerEntry.objects.filter(round=rnd).aggregate(s=Sum("amount"))["s"] == 0
    listing = client.get(reverse("admin:tables_ledgerentry_changelist"), {"kind__exact": "reversal"}).content.decode()
    assert "wrong" in listing


def test_the_ledger_export_is_csv_of_every_entry(sheepshead_table, admin_user) -> None:
    client = Client()
    client.force_login(admin_user)
    response = client.get(reverse("admin:tables_ledgerentry_export"), {"game": "sheepshead"})
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().strip().splitlines()
    assert lines[0].startswith("id,booked_at,game,unit,member")
    assert len(lines) == 1 + 10
    assert "ann" in lines[1] or "ann" in lines[2]
    assert len(b"".join(client.get(reverse("admin:tables_ledgerentry_export"), {"game": "hawk"})
                        .streaming_content).decode().strip().splitlines()) == 1


def test_the_export_quotes_text_a_spreadsheet_would_run_as_a_formula(make_member, admin_user) -> None:
    from tables.ledger.services.inperson import record_sheepshead_hand

    for name in ("ann", "ben"):
        make_member(name)
    make_member("cal", display_name="=HYPERLINK(\"http://x\")")
    record_sheepshead_hand(admin=admin_user, players=["ann", "ben", "cal"], picker="ann", partner=None,
                           picker_points=75)
    client = Client()
    client.force_login(admin_user)
    text = b"".join(client.get(reverse("admin:tables_ledgerentry_export")).streaming_content).decode()
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text
    assert "+$2.00" in text and "-$1.00" in text  # amounts stay as they are


def test_pages_about_play_need_a_login(sheepshead_table) -> None:
    rnd = Round.objects.filter(match__table=sheepshead_table).first()
    anonymous = Client()
    for url in (reverse("my_history"), reverse("standings"), reverse("round_replay", args=[rnd.pk]),
                reverse("fair_deal", args=[rnd.pk])):
        response = anonymous.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
