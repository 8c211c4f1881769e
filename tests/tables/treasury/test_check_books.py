"""`check_books` finds nothing wrong in books written by the services, and names every kind of tampering: a
round's stored result, a ledger amount, a move that no longer replays, a false reversal, a result for a round that
pays nothing, an in-person amount, and a standings total that is not the sum of the entries."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tables.models import InPersonRecord, LedgerEntry, Round
from tables.treasury.services import books
from tables.treasury.services.books import Kind, check_books
from tests.tables.helpers import current_round, full_table
from tests.tables.treasury.small_club import Club, small_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_member) -> Club:
    return small_club(make_member)


def raw(sql: str, *params: object) -> None:
    """Bypasses the models (which refuse to change a ledger row), as someone editing the database file would."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def forged(**fields: object) -> LedgerEntry:
    """An entry added behind the ledger service's back by someone who knows the chain's canonical form: at the next
    place of its game's chain, with the digest that place wants (only the chain's head, not updated, tells)."""
    game = str(fields["game"])
    last = LedgerEntry.objects.filter(game=game).order_by("-position").first()
    entry = LedgerEntry(position=last.position + 1 if last else 1, **fields)
    entry.digest = entry.computed_digest(last.digest if last else "")
    entry.save()
    return entry


def a_sheepshead_round(club: Club) -> Round:
    return Round.objects.filter(match__table=club.sheepshead, over=True).order_by("number").first()


def test_books_written_by_the_services_check_clean(club: Club, capsys) -> None:
    check = check_books()
    assert check.ok, [str(d) for d in check.differences]
    assert check.rounds == Round.objects.filter(over=True).count() == 3
    assert check.in_person == 2
    assert check.corrections == 4  # two reversals, two corrections
    assert check.balances >= 6
    call_command("check_books")
    out = capsys.readouterr().out
    assert "checked 3 finished rounds, 2 in-person results, 4 correction entries" in out
    assert " s\n" in out and "The books agree" in out


def test_a_stored_result_changed_behind_the_services_back_is_found(club: Club) -> None:
    rnd = a_sheepshead_round(club)
    wrong = dict(rnd.result, deltas=[d + (5 if i == 0 else -5 if i == 1 else 0) for i, d in
                                     enumerate(rnd.result["deltas"])])
    import json

    raw("UPDATE tables_round SET result = %s WHERE id = %s", json.dumps(wrong), rnd.pk)
    check = check_books()
    found = [d for d in check.differences if d.kind == Kind.ROUND_RESULT]
    assert len(found) == 1 and f"round id {rnd.pk}" in found[0].where and "deltas" in found[0].detail
    assert not check.ok


def test_a_tampered_result_entry_is_found_with_its_id(club: Club) -> None:
    rnd = a_sheepshead_round(club)
    entry = LedgerEntry.objects.get(round=rnd, seat=0, kind=LedgerEntry.Kind.RESULT)
    raw("UPDATE tables_ledgerentry SET amount = amount + 100 WHERE id = %s", entry.pk)
    check = check_books()
    kinds = {d.kind for d in check.differences}
    assert {Kind.ROUND_ENTRY, Kind.ROUND_ZERO_SUM} <= kinds  # the balances are sums of the same (wrong) entries
    [paid] = [d for d in check.differences if d.kind == Kind.ROUND_ENTRY]
    assert f"entry {entry.pk}" in paid.where and f"was paid {entry.amount + 100} cents" in paid.detail
    with pytest.raises(CommandError, match="difference"):
        call_command("check_books")


def test_a_result_inserted_for_a_round_that_pays_nothing_is_found(club: Club, make_member) -> None:
    dan = make_member("dan")
    table = full_table("sheepshead", [dan], bots=4)
    live = current_round(table)
    assert not live.over
    bogus = forged(game="sheepshead", unit="cents", member=dan, seat=0, label="dan", amount=500, round=live,
                   kind=LedgerEntry.Kind.RESULT)
    check = check_books()
    assert [d.where for d in check.differences if d.kind == Kind.PAYS_NOTHING] == [f"entry {bogus.pk}"]
    assert any(d.kind == Kind.SOURCE_ZERO_SUM and f"round id {live.pk}" in d.where for d in check.differences)


def test_a_round_whose_moves_do_not_replay_is_found(club: Club) -> None:
    rnd = a_sheepshead_round(club)
    move = rnd.moves.order_by("seq").last()
    others = [m for m in ("pass", "pick", "play:QC", "play:7D") if m != move.text]
    raw("UPDATE tables_move SET text = %s WHERE id = %s", others[0], move.pk)
    check = check_books()
    [problem] = [d for d in check.differences if d.kind == Kind.REPLAY]
    assert f"round id {rnd.pk}" in problem.where and "cannot be played" in problem.detail
    assert not check.ok


def test_a_reversal_that_does_not_cancel_its_entry_is_found(club: Club) -> None:
    target = LedgerEntry.objects.filter(in_person=club.hand, kind=LedgerEntry.Kind.CORRECTION).first()
    bogus = forged(
        game="sheepshead", unit="cents", member=target.member, seat=target.seat, label=target.label,
        amount=-target.amount + 1, in_person=club.hand, kind=LedgerEntry.Kind.REVERSAL, reverses=target,
        reason="fat finger", made_by=club.treasurer,
    )
    check = check_books()
    assert any(d.kind == Kind.CORRECTION and d.where == f"entry {bogus.pk}" for d in check.differences)
    assert any(d.kind == Kind.SOURCE_ZERO_SUM and f"in-person result {club.hand.pk}" in d.where
               for d in check.differences)


def test_an_in_person_amount_that_is_not_its_score_is_found(club: Club) -> None:
    hawk = InPersonRecord.objects.get(game="hawk")
    entry = LedgerEntry.objects.filter(in_person=hawk).order_by("seat").first()
    raw("UPDATE tables_ledgerentry SET amount = amount + 3 WHERE id = %s", entry.pk)
    check = check_books()
    [found] = [d for d in check.differences if d.kind == Kind.IN_PERSON_PRICE]
    assert found.where == f"in-person result {hawk.pk}"
    assert not any("zero" in d.kind for d in check.differences)  # Hawk is points: nothing needs to sum to zero
    assert check_books(game="sheepshead").ok  # only the game asked for is checked


def test_a_standing_that_is_not_the_sum_of_its_entries_is_found(club: Club, monkeypatch) -> None:
    real = books.standings

    def off_by_one(*, game: str, **kwargs):
        lines = real(game=game, **kwargs)
        for line in lines:
            if line.member_id == club.members[0].pk:
                line.total += 1
        return lines

    monkeypatch.setattr(books, "standings", off_by_one)
    check = check_books()
    found = [d for d in check.differences if d.kind == Kind.BALANCE]
    ann = club.members[0].pk
    assert {d.where for d in found} == {f"sheepshead, member {ann}", f"hawk, member {ann}"}
    assert all("the standings show" in d.detail for d in found)
