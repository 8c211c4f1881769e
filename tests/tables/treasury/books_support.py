"""Entries for the treasury's tests: in-person hands booked on a chosen day, through the ledger's own service."""

from __future__ import annotations

from datetime import date, datetime, time

from accounts.models import User
from tables.ledger.selectors import club_today, club_zone
from tables.ledger.services.inperson import record_sheepshead_hand
from tables.ledger.services.ledger import record_in_person
from tables.models import ClubNight, InPersonRecord, LedgerEntry, NightPayment
from tables.treasury.services.night_payments import record_night_payment


def booked(admin: User, day: date, amounts: dict[User, int], *, game: str = "sheepshead",
           night: ClubNight | None = None, number: int | None = None, summary: str = "") -> list[LedgerEntry]:
    """One hand played at the club, booked at 20:00 (the club's time) on `day`, paying `amounts` in seat order.

    Its facts are only the players (any amounts, not a hand's facts), so `check_books`, which prices every in-person
    hand again from its facts, names it ("in-person price differs from its facts"): books meant to check clean are
    written with the recording services (tables.ledger.services.inperson), as tests.tables.treasury.small_club is."""
    at = datetime.combine(day, time(20, 0), tzinfo=club_zone())
    record = InPersonRecord(
        game=game, kind=InPersonRecord.Kind.SHEEPSHEAD_HAND if game == "sheepshead" else InPersonRecord.Kind.HAWK_ROUND,
        facts={"players": [m.username for m in amounts]}, score={"amounts": list(amounts.values())},
        summary=summary or ", ".join(f"{m.shown_name} {v:+d}" for m, v in amounts.items()), played_on=day,
        recorded_by=admin, recorded_at=at, night=night, number=number,
    )
    record.save()
    return record_in_person(record=record, members=list(amounts), amounts=list(amounts.values()))


def club_night(admin: User, day: date, members: list[User], token: str = "night-1") -> ClubNight:
    night = ClubNight(game="sheepshead", played_on=day, seats=[m.pk for m in members], options={"stake": 100},
                      token=token, recorded_by=admin)
    night.save()
    return night


def night_with_a_payment(treasurer: User, club: dict[str, User]) -> NightPayment:
    """A night of four today (ann picks alone and wins: +$3.00, the others -$1.00 each); ben has paid ann $0.60."""
    names = ["ann", "ben", "cat", "dan"]
    night = club_night(treasurer, club_today(), [club[n] for n in names])
    record_sheepshead_hand(admin=treasurer, players=names, picker="ann", partner=None, picker_points=75, night=night,
                           number=1)
    payment, _new = record_night_payment(recorded_by=treasurer, night_id=night.pk, payer_id=club["ben"].pk,
                                         payee_id=club["ann"].pk, amount=60, paid_on=club_today(), token="t1")
    return payment
