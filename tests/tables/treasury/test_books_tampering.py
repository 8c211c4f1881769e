"""Tampering with the books directly in the database (SQL, past the models, which refuse to change a ledger row), in
each way a treasurer met in issue 42: `check_books` names every kind, and the hash chain names the first entry it
no longer vouches for. The same tests run on PostgreSQL with DATABASE_URL set."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tables.ledger.services.inperson import price_hawk_round, record_sheepshead_hand
from tables.models import ChainHead, ClubNight, InPersonRecord, LedgerEntry, Round, Settlement
from tables.treasury.books import open_books
from tables.treasury.services import books
from tables.treasury.services.books import BooksCheck, Kind, check_books
from tables.treasury.services.replace import replace_in_person_record
from tables.treasury.services.settling import settle_game
from tests.tables.treasury.small_club import Club, small_club

pytestmark = pytest.mark.django_db


@dataclass
class Books:
    club: Club
    night_hand: InPersonRecord
    settlement: Settlement
    hawk_old: InPersonRecord
    hawk_new: InPersonRecord


@pytest.fixture
def kept(make_member) -> Books:
    """The small club's books, plus a night's hand at a 50-cent stake, a settlement of Sheepshead, and the Hawk hand
    played at the club replaced by a corrected one: every kind of row the checks read, all written by the services."""
    club = small_club(make_member)
    night = ClubNight.objects.create(game="sheepshead", played_on=date(2026, 12, 4), seats=[m.pk for m in
                                     club.members], options={"stake_cents": 50}, token="tamper-night",
                                     recorded_by=club.treasurer)
    hand = record_sheepshead_hand(admin=club.treasurer, players=["ann", "ben", "cal", "dee"], picker="dee",
                                  partner=None, picker_points=95, stake_cents=50, played_on=date(2026, 12, 4),
                                  night=night, number=1)
    shown = open_books("sheepshead")
    settlement, _ = settle_game(treasurer=club.treasurer, game="sheepshead", through=shown.through, seen=shown.seen)
    old = InPersonRecord.objects.get(game="hawk")
    new = replace_in_person_record(
        admin=club.treasurer, record_id=old.pk, reason="LAFH had 100 pips", kind="hawk_round",
        facts={"players": ["ann", "ben", "cal"], "lafh": ["cal"], "solo": False, "lafh_pips": 100, "nob_pips": 90})
    return Books(club, hand, settlement, old, new)


def raw(sql: str, *params: object) -> None:
    """Past the models, as someone editing the database file would."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def as_json() -> str:
    """The placeholder of a JSON value in raw SQL, on either database."""
    return "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"


def found(check: BooksCheck, kind: str) -> list[str]:
    return [f"{d.where}: {d.detail}" for d in check.differences if d.kind == kind]


def chain_break(check: BooksCheck) -> str:
    [broken] = [d.where for d in check.differences if d.kind == Kind.CHAIN]
    return broken


def round_entry(club: Club, number: int, seat: int) -> LedgerEntry:
    rnd = Round.objects.get(match__table=club.sheepshead, number=number)
    return LedgerEntry.objects.get(round=rnd, seat=seat, kind=LedgerEntry.Kind.RESULT)


def test_books_kept_by_the_services_agree_and_each_chain_is_whole(kept: Books, capsys) -> None:
    check = check_books()
    assert check.ok, [str(d) for d in check.differences]
    assert check.settlements == 1 and check.in_person == 4  # two hands, the replaced Hawk hand and its replacement
    for game in ("sheepshead", "hawk"):
        head = ChainHead.objects.get(game=game)
        assert check.chains[game] == (head.length, head.digest) == (
            LedgerEntry.objects.filter(game=game).count(),
            LedgerEntry.objects.filter(game=game).order_by("-position").first().digest)
        assert list(LedgerEntry.objects.filter(game=game).order_by("position").values_list("position", flat=True)) \
            == list(range(1, head.length + 1))
    call_command("check_books")
    out = capsys.readouterr().out
    assert "1 settlements" in out and f"chain sheepshead: {check.chains['sheepshead'][0]} entries, head " in out


def test_an_entry_moved_to_another_member_is_found_and_breaks_the_chain_there(kept: Books) -> None:
    ann, ben = kept.club.members[:2]
    # ann's seat, in a round that paid her something (a Leaster tied for fewest pays nobody: moving a zero entry
    # moves no balance, and the settlement check rightly sees nothing)
    entry = next((e for e in (round_entry(kept.club, 1, 0), round_entry(kept.club, 2, 0)) if e.amount), None)
    assert entry is not None, "both of ann's rounds paid nothing: two tied Leasters in a row"
    raw("UPDATE tables_ledgerentry SET member_id = %s WHERE id = %s", ben.pk, entry.pk)
    check = check_books()
    [moved] = found(check, Kind.NOT_AT_TABLE)
    assert f"entry {entry.pk} " in moved and f"it pays member {ben.pk}; the seat was member {ann.pk}'s" in moved
    assert chain_break(check) == f"sheepshead chain, entry {entry.pk}"
    assert any(f"party {ben.pk}" in line for line in found(check, Kind.SETTLEMENT))  # it was settled as ann's


def test_an_in_person_entry_moved_to_someone_else_is_found_against_its_facts(kept: Books) -> None:
    dee = kept.club.members[3]
    entry = LedgerEntry.objects.get(in_person=kept.hawk_new, seat=1)  # ben's
    raw("UPDATE tables_ledgerentry SET member_id = %s WHERE id = %s", dee.pk, entry.pk)
    check = check_books()
    [moved] = found(check, Kind.NOT_AT_TABLE)
    assert f"entry {entry.pk} (in-person result {kept.hawk_new.pk}, seat 2)" in moved and "(ben)" in moved
    assert chain_break(check) == f"hawk chain, entry {entry.pk}"


def test_an_entry_moved_to_the_house_is_found(kept: Books) -> None:
    entry = round_entry(kept.club, 2, 1)  # ben's seat
    raw("UPDATE tables_ledgerentry SET member_id = NULL, is_bot = %s WHERE id = %s", True, entry.pk)
    check = check_books()
    [moved] = found(check, Kind.NOT_AT_TABLE)
    assert "it pays the house; the seat was member" in moved
    assert chain_break(check) == f"sheepshead chain, entry {entry.pk}"


def test_a_house_entry_moved_to_a_member_is_found(kept: Books) -> None:
    entry = round_entry(kept.club, 1, 4)  # a bot's seat
    raw("UPDATE tables_ledgerentry SET member_id = %s, is_bot = %s WHERE id = %s", kept.club.members[0].pk, False,
        entry.pk)
    check = check_books()
    assert "the seat was the house's" in found(check, Kind.NOT_AT_TABLE)[0]
    assert Kind.CHAIN in check.kinds


def test_a_changed_amount_is_found(kept: Books) -> None:
    entry = round_entry(kept.club, 2, 0)
    raw("UPDATE tables_ledgerentry SET amount = amount + 100 WHERE id = %s", entry.pk)
    check = check_books()
    expected = {Kind.ROUND_ENTRY, Kind.ROUND_ZERO_SUM, Kind.SOURCE_ZERO_SUM, Kind.SETTLEMENT, Kind.CHAIN}
    assert expected <= set(check.kinds)
    assert chain_break(check) == f"sheepshead chain, entry {entry.pk}"


def test_edited_settlement_payments_are_found(kept: Books) -> None:
    payments = kept.settlement.payments
    assert payments, "the settlement has payments to edit"
    edited = [dict(payments[0], amount=payments[0]["amount"] - 25), *payments[1:]]
    raw(f"UPDATE tables_settlement SET payments = {as_json()} WHERE id = %s", json.dumps(edited), kept.settlement.pk)
    check = check_books()
    assert check.kinds == [Kind.SETTLEMENT_PAYMENTS]
    [left] = found(check, Kind.SETTLEMENT_PAYMENTS)
    assert f"settlement {kept.settlement.pk} (sheepshead)" in left and "balances are left" in left


def test_a_payment_redirected_to_someone_else_is_found(kept: Books) -> None:
    payments = kept.settlement.payments
    edited = [dict(payments[0], payee=kept.club.treasurer.pk), *payments[1:]]  # who played none of it
    raw(f"UPDATE tables_settlement SET payments = {as_json()} WHERE id = %s", json.dumps(edited), kept.settlement.pk)
    assert check_books().kinds == [Kind.SETTLEMENT_PAYMENTS]


def test_edited_settlement_balances_are_found(kept: Books) -> None:
    balances = dict(kept.settlement.balances)
    first, second = sorted(balances)[:2]
    balances[first] += 10
    balances[second] -= 10
    raw(f"UPDATE tables_settlement SET balances = {as_json()} WHERE id = %s", json.dumps(balances),
        kept.settlement.pk)
    check = check_books()
    assert Kind.SETTLEMENT in check.kinds
    assert sorted(line.split(":")[0] for line in found(check, Kind.SETTLEMENT)) == [
        f"settlement {kept.settlement.pk} (sheepshead), party {party}" for party in sorted([first, second])]


def test_an_in_person_record_rewritten_consistently_is_caught_by_the_chain(kept: Books) -> None:
    """Facts, score and entries rewritten together, so each re-prices right: only the chain can tell."""
    record = kept.hawk_new
    rewritten = price_hawk_round(players=["ann", "ben", "cal"], lafh=["ann"], solo=False, lafh_pips=20, nob_pips=170)
    assert rewritten.amounts != list(record.ledger_entries.order_by("seat").values_list("amount", flat=True))
    raw(f"UPDATE tables_inpersonrecord SET facts = {as_json()}, score = {as_json()} WHERE id = %s",
        json.dumps(rewritten.facts), json.dumps(rewritten.score), record.pk)
    first = None
    for seat, amount in enumerate(rewritten.amounts):
        entry = LedgerEntry.objects.get(in_person=record, seat=seat, kind=LedgerEntry.Kind.RESULT)
        first = first or entry
        raw("UPDATE tables_ledgerentry SET amount = %s WHERE id = %s", amount, entry.pk)
    check = check_books()
    assert check.kinds == [Kind.CHAIN]
    assert chain_break(check) == f"hawk chain, entry {first.pk}"


def test_a_nights_hand_rewritten_consistently_at_another_stake_is_caught_by_the_night_and_the_chain(
        kept: Books) -> None:
    record = kept.night_hand
    facts = dict(record.facts, stake_cents=100)
    score = dict(record.score, money=[2 * m for m in record.score["money"]])
    raw(f"UPDATE tables_inpersonrecord SET facts = {as_json()}, score = {as_json()} WHERE id = %s",
        json.dumps(facts), json.dumps(score), record.pk)
    raw("UPDATE tables_ledgerentry SET amount = 2 * amount WHERE in_person_id = %s", record.pk)
    check = check_books()
    assert {Kind.IN_PERSON_NIGHT, Kind.CHAIN, Kind.SETTLEMENT} == set(check.kinds)  # it had been settled at 50
    assert not found(check, Kind.IN_PERSON_PRICE) and not found(check, Kind.IN_PERSON_SCORE)


def test_an_in_person_score_that_is_not_its_facts_is_found(kept: Books) -> None:
    record = kept.night_hand
    raw(f"UPDATE tables_inpersonrecord SET score = {as_json()} WHERE id = %s",
        json.dumps(dict(record.score, rate=3)), record.pk)
    assert check_books().kinds == [Kind.IN_PERSON_SCORE]


def test_in_person_entries_are_priced_from_the_facts_not_the_stored_score(kept: Books) -> None:
    """Facts changed (95 points: +2 becomes 60 points: -2) and the stored score left alone: re-pricing tells."""
    record = kept.night_hand
    raw(f"UPDATE tables_inpersonrecord SET facts = {as_json()} WHERE id = %s",
        json.dumps(dict(record.facts, picker_points=60)), record.pk)
    check = check_books()
    assert {Kind.IN_PERSON_PRICE, Kind.IN_PERSON_SCORE} == set(check.kinds)
    assert found(check, Kind.IN_PERSON_PRICE) == [
        f"in-person result {record.pk}: its entries pay {record.score['money']} by seat; its facts price "
        f"{[100, 100, 100, -300]}"]


def test_a_replaced_record_that_does_not_net_to_zero_is_found(kept: Books) -> None:
    reversal = LedgerEntry.objects.filter(in_person=kept.hawk_old, kind=LedgerEntry.Kind.REVERSAL).order_by("seat")[0]
    raw("UPDATE tables_ledgerentry SET amount = amount + 3 WHERE id = %s", reversal.pk)
    check = check_books()
    assert found(check, Kind.REPLACED) == [
        f"in-person result {kept.hawk_old.pk}, seat {reversal.seat + 1}: it was replaced, but its entries still "
        f"add up to 3"]
    assert Kind.CORRECTION in check.kinds and chain_break(check) == f"hawk chain, entry {reversal.pk}"


def test_a_deleted_entry_breaks_the_chain_at_the_next_one(kept: Books) -> None:
    gone = round_entry(kept.club, 1, 2)
    after = LedgerEntry.objects.get(game="sheepshead", position=gone.position + 1)
    raw("DELETE FROM tables_ledgerentry WHERE id = %s", gone.pk)
    check = check_books()
    assert chain_break(check) == f"sheepshead chain, entry {after.pk}"
    assert "where position" in found(check, Kind.CHAIN)[0]
    assert {Kind.ROUND_ENTRY, Kind.ROUND_ZERO_SUM, Kind.SETTLEMENT} <= set(check.kinds)


def test_the_last_entry_deleted_is_found_by_the_chains_head(kept: Books) -> None:
    last = LedgerEntry.objects.filter(game="hawk").order_by("-position").first()
    before = LedgerEntry.objects.get(game="hawk", position=last.position - 1)
    raw("DELETE FROM tables_ledgerentry WHERE id = %s", last.pk)
    check = check_books(game="hawk")
    assert chain_break(check) == f"hawk chain, entry {before.pk}"
    assert "its head says" in found(check, Kind.CHAIN)[0]


def test_a_changed_label_or_date_breaks_the_chain_alone(kept: Books) -> None:
    """What no other check reads is still vouched for by the chain."""
    entry = round_entry(kept.club, 1, 3)
    raw("UPDATE tables_ledgerentry SET label = %s WHERE id = %s", "Someone else", entry.pk)
    check = check_books()
    assert check.kinds == [Kind.CHAIN] and chain_break(check) == f"sheepshead chain, entry {entry.pk}"


def zero_sum_named(check: BooksCheck, rnd: Round, total: int) -> bool:
    return found(check, Kind.ROUND_ZERO_SUM) == [
        f"round id {rnd.pk} (table {rnd.match.table.code}, round {rnd.number}): its result entries sum to {total} "
        "cents, not zero"]


def test_a_table_round_that_does_not_sum_to_zero_is_named_by_the_zero_sum_check(kept: Books) -> None:
    """The house's entry changed: the table round's zero-sum check (bots' seats counted) names it, with the sum."""
    entry = round_entry(kept.club, 2, 3)  # a bot's seat
    raw("UPDATE tables_ledgerentry SET amount = amount - 37 WHERE id = %s", entry.pk)
    assert zero_sum_named(check_books(), entry.round, -37)


def test_a_balanced_swap_between_seats_is_no_zero_sum_difference(kept: Books) -> None:
    one, two = round_entry(kept.club, 1, 0), round_entry(kept.club, 1, 3)
    raw("UPDATE tables_ledgerentry SET amount = amount + 50 WHERE id = %s", one.pk)
    raw("UPDATE tables_ledgerentry SET amount = amount - 50 WHERE id = %s", two.pk)
    check = check_books()
    assert not found(check, Kind.ROUND_ZERO_SUM) and len(found(check, Kind.ROUND_ENTRY)) == 2


def test_a_planted_bug_that_blinds_the_zero_sum_check_of_table_rounds_is_caught(kept: Books, monkeypatch) -> None:
    """The test above must fail when the zero-sum check of table rounds is blinded: no other check names that kind,
    so a blinded (or removed) check cannot pass it."""
    entry = round_entry(kept.club, 2, 3)
    raw("UPDATE tables_ledgerentry SET amount = amount - 37 WHERE id = %s", entry.pk)
    assert zero_sum_named(check_books(), entry.round, -37)
    monkeypatch.setattr(books, "_check_round_zero_sum", lambda check, where, entries, unit: None)
    blinded = check_books()
    assert not zero_sum_named(blinded, entry.round, -37)
    assert not blinded.ok  # the other checks still see the wrong amount; only the zero-sum test tells which


def test_the_command_lists_each_kind_by_name_and_fails(kept: Books, capsys) -> None:
    raw("UPDATE tables_ledgerentry SET member_id = %s WHERE id = %s", kept.club.members[1].pk,
        round_entry(kept.club, 1, 0).pk)
    raw(f"UPDATE tables_settlement SET payments = {as_json()} WHERE id = %s", json.dumps([]), kept.settlement.pk)
    with pytest.raises(CommandError, match=r"difference\(s\) of \d+ kind\(s\)"):
        call_command("check_books")
    out = capsys.readouterr().out
    for kind in (Kind.NOT_AT_TABLE, Kind.CHAIN, Kind.SETTLEMENT, Kind.SETTLEMENT_PAYMENTS):
        assert f"found: {kind} (" in out and f"[{kind}]" in out


def test_an_in_person_entry_that_breaks_its_hands_zero_sum_is_found(kept: Books) -> None:
    entry = LedgerEntry.objects.get(in_person=kept.night_hand, seat=3)
    raw("UPDATE tables_ledgerentry SET amount = amount + 5 WHERE id = %s", entry.pk)
    check = check_books(game="sheepshead")
    assert found(check, Kind.IN_PERSON_ZERO_SUM) == [
        f"in-person result {kept.night_hand.pk}: its result entries sum to 5 cents, not zero"]
    assert {Kind.IN_PERSON_PRICE, Kind.SOURCE_ZERO_SUM, Kind.CHAIN} <= set(check.kinds)


def test_a_correction_set_that_does_not_sum_to_zero_is_found(kept: Books) -> None:
    correction = LedgerEntry.objects.filter(in_person=kept.club.hand, kind=LedgerEntry.Kind.CORRECTION).first()
    raw("UPDATE tables_ledgerentry SET amount = amount - 7 WHERE id = %s", correction.pk)
    check = check_books(game="sheepshead")
    [line] = found(check, Kind.CORRECTION_ZERO_SUM)
    assert str(correction.pk) in line and "sums to -7 cents" in line
    assert chain_break(check) == f"sheepshead chain, entry {correction.pk}"


def test_a_hand_of_a_member_whose_account_closed_since_still_prices(kept: Books) -> None:
    """Re-pricing takes the players as they sat: closing an account later is no difference in the books."""
    type(kept.club.members[3]).objects.filter(pk=kept.club.members[3].pk).update(is_active=False)  # dee played
    check = check_books()
    assert check.ok, [str(d) for d in check.differences]
    kept.club.members[3].refresh_from_db()
    assert not kept.club.members[3].is_active
