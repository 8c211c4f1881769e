"""A tournament's hands go into the ledger in points, never money (issue 45).

An online Sheepshead table a TournamentTable plays at, and a club night kept for an in-person tournament table,
write their entries in points (the settlement divided by the stake), summing to zero per hand; the treasurer's books
(settling, balances, statements, standings, a night's settle sheet) are exactly what the money tables alone make
them, and a member's history lists the tournament's hands in points. The expected money is computed from the
control table's own round results (or the engine's settlement), never through the readers under test.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine import sheepshead
from tables.ledger.selectors import balances, club_today, dollars_text, member_history, replay_step, standings
from tables.ledger.services.ledger import LedgerError, correct_entries
from tables.models import ClubNight, LedgerEntry, MatchResult, NightDraft, Round, Table, TournamentTable
from tables.play.amounts import points_text
from tables.play.services.errors import TableError
from tables.tournaments import services
from tables.treasury.selectors.night_settling import night_settling
from tables.treasury.selectors.nights import night_hands
from tables.treasury.selectors.settling import open_balances, period_balances
from tables.treasury.selectors.statements import statement
from tables.treasury.services import nights
from tables.treasury.services.books import check_books
from tables.treasury.services.night_payments import PaymentRefused, record_night_payment
from tests.tables.helpers import full_table
from tests.tables.ledger_support import next_round, play_until_round_over

pytestmark = pytest.mark.django_db

STAKE = 50
ROUNDS = 2


def drawn_tournament(make_member, staff):
    """A Sheepshead tournament in sessions of ten entrants, its first session drawn (two tables of five)."""
    tournament = services.create_tournament(organiser=staff, name="Winter cup", game="sheepshead", format="sessions",
                                            rounds=2, hands_per_session=ROUNDS)
    members = [make_member(f"p{index}", display_name=f"P{index}") for index in range(10)]
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    return tournament, members, list(drawn.tables.order_by("number"))


def seated(tournament_table: TournamentTable, members) -> list:
    by_pk = {member.pk: member for member in members}
    return [by_pk[pk] for pk in tournament_table.seats]


def play_rounds(table: Table, members) -> None:
    for number in range(ROUNDS):
        if number:
            next_round(table, members)
        play_until_round_over(table)


def rounds_of(table: Table) -> list[Round]:
    return list(Round.objects.filter(match__table=table, over=True).order_by("number"))


def money_of(table: Table) -> dict[int, int]:
    """Each member's money from the table's rounds, as the rounds' own results say (no ledger read)."""
    seats = {seat.position: seat.user_id for seat in table.seats.all()}
    total: dict[int, int] = defaultdict(int)
    for rnd in rounds_of(table):
        for position, delta in enumerate(rnd.result["deltas"]):
            total[seats[position]] += delta
    return dict(total)


@pytest.fixture
def staff(make_member):
    return make_member("tess", display_name="Tess", is_staff=True)


@pytest.fixture
def online(make_member, staff):
    """The first session's table 1 played online at a play table linked before its rounds; beside it a control
    table of the same five members played for money."""
    _tournament, members, tables = drawn_tournament(make_member, staff)
    players = seated(tables[0], members)
    control = full_table("sheepshead", players, stake_cents=STAKE, rounds=ROUNDS)
    play_rounds(control, players)
    played = full_table("sheepshead", players, stake_cents=STAKE, rounds=ROUNDS)
    TournamentTable.objects.filter(pk=tables[0].pk).update(table=played)
    play_rounds(played, players)
    control.refresh_from_db()
    played.refresh_from_db()
    return players, control, played


def test_an_online_tournament_tables_rounds_are_points_summing_to_zero(online) -> None:
    _players, control, played = online
    for rnd in rounds_of(played):
        entries = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))
        assert [entry.unit for entry in entries] == ["points"] * 5
        assert [entry.amount for entry in entries] == [delta // STAKE for delta in rnd.result["deltas"]]
        assert all(delta % STAKE == 0 for delta in rnd.result["deltas"])
        assert sum(entry.amount for entry in entries) == 0
    # Something was paid (a single hand may pay nothing: a leaster tied for fewest points, RULES.md).
    assert LedgerEntry.objects.filter(round__in=rounds_of(played)).exclude(amount=0).exists()
    for rnd in rounds_of(control):
        assert set(LedgerEntry.objects.filter(round=rnd).values_list("unit", flat=True)) == {"cents"}
    result = MatchResult.objects.get(table=played)
    assert result.unit == "points"
    points = {seat.user_id: sum(d // STAKE for d in [r.result["deltas"][seat.position] for r in rounds_of(played)])
              for seat in played.seats.all()}
    assert {place.user_id: place.total for place in result.places.all()} == points
    assert MatchResult.objects.get(table=control).unit == "cents"
    assert check_books().kinds == []


def test_the_books_are_the_money_tables_alone(online, staff) -> None:
    players, control, _played = online
    money = money_of(control)
    books = open_balances(game="sheepshead")
    assert {line.member_id: line.amount for line in books.parties} == money
    assert {line.member_id: line.entries for line in books.parties} == dict.fromkeys(money, ROUNDS)
    period = period_balances(game="sheepshead", start=None, end=None)
    assert {line.member_id: line.amount for line in period.parties} == money
    assert {row.member_id: row.total for row in balances(game="sheepshead")} == money
    assert {line.member_id: line.total for line in standings(game="sheepshead") if line.member_id} == money
    for member in players:
        mine = statement(member=member, game="sheepshead")
        assert [section.closing for section in mine.games] == [money[member.pk]]
        assert {row.entry.round.match.table_id for section in mine.games for row in section.rows} == {control.pk}
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("treasury_settle"), {"game": "sheepshead"}).content.decode()
    for member in players:
        assert f'data-member="{member.pk}"' in page
        assert dollars_text(money[member.pk]) in page or money[member.pk] == 0


def test_the_history_lists_tournament_hands_in_points(online) -> None:
    players, control, played = online
    member = players[0]
    history = member_history(user=member, game="sheepshead")
    line = next(balance for balance in history.balances if balance.game == "sheepshead")
    assert line.closing == money_of(control)[member.pk] and line.rounds == ROUNDS
    tournament_rows = [row for row in history.rows if row.entry.round.match.table_id == played.pk]
    assert len(tournament_rows) == ROUNDS
    for row in tournament_rows:
        assert "point" in row.amount_text and "$" not in row.amount_text
        assert row.what and "$" not in row.what
        assert row.amount_text.startswith(("+", "-", "0"))
    running = sorted(tournament_rows, key=lambda row: (row.entry.created_at, row.entry.pk))
    assert running[-1].balance == sum(row.entry.amount for row in tournament_rows)
    for row in history.rows:
        if row.entry.round.match.table_id == control.pk:
            assert "$" in row.amount_text
    client = Client()
    client.force_login(member)
    page = client.get(reverse("my_history")).content.decode()
    assert tournament_rows[0].amount_text in page
    rnd = rounds_of(played)[0]
    end = replay_step(round=rnd, step=rnd.moves.count())
    assert [seat.delta_text for seat in end.seats] == [
        points_text(delta // STAKE, signed=True) for delta in rnd.result["deltas"]]
    control_round = rounds_of(control)[0]
    assert all("$" in seat.delta_text for seat in replay_step(round=control_round,
                                                               step=control_round.moves.count()).seats)


def test_a_correction_of_tournament_points_keeps_the_unit_and_sums_to_zero(online, staff) -> None:
    _players, control, played = online
    rnd = rounds_of(played)[0]
    first, second = LedgerEntry.objects.filter(round=rnd).order_by("seat")[:2]
    with pytest.raises(LedgerError):  # points of a Sheepshead hand still sum to zero
        correct_entries(admin=staff, reason="Miscounted", changes={first.pk: first.amount + 1})
    written = correct_entries(admin=staff, reason="A point went to the wrong seat",
                              changes={first.pk: first.amount + 1, second.pk: second.amount - 1})
    assert {entry.unit for entry in written} == {"points"} and len(written) == 4
    assert [e.amount for e in written] == [-first.amount, first.amount + 1, -second.amount, second.amount - 1]
    assert open_balances(game="sheepshead").parties and {
        line.member_id: line.amount for line in open_balances(game="sheepshead").parties} == money_of(control)
    assert check_books().kinds == []


# --- In person: a club night kept for an in-person tournament table -------------------------------------------


def picked(members, picker: int, points: int, partner: int | None = None) -> dict[str, str]:
    return {"picker": str(members[picker].pk), "partner": "" if partner is None else str(members[partner].pk),
            "points": str(points), "leaster_points": "", "leaster_tricks": ""}


HANDS = [(0, 75, 1), (2, 29, None), (4, 95, 3)]


def sheet(staff, members, *, stake: int = 100) -> NightDraft:
    draft = nights.open_sheet(admin=staff, game="sheepshead", played_on=club_today(), players=members,
                              stake_cents=stake)
    for version, (picker, points, partner) in enumerate(HANDS, 1):
        nights.add_row(admin=staff, draft=draft, version=version, members=members,
                       row=picked(members, picker, points, partner))
    return draft


def settled(stake: int) -> list[list[int]]:
    return [sheepshead.settle(players=5, picker=picker, partner=partner, picker_points=points, stake_cents=stake)
            for picker, points, partner in HANDS]


@pytest.fixture
def at_the_club(make_member, staff):
    tournament, members, tables = drawn_tournament(make_member, staff)
    TournamentTable.objects.filter(pk__in=[t.pk for t in tables]).update(where=TournamentTable.Where.CLUB)
    type(tournament).objects.filter(pk=tournament.pk).update(hands_per_session=len(HANDS))  # a session: the sheet
    return tables, members


def test_a_tournament_night_books_points_and_owes_nothing(at_the_club, staff) -> None:
    tables, members = at_the_club
    players = seated(tables[0], members)
    money_night = sheet(staff, players, stake=100)
    money = nights.save_night(admin=staff, draft=money_night, version=4, members=players).night
    draft = sheet(staff, players, stake=100)
    night = nights.save_night(admin=staff, draft=draft, version=4, members=players,
                              tournament_table_id=tables[0].pk).night
    assert night.tournament_table_id == tables[0].pk and money.tournament_table_id is None
    expected = settled(100)
    for record, deltas in zip(night.hands.order_by("number"), expected, strict=True):
        entries = list(record.ledger_entries.order_by("seat"))
        assert [e.unit for e in entries] == ["points"] * 5
        assert [e.amount for e in entries] == [delta // 100 for delta in deltas] and sum(e.amount for e in entries) == 0
    cash = {member.pk: sum(hand[seat] for hand in expected) for seat, member in enumerate(players)}
    assert {line.member_id: line.amount for line in open_balances(game="sheepshead").parties} == cash
    assert {row.member_id: row.total for row in balances(game="sheepshead")} == cash
    assert [s.closing for s in statement(member=players[0], game="sheepshead").games] == [cash[players[0].pk]]
    sheet_of_night = night_settling(night=night)
    assert sheet_of_night.tournament and not sheet_of_night.money and sheet_of_night.to_pay == []
    assert night_settling(night=money).money
    loser = min(players, key=lambda m: cash[m.pk])
    winner = max(players, key=lambda m: cash[m.pk])
    with pytest.raises(PaymentRefused):
        record_night_payment(recorded_by=staff, night_id=night.pk, payer_id=loser.pk, payee_id=winner.pk, amount=100,
                             paid_on=club_today(), token="t-1")
    _members, hands, grand = night_hands(night)
    assert all("point" in cell.text and "$" not in cell.text for hand in hands for cell in hand.cells)
    assert [cell.amount for cell in grand] == [sum(hand[seat] // 100 for hand in expected) for seat in range(5)]
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("treasury_night_settle", args=[night.pk]), follow=True)
    assert page.redirect_chain == [(reverse("treasury_night", args=[night.pk]), 302)]
    assert 'id="night-tournament"' in page.content.decode() and 'id="night-balances"' not in page.content.decode()
    history = member_history(user=players[0], game="sheepshead")
    assert next(b for b in history.balances if b.game == "sheepshead").closing == cash[players[0].pk]
    assert {("point" in row.amount_text) for row in history.rows if row.entry.in_person.night_id == night.pk} == {True}
    # The hand's sentence as the history says it: what was taken, never the stake the tournament does not pay.
    tournament_whats = [row.what for row in history.rows if row.entry.in_person.night_id == night.pk]
    assert tournament_whats and all(what and "$" not in what for what in tournament_whats)
    assert any("$" in row.what for row in history.rows if row.entry.in_person.night_id == money.pk)
    assert check_books().kinds == []


def test_the_draft_kept_for_a_tournament_table_saves_a_tournament_night(at_the_club, staff) -> None:
    tables, members = at_the_club
    players = seated(tables[1], members)
    draft = sheet(staff, players, stake=50)
    NightDraft.objects.filter(pk=draft.pk).update(tournament_table=tables[1])
    night = nights.save_night(admin=staff, draft=draft, version=4, members=players).night
    assert night.tournament_table_id == tables[1].pk
    points = [e.amount for e in night.hands.get(number=1).ledger_entries.order_by("seat")]
    assert points == [delta // 50 for delta in settled(50)[0]]
    assert LedgerEntry.objects.filter(unit="cents").count() == 0


def test_a_night_for_a_table_that_cannot_take_it_is_refused_and_nothing_is_written(at_the_club, staff) -> None:
    tables, members = at_the_club
    players = seated(tables[0], members)
    TournamentTable.objects.filter(pk=tables[1].pk).update(where=TournamentTable.Where.ONLINE)
    for wrong in (tables[1].pk, 999_999):
        draft = sheet(staff, players)
        with pytest.raises(TableError):
            nights.save_night(admin=staff, draft=draft, version=4, members=players, tournament_table_id=wrong)
        assert not ClubNight.objects.exists() and not LedgerEntry.objects.exists()
    nights.save_night(admin=staff, draft=sheet(staff, players), version=4, members=players,
                      tournament_table_id=tables[0].pk)
    again = sheet(staff, players)
    with pytest.raises(TableError):  # one night per tournament table
        nights.save_night(admin=staff, draft=again, version=4, members=players, tournament_table_id=tables[0].pk)
    assert ClubNight.objects.count() == 1
