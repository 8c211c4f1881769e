"""Settling one club night at the table: who pays whom for that night alone, payments recorded as they are made
(partly, too: the rest stays owed), a double submit recorded once, nonsense refused with nothing written, and a
member's history that shows what was paid and what is still owed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import club_today, member_history
from tables.models import ClubNight, NightPayment
from tables.play.services.errors import NotAllowed
from tables.treasury.selectors.night_settling import night_settling, still_owed
from tables.treasury.services.night_payments import PaymentRefused, record_night_payment
from tests.tables.treasury.books_support import booked, club_night

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dan", "eve"]


@pytest.fixture
def night(treasurer, club) -> ClubNight:
    """Yesterday's night of alice, bob, carol and dan: carol lost $9.25 to alice, dan $3.00 to bob. On the same day,
    off the night, alice lost $5.00 to eve: that hand is not this night's to settle."""
    day = club_today() - timedelta(days=1)
    players = [club[n] for n in ("alice", "bob", "carol", "dan")]
    found = club_night(treasurer, day, players)
    booked(treasurer, day, {club["alice"]: 500, club["bob"]: 100, club["carol"]: -400, club["dan"]: -200},
           night=found, number=1)
    booked(treasurer, day, {club["alice"]: 425, club["bob"]: 200, club["carol"]: -525, club["dan"]: -100},
           night=found, number=2)
    booked(treasurer, day, {club["alice"]: -500, club["eve"]: 500})
    return found


def url(night: ClubNight) -> str:
    return reverse("treasury_night_settle", args=[night.pk])


def form(client: Client, night: ClubNight) -> dict[str, str]:
    """The payment form as the page drew it (its token) for the test to fill in."""
    page = client.get(url(night))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode())
    assert token, page.content.decode()[-3000:]
    return {"token": token.group(1), "paid_on": club_today().isoformat(), "note": ""}


def pay(client: Client, night: ClubNight, payer, payee, amount: str, **extra: str):
    data = {**form(client, night), "payer": str(payer.pk), "payee": str(payee.pk), "amount": amount, **extra}
    return client.post(url(night), data, follow=True), data


def test_the_sheet_shows_who_pays_whom_for_that_night_alone(staff_client, night, club) -> None:
    page = staff_client.get(url(night))
    assert page.status_code == 200
    body = page.content.decode()
    sheet = page.context["sheet"]
    assert {line.member.username: line.owed for line in sheet.players} == {
        "alice": 925, "bob": 300, "carol": -925, "dan": -300}  # eve's hand was off the night
    assert [p.sentence for p in sheet.to_pay] == ["Carol pays Alice $9.25", "Dan pays Bob $3.00"]
    for sentence in ("Carol pays Alice $9.25", "Dan pays Bob $3.00"):
        assert sentence in body
    assert 'id="record-payment"' in body and "Eve" not in body.split('id="record-payment"')[1]
    detail = staff_client.get(reverse("treasury_night", args=[night.pk])).content.decode()
    assert f'href="{url(night)}"' in detail  # the saved night links to its settle sheet


def test_a_partial_payment_leaves_the_rest_owed_and_the_history_says_both(staff_client, night, club) -> None:
    answer, _data = pay(staff_client, night, club["carol"], club["alice"], "5.00")
    assert answer.status_code == 200 and "Recorded: Carol paid Alice $5.00 on" in answer.content.decode()
    payment = NightPayment.objects.get()
    assert (payment.payer, payment.payee, payment.amount, payment.night) == (club["carol"], club["alice"], 500, night)
    assert payment.recorded_by.username == "tess" and payment.paid_on == club_today()
    sheet = night_settling(night=night)
    assert [p.sentence for p in sheet.to_pay] == ["Carol pays Alice $4.25", "Dan pays Bob $3.00"]
    assert {line.member.username: line.owed for line in sheet.players}["carol"] == -425

    carol = Client()
    carol.force_login(club["carol"])
    mine = carol.get(reverse("my_history")).content.decode()
    day = club_today().strftime("%-d %b %Y")
    assert f"Carol paid Alice $5.00 on {day}" in mine
    history = member_history(user=club["carol"], game="sheepshead")
    line = history.balances[0]
    assert (line.closing, line.owed) == (-925, -425)  # the ledger is untouched; the payment counts toward it
    assert re.search(r'data-owed="-425">-\$4\.25', mine)

    pay(staff_client, night, club["carol"], club["alice"], "4.25")
    assert member_history(user=club["carol"], game="sheepshead").balances[0].owed == 0
    assert member_history(user=club["alice"], game="sheepshead").balances[0].owed == -500  # eve's hand, unpaid
    assert [p.sentence for p in night_settling(night=night).to_pay] == ["Dan pays Bob $3.00"]


def test_the_same_form_sent_twice_records_one_payment(staff_client, night, club) -> None:
    _first, data = pay(staff_client, night, club["dan"], club["bob"], "3.00")
    again = staff_client.post(url(night), data, follow=True)
    assert NightPayment.objects.count() == 1
    assert "already recorded" in again.content.decode()
    second, _ = pay(staff_client, night, club["carol"], club["alice"], "9.25")  # a new form is a new payment
    assert NightPayment.objects.count() == 2
    assert "Everything is paid" in second.content.decode()
    assert all(left == 0 for left in still_owed(night).values())


@pytest.mark.parametrize(("payer", "payee", "amount", "said"), [
    ("carol", "alice", "9.26", "Carol owes only $9.25 more for this night"),
    ("dan", "alice", "3.01", "Dan owes only $3.00 more"),
    ("carol", "bob", "3.01", "Bob is owed only $3.00 more"),
    ("carol", "alice", "-1.00", "more than $0.00"),
    ("carol", "alice", "0", "more than $0.00"),
    ("carol", "carol", "1.00", "the same person"),
    ("alice", "bob", "1.00", "Alice owes nothing more for this night"),
    ("carol", "dan", "1.00", "Dan is owed nothing more for this night"),
])
def test_nonsense_is_refused_with_the_reason_and_nothing_written(staff_client, night, club, payer, payee, amount,
                                                                  said) -> None:
    answer, _data = pay(staff_client, night, club[payer], club[payee], amount)
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert NightPayment.objects.count() == 0


def test_strangers_points_nights_bad_days_and_members_are_refused(treasurer, night, club, make_member) -> None:
    base = {"recorded_by": treasurer, "night_id": night.pk, "amount": 100, "paid_on": club_today(), "token": "t"}
    for payer, payee in ((club["eve"], club["alice"]), (club["carol"], club["eve"])):  # eve did not play that night
        with pytest.raises(PaymentRefused, match="players of this night"):
            record_night_payment(payer_id=payer.pk, payee_id=payee.pk, **base)
    with pytest.raises(PaymentRefused, match="players of this night"):
        record_night_payment(payer_id=club["carol"].pk, payee_id=99999, **base)
    with pytest.raises(PaymentRefused, match="from the night"):
        record_night_payment(payer_id=club["carol"].pk, payee_id=club["alice"].pk,
                             **{**base, "paid_on": night.played_on - timedelta(days=1)})
    with pytest.raises(PaymentRefused, match="from the night"):
        record_night_payment(payer_id=club["carol"].pk, payee_id=club["alice"].pk,
                             **{**base, "paid_on": club_today() + timedelta(days=1)})
    with pytest.raises(NotAllowed):
        record_night_payment(payer_id=club["carol"].pk, payee_id=club["alice"].pk,
                             **{**base, "recorded_by": club["bob"]})
    hawk = ClubNight(game="hawk", played_on=night.played_on, seats=night.seats, token="hawk-night",
                     recorded_by=treasurer)
    hawk.save()
    with pytest.raises(PaymentRefused, match="points"):
        record_night_payment(payer_id=club["carol"].pk, payee_id=club["alice"].pk, **{**base, "night_id": hawk.pk})
    assert NightPayment.objects.count() == 0

    member = Client()
    member.force_login(club["bob"])
    assert member.get(url(night)).status_code == 302  # to the admin's login
    assert member.post(url(night), {"payer": club["carol"].pk, "payee": club["bob"].pk, "amount": "1",
                                    "paid_on": club_today().isoformat(), "token": "x"}).status_code == 302
    assert NightPayment.objects.count() == 0


def test_a_payment_row_is_final(treasurer, night, club) -> None:
    payment, new = record_night_payment(recorded_by=treasurer, night_id=night.pk, payer_id=club["dan"].pk,
                                        payee_id=club["bob"].pk, amount=300, paid_on=club_today(), token="once")
    assert new
    with pytest.raises(Exception, match="final"):
        payment.save()
    with pytest.raises(Exception, match="final"):
        NightPayment.objects.all().delete()
