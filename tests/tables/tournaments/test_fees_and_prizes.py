"""A tournament's entry fees and prizes written to the ledger as money when its results are published (issue 45):
-fee per entrant, prizes by share, tied places sharing, the house's rest, a sum of zero, exactly once; nothing
without a fee or for a cancelled tournament; the books' check, balances, settling, history, statement and the
treasurer's corrections all take them. Each refusal writes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import balances, member_history
from tables.ledger.services.ledger import LedgerError, correct_entries, record_tournament_money
from tables.models import ChainHead, LedgerEntry, Tournament, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import controls, services
from tables.tournaments.selectors import standings
from tables.treasury.books import open_books
from tables.treasury.selectors.statements import statement
from tables.treasury.services.books import Kind, check_books

pytestmark = pytest.mark.django_db


def sessions_cup(make_member, staff, *, points: list[int], fee: int = 500, shares=(50, 30, 20),
                 game: str = "sheepshead", finish: bool = True):
    """A one-session tournament at one table: member i scores points[i] (sessions rank by points, highest first)."""
    tournament = controls.organise(organiser=staff, name="Winter cup", game=game, format="sessions", rounds=1,
                                   hands_per_session=4, entry_fee_cents=fee, prize_shares=list(shares))
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    members = [make_member(f"c{index}", display_name=f"Cup {index}") for index in range(len(points))]
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    by_id = {member.pk: value for member, value in zip(members, points, strict=True)}
    for table in drawn.tables.all():
        services.record_session_points(table_id=table.pk, staff=staff,
                                       points={seat: by_id[seat] for seat in table.players})
    if finish:
        services.finish_round(tournament_id=tournament.pk, staff=staff)
    return Tournament.objects.get(pk=tournament.pk), members


def entries_of(tournament: Tournament) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(tournament=tournament).order_by("seat"))


def page_of(tournament: Tournament, member) -> str:
    client = Client()
    client.force_login(member)
    response = client.get(reverse("tournament", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def ledger_rows() -> list[tuple]:
    return list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount", "digest"))


def test_publishing_books_the_fees_and_the_prizes_by_place(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[12, 7, 3, -5, -17])
    assert entries_of(tournament) == []  # finished, not published: nothing yet
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    tournament.refresh_from_db()
    entries = entries_of(tournament)
    # The pot is 5 x $5.00 = $25.00: $12.50, $7.50 and $5.00 to the first three, each less the fee.
    assert [(e.member_id, e.amount) for e in entries] == [
        (members[0].pk, 1250 - 500), (members[1].pk, 750 - 500), (members[2].pk, 500 - 500),
        (members[3].pk, -500), (members[4].pk, -500)]
    assert sum(e.amount for e in entries) == 0
    assert {(e.game, e.unit, e.kind, e.created_at) for e in entries} == {
        ("sheepshead", "cents", "result", tournament.published_at)}
    assert [e.label for e in entries] == [m.shown_name for m in members]
    assert [e.seat for e in entries] == [0, 1, 2, 3, 4]
    assert all(e.round_id is None and e.in_person_id is None and not e.is_bot for e in entries)
    assert check_books().ok


def test_tied_places_share_their_prizes_and_the_house_keeps_the_cents(make_member, staff) -> None:
    # Fee $3.33 and five entrants: a pot of 1665 cents; places pay 832, 499 and 333. Cup 1 and Cup 2 tie on 5
    # points at places 2 and 3: they pool 499 + 333 = 832 and take 416 each. Cup 3 and Cup 4 tie at places 4-5,
    # which pay nothing. The house keeps 1665 - 832 - 416 - 416 = 1.
    tournament, members = sessions_cup(make_member, staff, points=[9, 5, 5, -9, -9], fee=333)
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    entries = entries_of(tournament)
    assert sorted((e.member_id, e.is_bot, e.amount) for e in entries[:5]) == sorted(
        [(members[0].pk, False, 832 - 333), (members[1].pk, False, 416 - 333), (members[2].pk, False, 416 - 333),
         (members[3].pk, False, -333), (members[4].pk, False, -333)])
    house = entries[5]
    assert (house.member_id, house.is_bot, house.amount, house.seat) == (None, True, 1, 5)
    assert len(entries) == 6 and sum(e.amount for e in entries) == 0
    places = {one.user_id: one.place for one in standings(tournament_id=tournament.pk)}
    assert [e.member_id for e in entries[:5]] == sorted(places, key=places.get)  # seats in place order
    assert check_books().ok


def test_shares_under_100_leave_the_rest_to_the_house(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[4, 3, 2, 1], fee=1000, shares=(60,))
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert [(e.member_id, e.amount) for e in entries_of(tournament)] == [
        (members[0].pk, 2400 - 1000), (members[1].pk, -1000), (members[2].pk, -1000), (members[3].pk, -1000),
        (None, 1600)]


def test_a_swiss_tournament_books_in_the_money_book_and_ties_on_everything_but_the_lot(make_member, staff) -> None:
    tournament = controls.organise(organiser=staff, name="Hawsker open", game="hawsker", format="swiss", rounds=1,
                                   entry_fee_cents=200, prize_shares=[70, 30])
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    players = [make_member(f"h{index}") for index in range(4)]
    for player in players:
        services.enter(tournament_id=tournament.pk, user=player)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    winners = []
    for table in drawn.tables.all():
        services.record_swiss_result(table_id=table.pk, winner=next(p for p in players if p.pk == table.seats[0]))
        winners.append(table.seats[0])
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    entries = entries_of(Tournament.objects.get(pk=tournament.pk))
    # The two winners both score 1 with a Buchholz of 0 and did not meet: tied for places 1-2, they share
    # (560 + 240) / 2 = 400 each of the 800-cent pot; the losers pay their fee.
    assert {e.game for e in entries} == {"sheepshead"} and {e.unit for e in entries} == {"cents"}
    assert sorted((e.member_id, e.amount) for e in entries) == sorted(
        [(winner, 400 - 200) for winner in winners]
        + [(p.pk, -200) for p in players if p.pk not in winners])
    assert check_books().ok


def test_publishing_twice_books_nothing_more(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0])
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    before = ledger_rows()
    with pytest.raises(TableError, match="already"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(LedgerError, match="already"):  # the writer itself refuses a second booking too
        record_tournament_money(tournament=tournament, lines=[(None, 0)])
    assert ledger_rows() == before
    assert ChainHead.objects.get(game="sheepshead").length == len(before)


def test_no_fee_books_nothing(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[3, 2, 1, 0], fee=0, shares=())
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert Tournament.objects.get(pk=tournament.pk).published_at is not None
    assert not LedgerEntry.objects.exists()
    page = page_of(tournament, members[0])
    assert "Final results" in page and "were booked" not in page


def test_a_cancelled_tournament_books_nothing(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0], finish=False)
    controls.cancel(tournament_id=tournament.pk, staff=staff, reason="The hall flooded")
    with pytest.raises(TableError, match="finished"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert not LedgerEntry.objects.exists()
    assert Tournament.objects.get(pk=tournament.pk).published_at is None


def test_a_fee_with_nobody_entered_is_refused_and_publishes_nothing(make_member, staff) -> None:
    tournament = controls.organise(organiser=staff, name="Empty", game="sheepshead", format="sessions", rounds=1,
                                   hands_per_session=4, entry_fee_cents=500, prize_shares=[100])
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(TableError, match="Nobody entered"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert Tournament.objects.get(pk=tournament.pk).published_at is None
    assert not LedgerEntry.objects.exists()


def test_standings_missing_a_result_are_refused_and_publish_nothing(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0])
    TournamentTable.objects.filter(round__tournament=tournament).update(points=None)  # a result lost behind our back
    with pytest.raises(TableError, match="without a result"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert Tournament.objects.get(pk=tournament.pk).published_at is None
    assert not LedgerEntry.objects.exists()


def test_the_page_says_when_they_were_booked_and_lists_the_prizes(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[9, 5, 5, -9, -9], fee=333)
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    page = page_of(tournament, members[4])
    assert "Entry fees and prizes were booked:" in page
    assert f'data-member="{members[0].pk}" data-prize="832"' in page and "Cup 0, $8.32" in page
    assert f'data-member="{members[1].pk}" data-prize="416"' in page and "a share of the tied places" in page
    assert f'data-member="{members[3].pk}" data-prize' not in page  # no prize, not listed
    assert "Left to the club: $0.01" in page


def test_the_books_check_names_the_tournament_when_an_amount_is_tampered(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0])
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert check_books().ok and check_books(game="sheepshead").ok
    first, last = entries_of(tournament)[0], entries_of(tournament)[-1]
    with connection.cursor() as cursor:  # past the models, which refuse to change a ledger row
        cursor.execute("UPDATE tables_ledgerentry SET amount = amount + 100 WHERE id = %s", [first.pk])
        cursor.execute("UPDATE tables_ledgerentry SET amount = amount - 100 WHERE id = %s", [last.pk])
    found = check_books()
    tournament_says = [d for d in found.differences if d.kind == Kind.TOURNAMENT]
    assert len(tournament_says) == 2
    assert all(f"tournament {tournament.pk} (Winter cup)" in d.where for d in tournament_says)
    assert f"entry {first.pk}" in tournament_says[0].where and "pays member" in tournament_says[0].detail
    assert Kind.CHAIN in found.kinds  # and the chain no longer vouches for the entry
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tables_ledgerentry SET amount = amount - 100 WHERE id = %s", [first.pk])
    unbalanced = check_books()
    assert any(d.kind == Kind.TOURNAMENT_ZERO_SUM and f"tournament {tournament.pk}" in d.where
               for d in unbalanced.differences)


def test_a_published_tournament_with_a_fee_but_no_entries_is_named(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0])
    Tournament.objects.filter(pk=tournament.pk).update(published_at=tournament.created_at)  # booked by nobody
    found = check_books()
    assert [d.kind for d in found.differences] == [Kind.TOURNAMENT] * 4
    assert all(f"tournament {tournament.pk}" in d.where and "has no entry" in d.detail for d in found.differences)


def test_existing_digests_are_unchanged_and_the_tournament_key_only_when_set(make_member, staff) -> None:
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0])
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    entry = entries_of(tournament)[0]
    assert entry.digest == entry.computed_digest(
        LedgerEntry.objects.get(game=entry.game, position=entry.position - 1).digest if entry.position > 1 else "")
    entry.tournament_id = None  # the same content without its tournament hashes differently...
    assert entry.computed_digest("") != LedgerEntry.objects.get(pk=entry.pk).computed_digest("")

    class Historical:  # ...and a row without the field at all (0030's historical model) as one with it unset
        pass

    old = Historical()
    for name in ("position", "game", "unit", "member_id", "is_bot", "seat", "label", "amount", "round_id",
                 "in_person_id", "kind", "reverses_id", "corrects_id", "reason", "made_by_id", "created_at"):
        setattr(old, name, getattr(entry, name))
    from tables.models.ledger import digest_of
    assert digest_of(old, previous="x") == entry.computed_digest("x")


def test_balances_settling_history_and_statement_take_them(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[3, 2, 1, 0], fee=500, shares=(100,))
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    winner, loser = members[0], members[3]
    totals = {(row.member_id, row.game): row.total for row in balances()}
    assert totals[(winner.pk, "sheepshead")] == 1500 and totals[(loser.pk, "sheepshead")] == -500
    assert open_books("sheepshead").totals[winner.pk] == (1500, 1)
    client = Client()
    client.force_login(staff)
    settle = client.get(reverse("treasury_settle"), {"game": "sheepshead"})
    assert {line.name: line.amount for line in settle.context["books"].parties} == {
        "Cup 0": 1500, "Cup 1": -500, "Cup 2": -500, "Cup 3": -500}
    history = member_history(user=winner)
    row = history.rows[0]
    assert row.entry.tournament_id == tournament.pk
    assert row.where == "Tournament: Winter cup" and row.what == "Entry fee $5.00, prize $20.00"
    sheepshead = next(line for line in history.balances if line.game == "sheepshead")
    assert (sheepshead.change, sheepshead.rounds) == (1500, 0)  # money, not a hand played
    assert member_history(user=loser).rows[0].what == "Entry fee $5.00"
    client.force_login(winner)
    page = client.get(reverse("my_history")).content.decode()
    assert "Tournament: Winter cup" in page and reverse("tournament", args=[tournament.pk]) in page
    mine = statement(member=winner, game="sheepshead")
    (section,) = mine.games
    assert [(r.where, r.result, r.entry.amount) for r in section.rows] == [
        ("Tournament: Winter cup", "Entry fee $5.00, prize $20.00", 1500)]
    assert section.closing == 1500 and section.hands == 0


def test_the_treasurer_corrects_a_tournament_entry_with_a_reversal_and_a_new_amount(make_member, staff) -> None:
    tournament, members = sessions_cup(make_member, staff, points=[3, 2, 1, 0], fee=500, shares=(100,))
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    first, second = entries_of(tournament)[:2]
    with pytest.raises(LedgerError, match="sum to zero"):  # refused, nothing written
        correct_entries(admin=staff, reason="Prize split", changes={first.pk: 500})
    assert LedgerEntry.objects.filter(tournament=tournament).count() == 4
    written = correct_entries(admin=staff, reason="Cup 0 and Cup 1 agreed to split the prize",
                              changes={first.pk: 500, second.pk: 500})
    assert len(written) == 4 and {e.tournament_id for e in written} == {tournament.pk}
    assert LedgerEntry.objects.filter(tournament=tournament).aggregate(total=Sum("amount"))["total"] == 0
    assert {(row.member_id, row.total) for row in balances(game="sheepshead")} >= {
        (members[0].pk, 500), (members[1].pk, 500)}
    assert check_books().ok  # the results still match the standings; the corrections balance
    lines = [r.result for r in statement(member=members[0], game="sheepshead").games[0].rows]
    assert lines[0] == "Entry fee $5.00, prize $20.00" and lines[1].startswith("Reversal") and \
        lines[2].startswith("Corrected amount")


def test_the_admin_corrects_a_tournament_entry(make_member, staff) -> None:
    staff.is_superuser = True
    staff.save(update_fields=["is_superuser"])
    tournament, _ = sessions_cup(make_member, staff, points=[3, 2, 1, 0], fee=500, shares=(100,))
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    entries = entries_of(tournament)
    client = Client()
    client.force_login(staff)
    listing = client.get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    assert f"?tournament={tournament.pk}" in listing and "Winter cup (entry fees and prizes)" in listing
    url = reverse("admin:tables_ledgerentry_correct") + f"?tournament={tournament.pk}"
    form = client.get(url)
    assert form.status_code == 200 and f'name="amount_{entries[0].pk}"' in form.content.decode()
    data = {"tournament": str(tournament.pk), "reason": "split", **{f"amount_{e.pk}": str(e.amount) for e in entries}}
    data[f"amount_{entries[0].pk}"], data[f"amount_{entries[1].pk}"] = "500", "500"
    assert client.post(url, data).status_code == 302
    assert LedgerEntry.objects.filter(tournament=tournament).count() == 4 + 4

