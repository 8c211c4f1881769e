"""Settling up: the balances since the last settlement (the house included), the two clicks that settle them, and
every way a confirmation can be wrong (stale, repeated, from a member, for a game counted in points)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import club_today, member_history
from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand
from tables.models import LedgerEntry, Settlement
from tables.play.services.errors import NotAllowed
from tables.treasury.selectors.settling import open_balances, period_balances
from tables.treasury.services.settling import StaleBooks, settle_game
from tests.tables.ledger_support import finished_table
from tests.tables.treasury.books_support import booked

pytestmark = pytest.mark.django_db

URL = reverse("treasury_settle")
NAMES = ["ann", "ben", "cat", "dan", "eve"]


def two_hands(treasurer) -> None:
    # ann picks with ben and wins (75 points, $1): ann +2.00, ben +1.00, the rest -1.00 each
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="ann", partner="ben", picker_points=75)
    # cat picks alone and loses (29 points, $0.50 stake): cat pays each of the four $2.00
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="cat", partner="", picker_points=29,
                           stake_cents=50)


def confirm(client: Client, game: str = "sheepshead") -> tuple[dict, object]:
    page = client.get(URL, {"game": game})
    books = page.context["books"]
    return {"game": game, "through": books.through, "seen": books.seen, "note": "March"}, page


def test_the_page_shows_each_balance_and_who_pays_whom(staff_client, treasurer, club) -> None:
    two_hands(treasurer)
    _data, page = confirm(staff_client)
    books = page.context["books"]
    assert {line.name: line.amount for line in books.parties} == {
        "Ann": 400, "Ben": 300, "Cat": -900, "Dan": 100, "Eve": 100}
    assert books.total == 0 and books.can_settle
    body = page.content.decode()
    assert 'id="settle-form"' in body and 'id="mark-settled"' in body
    sentences = [p.sentence for p in books.payments]
    assert sentences == ["Cat pays Ann $4.00", "Cat pays Ben $3.00", "Cat pays Dan $1.00", "Cat pays Eve $1.00"]
    for sentence in sentences:
        assert sentence in body


def test_settling_writes_one_settlement_and_the_balances_start_again(staff_client, treasurer, club) -> None:
    two_hands(treasurer)
    entries_before = list(LedgerEntry.objects.order_by("id").values_list("id", "amount", "kind"))
    data, _page = confirm(staff_client)
    response = staff_client.post(URL, data, follow=True)
    assert response.status_code == 200
    assert "Settled: " in response.content.decode()
    settlement = Settlement.objects.get()
    ids = {name: str(member.pk) for name, member in club.items()}
    assert settlement.balances == {ids["ann"]: 400, ids["ben"]: 300, ids["cat"]: -900, ids["dan"]: 100,
                                   ids["eve"]: 100}
    assert settlement.through_entry_id == LedgerEntry.objects.latest("id").pk and settlement.after_entry is None
    assert settlement.settled_by == treasurer and settlement.note == "March" and settlement.unit == "cents"
    square = dict(settlement.balances)
    for payment in settlement.payments:
        square[str(payment["payer"])] += payment["amount"]
        square[str(payment["payee"])] -= payment["amount"]
    assert set(square.values()) == {0}
    assert list(LedgerEntry.objects.order_by("id").values_list("id", "amount", "kind")) == entries_before
    # the balances start again from zero; the settlement is listed with its payments
    after = response.context["books"]
    assert after.parties == [] and not after.can_settle and after.since == settlement
    assert 'id="settle-form"' not in response.content.decode()
    assert "Nothing has been played since the last settlement" in response.content.decode()
    assert response.context["past"][0].settlement == settlement
    # a new hand is all the next settlement sees
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="dan", partner="eve", picker_points=61)
    fresh = open_balances(game="sheepshead")
    assert {line.name: line.amount for line in fresh.parties} == {
        "Ann": -100, "Ben": -100, "Cat": -100, "Dan": 200, "Eve": 100}
    data, _page = confirm(staff_client)
    staff_client.post(URL, data)
    second = Settlement.objects.order_by("-id").first()
    assert Settlement.objects.count() == 2 and second.after_entry_id == settlement.through_entry_id
    assert sum(second.balances.values()) == 0 and sum(p["amount"] for p in second.payments) == 300
    assert len(second.payments) == 3  # three debtors of $1.00; Dan and Eve are owed $2.00 and $1.00


def test_a_hand_recorded_after_the_page_was_drawn_waits_for_the_next_settlement(staff_client, treasurer,
                                                                                 club) -> None:
    two_hands(treasurer)
    data, page = confirm(staff_client)
    shown = {line.name: line.amount for line in page.context["books"].parties}
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="eve", partner="ann", picker_points=90)
    response = staff_client.post(URL, data, follow=True)
    settlement = Settlement.objects.get()
    assert settlement.through_entry_id == data["through"]  # exactly what the page showed, not the later hand
    names = {str(member.pk): name.capitalize() for name, member in club.items()}
    assert {names[key]: amount for key, amount in settlement.balances.items()} == shown
    body = response.content.decode()
    assert "5 entries recorded since this page was drawn stay open for the next settlement" in body
    later = response.context["books"]  # the page now shows the later hand alone, ready for the next settlement
    assert later.through == LedgerEntry.objects.latest("id").pk and later.seen == 5
    assert sum(line.amount for line in later.parties) == 0 and later.can_settle


def test_a_confirmation_that_counted_other_entries_is_refused(treasurer, club) -> None:
    two_hands(treasurer)
    books = open_balances(game="sheepshead")
    with pytest.raises(StaleBooks):
        settle_game(treasurer=treasurer, game="sheepshead", through=books.through, seen=books.seen - 1)
    with pytest.raises(StaleBooks):
        settle_game(treasurer=treasurer, game="sheepshead", through=books.through - 1, seen=books.seen)
    assert not Settlement.objects.exists()


def test_the_same_confirmation_twice_settles_once(staff_client, treasurer, club) -> None:
    two_hands(treasurer)
    data, _page = confirm(staff_client)
    staff_client.post(URL, data)
    again = staff_client.post(URL, data, follow=True)
    assert Settlement.objects.count() == 1
    assert "already settled; nothing more was written" in again.content.decode()
    first, new = settle_game(treasurer=treasurer, **{k: data[k] for k in ("game", "through", "seen")})
    assert not new and first == Settlement.objects.get()


def test_nothing_to_settle_and_nonsense_are_refused(staff_client, treasurer, club) -> None:
    with pytest.raises(StaleBooks):
        settle_game(treasurer=treasurer, game="sheepshead", through=1, seen=1)
    response = staff_client.post(URL, {"game": "sheepshead", "through": "abc", "seen": "-3"}, follow=True)
    assert "made no sense" in response.content.decode()
    response = staff_client.post(URL, {"game": "no-such-game", "through": "1", "seen": "1"}, follow=True)
    assert response.status_code == 200
    assert not Settlement.objects.exists()


def test_members_who_are_not_staff_are_refused(make_member, treasurer, club) -> None:
    two_hands(treasurer)
    books = open_balances(game="sheepshead")
    client = Client()
    client.force_login(club["ann"])
    page = client.get(URL)
    assert page.status_code == 302 and "/admin/login/" in page["Location"]
    post = client.post(URL, {"game": "sheepshead", "through": books.through, "seen": books.seen})
    assert post.status_code == 302 and "/admin/login/" in post["Location"]
    with pytest.raises(NotAllowed):
        settle_game(treasurer=club["ann"], game="sheepshead", through=books.through, seen=books.seen)
    assert not Settlement.objects.exists()


def test_hawk_gets_the_summary_without_payments_or_a_settle_button(staff_client, treasurer, club) -> None:
    record_hawk_round(admin=treasurer, players=NAMES[:4], lafh=["ann", "cat"], solo=False, lafh_pips=151)
    page = staff_client.get(URL, {"game": "hawk"})
    books = page.context["books"]
    body = page.content.decode()
    assert {line.name: line.amount for line in books.parties} == {"Ann": 8, "Ben": 0, "Cat": 8, "Dan": 0}
    assert books.payments == [] and not books.can_settle
    assert 'id="settle-form"' not in body and "Who pays whom" not in body and "nothing to settle" in body
    response = staff_client.post(URL, {"game": "hawk", "through": LedgerEntry.objects.latest("id").pk, "seen": 4},
                                 follow=True)
    assert "counted in points" in response.content.decode()
    assert not Settlement.objects.exists()


def test_the_house_is_one_party_and_the_balances_sum_to_zero(staff_client, treasurer, club) -> None:
    finished_table("sheepshead", [club["ann"], club["ben"]], bots=3, rounds=2)
    books = open_balances(game="sheepshead")
    house = [line for line in books.parties if line.house]
    assert len(house) == 1 and books.total == 0
    assert house[0].entries == 6  # three bot seats, two rounds
    page = staff_client.get(URL)
    assert "The house is every bot" in page.content.decode()
    data, _page = confirm(staff_client)
    staff_client.post(URL, data)
    settlement = Settlement.objects.get()
    assert settlement.balances["house"] == house[0].amount
    if house[0].amount:
        assert any(None in (p["payer"], p["payee"]) for p in settlement.payments)
        sentences = [p.sentence for p in books.payments]
        assert any(s.startswith("The house pays ") or " pays the house $" in s for s in sentences), sentences


def test_a_period_is_a_summary_of_the_club_days_whatever_was_settled(staff_client, treasurer, club) -> None:
    today = club_today()
    ann, ben = club["ann"], club["ben"]
    booked(treasurer, today - timedelta(days=40), {ann: 500, ben: -500})
    booked(treasurer, today - timedelta(days=3), {ann: -120, ben: 120})
    data, _page = confirm(staff_client)
    staff_client.post(URL, data)  # everything is settled ...
    week = period_balances(game="sheepshead", start=today - timedelta(days=7), end=today)
    assert {line.name: line.amount for line in week.parties} == {"Ann": -120, "Ben": 120}  # ... yet summarised
    assert [p.sentence for p in week.payments] == ["Ann pays Ben $1.20"]
    page = staff_client.get(URL, {"game": "sheepshead", "start": (today - timedelta(days=7)).isoformat()})
    body = page.content.decode()
    assert page.context["books"].period and "Ann pays Ben $1.20" in body and 'id="settle-form"' not in body
    bad = staff_client.get(URL, {"game": "sheepshead", "start": today.isoformat(),
                                 "end": (today - timedelta(days=1)).isoformat()})
    assert "The period ends before it starts." in bad.content.decode()


def test_the_ledger_in_the_admin_links_to_settling_and_statements(make_member) -> None:
    client = Client()
    client.force_login(make_member("boss", is_staff=True, is_superuser=True))  # the changelist needs view permission
    body = client.get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    assert f'href="{URL}"' in body and f'href="{reverse("treasury_statement")}"' in body


def test_after_a_settlement_each_members_history_shows_what_they_paid_and_nothing_still_owed(
        staff_client, treasurer, club) -> None:
    """The treasurer settles a game once its payments are made: Cat's history then shows her -$9.00 as paid, to each
    of the four, and nothing still owed; a hand after the settlement is owed again."""
    two_hands(treasurer)
    before = member_history(user=club["cat"], game="sheepshead")
    assert before.balances[0].closing == -900 and before.balances[0].owed == -900 and before.payments == []
    data, _page = confirm(staff_client)
    staff_client.post(URL, data)
    cat = member_history(user=club["cat"], game="sheepshead")
    assert cat.balances[0].closing == -900  # the ledger is the ledger: what she lost stays in it
    assert cat.balances[0].owed == 0 and cat.balances[0].payments == 4
    assert sorted(p.sentence.split(" on ")[0] for p in cat.payments) == [
        "Cat paid Ann $4.00", "Cat paid Ben $3.00", "Cat paid Dan $1.00", "Cat paid Eve $1.00"]
    assert all(p.made and p.context == "when the treasurer settled Sheepshead" for p in cat.payments)
    ann = member_history(user=club["ann"], game="sheepshead")
    assert ann.balances[0].owed == 0 and [p.made for p in ann.payments] == [False]
    cats_page = Client()
    cats_page.force_login(club["cat"])
    body = cats_page.get(reverse("my_history"), {"game": "sheepshead"}).content.decode()
    assert 'id="my-payments"' in body and "Cat paid Ann $4.00" in body and 'data-owed="0"' in body
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="ann", partner="ben", picker_points=75)
    assert member_history(user=club["cat"], game="sheepshead").balances[0].owed == -100
