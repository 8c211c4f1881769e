"""Appends to one game's hash chain from several connections at once on PostgreSQL (issue 42; services tier).

Each writer locks the game's ChainHead row before it reads where the chain ends, so writers that arrive together
chain one after the other: no two take the same place (the unique (game, position) would refuse the second, and a
hand would be lost), and the chain `check_books` recomputes is whole. SQLite lets one writer in at a time (IMMEDIATE
transactions), so there this cannot be shown."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection

from accounts.models import User
from tables.ledger.services.inperson import record_hawk_round
from tables.models import ChainHead, LedgerEntry
from tables.treasury.services.books import Kind, check_books

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WRITERS, HANDS = 4, 3


def test_writers_at_once_chain_one_after_the_other(make_member) -> None:
    assert connection.vendor == "postgresql"
    admin = make_member("tess", is_staff=True)
    for name in ("ann", "ben", "cal"):
        make_member(name)
    record_hawk_round(admin=admin, players=["ann", "ben", "cal"], lafh=["cal"], solo=False, lafh_pips=40,
                      nob_pips=150)  # the game's head exists: every writer below contends for the same row
    start = threading.Barrier(WRITERS)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            staff = User.objects.get(pk=admin.pk)
            start.wait(timeout=30)
            for pips in range(HANDS):
                record_hawk_round(admin=staff, players=["ann", "ben", "cal"], lafh=["cal"], solo=False,
                                  lafh_pips=60 + pips, nob_pips=120)
        except BaseException as error:
            failures.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=write) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    count = 3 * (1 + WRITERS * HANDS)
    assert list(LedgerEntry.objects.filter(game="hawk").order_by("position").values_list("position", flat=True)) \
        == list(range(1, count + 1))
    assert ChainHead.objects.get(game="hawk").length == count
    assert not [d for d in check_books(game="hawk").differences if d.kind == Kind.CHAIN]
