"""A small club's books for the backup and check_books tests: online rounds of two games, an in-person hand and a
correction, all written through the services."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from accounts.models import User
from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand
from tables.ledger.services.ledger import correct_entries
from tables.models import InPersonRecord, LedgerEntry, Table
from tests.tables.ledger_support import finished_table


@dataclass
class Club:
    treasurer: User
    members: list[User]
    sheepshead: Table
    hawk: Table
    hand: InPersonRecord


def small_club(make_member: Callable[..., User]) -> Club:
    treasurer = make_member("treasurer", is_staff=True)
    ann, ben, cal, dee = make_member("ann"), make_member("ben"), make_member("cal"), make_member("dee")
    sheepshead = finished_table("sheepshead", [ann, ben], bots=3, rounds=2)
    hawk = finished_table("hawk", [cal, dee], bots=2, rounds=1)  # a member sits at one table at a time
    hand = record_sheepshead_hand(admin=treasurer, players=["ann", "ben", "cal"], picker="ann", partner=None,
                                  picker_points=70, stake_cents=50)
    record_hawk_round(admin=treasurer, players=["ann", "ben", "cal"], lafh=["cal"], solo=False, lafh_pips=40,
                      nob_pips=150)
    first, second = LedgerEntry.objects.filter(in_person=hand).order_by("seat")[:2]
    correct_entries(admin=treasurer, reason="ann and ben swapped", changes={first.pk: second.amount,
                                                                            second.pk: first.amount})
    return Club(treasurer, [ann, ben, cal, dee], sheepshead, hawk, hand)
