"""Migration 0030 chains the ledger entries already written: per game, in the order (created_at, id), each with its
place and the digest of its content after the one before (tables.models.ledger.entry_digest), and a head per game,
so `check_books` finds the old books whole and the first entry written afterwards chains after them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User as Member
from tables.ledger.services.inperson import record_hawk_round
from tables.models import ChainHead, LedgerEntry
from tables.models.ledger import entry_digest
from tables.treasury.services.books import Kind, check_books
from tests.migrations import latest_schema_after, migrate, migrate_to_latest  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0029_night_drafts"), ("accounts", "0001_initial")]
AFTER = [("tables", "0030_ledger_hash_chain")]


def test_the_entries_already_written_are_chained_in_the_order_they_were_made() -> None:
    apps = migrate(BEFORE)
    User, Record = apps.get_model("accounts", "User"), apps.get_model("tables", "InPersonRecord")
    Entry = apps.get_model("tables", "LedgerEntry")
    admin = User.objects.create(username="tess", is_staff=True)
    ann, ben, cal = (User.objects.create(username=name) for name in ("ann", "ben", "cal"))
    now = timezone.now()
    made = []
    for hours, game, amounts in ((2, "hawk", [0, 0, 3]), (1, "sheepshead", [100, -100]), (3, "hawk", [3, 0, 0]),
                                 (0, "sheepshead", [-50, 50])):
        at = now - timedelta(hours=hours)  # written in this order, made at these times: older first in the chain
        record = Record.objects.create(game=game, kind="hawk_round" if game == "hawk" else "sheepshead_hand",
                                       facts={}, score={}, summary="", recorded_by=admin, recorded_at=at)
        for seat, (member, amount) in enumerate(zip((ann, ben, cal), amounts, strict=False)):
            made.append(Entry.objects.create(
                game=game, unit="points" if game == "hawk" else "cents", member=member, seat=seat,
                label=member.username, amount=amount, in_person=record, kind="result", created_at=at).pk)

    Chained = migrate(AFTER).get_model("tables", "LedgerEntry")  # as 0030 left it (no tournament yet)
    for game in ("hawk", "sheepshead"):
        rows = list(Chained.objects.filter(game=game).order_by("position"))
        assert rows == sorted(rows, key=lambda e: (e.created_at, e.pk))
        assert [e.position for e in rows] == list(range(1, len(rows) + 1))
        previous = ""
        for entry in rows:
            assert entry.digest == entry_digest(
                previous=previous, position=entry.position, game=entry.game, unit=entry.unit,
                member_id=entry.member_id, is_bot=entry.is_bot, seat=entry.seat, label=entry.label,
                amount=entry.amount, round_id=None, in_person_id=entry.in_person_id, kind="result",
                reverses_id=None, corrects_id=None, reason="", made_by_id=None, created_at=entry.created_at)
            previous = entry.digest
        head = ChainHead.objects.get(game=game)
        assert (head.length, head.digest) == (len(rows), previous)
    hawk_first = Chained.objects.get(game="hawk", position=1)
    assert hawk_first.created_at == now - timedelta(hours=3) and hawk_first.pk == made[5]

    migrate_to_latest()  # the models below are the newest ones
    check = check_books()
    assert not [d for d in check.differences if d.kind == Kind.CHAIN]  # (the records' empty facts do not price)
    record_hawk_round(admin=Member.objects.get(pk=admin.pk), players=["ann", "ben", "cal"], lafh=["cal"], solo=False,
                      lafh_pips=100, nob_pips=90)
    assert LedgerEntry.objects.filter(game="hawk").order_by("-position").first().position == 9
    assert not [d for d in check_books().differences if d.kind == Kind.CHAIN]
