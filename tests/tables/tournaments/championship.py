"""Issue 45's "done when", run by the services tier on PostgreSQL and, smaller, by the default tier: a club's
Sheepshead championship in sessions (online tables with members and the bots that play a no-show's seat, one table
at the club entered by the treasurer on the night sheet) and a Hawsker Swiss (online, with a match at the club and
a bye each round), each driven from the organiser's first draw to the published results through the services the
pages call, with the standings checked against a calculation made here from the hands themselves: the engine's
round results for the online tables and the public `settle` for the sheet's hands, never from what the tournament
recorded.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from accounts.models import User
from rules.engine.sheepshead import settle
from tables.models import Match, Round, Tournament, TournamentTable
from tables.play.background import run_pass
from tables.tournaments import club_tables, controls, services
from tables.tournaments.clock import TournamentJob
from tables.tournaments.scoring import hand_points
from tables.tournaments.selectors import standings
from tables.treasury.services import nights
from tests.tables.play.table_life import FakeTime, open_page
from tests.tables.tournaments.online_support import play_out

STAKE = 25
OPTIONS = {"stake_cents": STAKE}


def _entered(make_member, staff: User, *, count: int, prefix: str, **create: object) -> tuple[Tournament, list[User]]:
    tournament = services.create_tournament(organiser=staff, **create)
    members = [make_member(f"{prefix}{index:02d}", display_name=f"{prefix.title()} {index:02d}")
               for index in range(count)]
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    return tournament, members


def _sheet_hands(rng: random.Random, players: int, count: int) -> list[tuple[int, int | None, int]]:
    """Picked hands as a club table's sheet holds them: picker's seat, partner's seat (None: alone), picker's
    points."""
    made = []
    for _ in range(count):
        picker = rng.randrange(players)
        others = [seat for seat in range(players) if seat != picker] if players >= 5 else []  # partners: 5 or more
        partner = rng.choice([None, *others])
        made.append((picker, partner, rng.choice([0, 29, 30, 31, 45, 60, 61, 75, 90, 91, 120])))
    return made


def _enter_club_sheet(table: TournamentTable, staff: User, rng: random.Random, hands: int) -> dict[int, int]:
    """The treasurer opens the table's night sheet, enters every hand and saves it; returns what the hands are worth
    to each member in stakes, computed with `settle` (the hand calculation)."""
    by_id = {user.pk: user for user in User.objects.filter(pk__in=table.players)}
    players = [by_id[pk] for pk in table.seats]
    draft = club_tables.open_table_sheet(table_id=table.pk, staff=staff)
    worth = dict.fromkeys(table.seats, 0)
    for version, (picker, partner, points) in enumerate(_sheet_hands(rng, len(players), hands), start=1):
        nights.add_row(admin=staff, draft=draft, version=version, members=players, row={
            "picker": str(players[picker].pk), "partner": "" if partner is None else str(players[partner].pk),
            "points": str(points), "leaster_points": "", "leaster_tricks": ""})
        deltas = settle(players=len(players), picker=picker, partner=partner, picker_points=points,
                        stake_cents=STAKE)
        for seat, points_won in enumerate(hand_points(game="sheepshead", amounts=deltas, options=OPTIONS)):
            worth[table.seats[seat]] += points_won
    nights.save_night(admin=staff, draft=draft, version=hands + 1, members=players)
    return worth


def _online_worth(table: TournamentTable) -> dict[int, int]:
    """Each seat's hands at the online table, in stakes, from the rounds' own results."""
    worth = dict.fromkeys(table.seats, 0)
    for played in Round.objects.filter(match__table=table.table, over=True, voided_at__isnull=True):
        for seat, points in enumerate(hand_points(game="sheepshead", amounts=played.result["deltas"],
                                                  options=OPTIONS)):
            worth[table.seats[seat]] += points
    return worth


def run_sheepshead_championship(*, make_member, staff: User, time: FakeTime, capture, entrants: int, sessions: int,
                                hands: int, seed: int) -> tuple[Tournament, dict[int, int], list[int]]:
    """Every session: drawn, table 1 played at the club, one member of the last table never comes (the bot plays
    their seat), the others play their own hands. Returns the tournament, each member's total by hand calculation
    and the no-shows, one a session."""
    rng = random.Random(seed)
    tournament, members = _entered(make_member, staff, count=entrants, prefix="s", name="Club championship",
                                   game="sheepshead", format="sessions", rounds=sessions, hands_per_session=hands,
                                   options={"stake_cents": STAKE})
    expected = Counter({member.pk: 0 for member in members})
    no_shows: list[int] = []
    for number in range(1, sessions + 1):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        tables = list(drawn.tables.order_by("number"))
        club_tables.set_where(table_id=tables[0].pk, staff=staff, where="club")
        services.start_round(tournament_id=tournament.pk, staff=staff)
        absent = tables[-1].seats[number % len(tables[-1].seats)]
        no_shows.append(absent)
        for table in tables[1:]:
            table.refresh_from_db()
            present = set(table.seats) - {absent}
            with capture(execute=True):
                for member in User.objects.filter(pk__in=present):
                    open_page(table.table, member)
                play_out(table.table, present=present, time=time)
            expected.update(_online_worth(table))
        expected.update(_enter_club_sheet(tables[0], staff, rng, hands))
        time.to(time.now + timedelta(minutes=tournament.no_show_minutes + 1))
        run_pass(lambda: None, jobs={"tournaments": TournamentJob()})  # a clock pass: no-shows marked, results kept
        services.finish_round(tournament_id=tournament.pk, staff=staff)
        marked = TournamentTable.objects.get(pk=tables[-1].pk).no_shows
        assert marked == [absent], (marked, absent)
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    return tournament, dict(expected), no_shows


def check_sheepshead_standings(tournament: Tournament, expected: dict[int, int]) -> None:
    ranked = standings(tournament_id=tournament.pk)
    assert {line.user_id: line.score for line in ranked} == expected
    assert [line.score for line in ranked] == sorted(expected.values(), reverse=True)
    assert [line.place for line in ranked] == list(range(1, len(expected) + 1))
    assert sum(expected.values()) == 0  # every hand's points sum to zero, so the whole field's do
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.published_at is not None


def run_hawsker_swiss(*, make_member, staff: User, time: FakeTime, capture, entrants: int, rounds: int,
                      seed: int) -> tuple[Tournament, Counter[int], list[set[frozenset[int]]]]:
    """Every round: paired, its first pairing played at the club (the winner recorded by staff), the others online
    to the match's end; returns the scores by calculation (a win or a bye: 1) and each round's pairings."""
    rng = random.Random(seed)
    tournament, members = _entered(make_member, staff, count=entrants, prefix="h", name="Hawsker Swiss",
                                   game="hawsker", format="swiss", rounds=rounds)
    scores: Counter[int] = Counter({member.pk: 0 for member in members})
    pairings: list[set[frozenset[int]]] = []
    for _ in range(rounds):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        tables = list(drawn.tables.order_by("number"))
        matches = [table for table in tables if not table.is_bye]
        byes = [table for table in tables if table.is_bye]
        assert len(byes) == entrants % 2
        pairings.append({frozenset(table.players) for table in matches})
        club_tables.set_where(table_id=matches[0].pk, staff=staff, where="club")
        services.start_round(tournament_id=tournament.pk, staff=staff)
        for table in matches[1:]:
            table.refresh_from_db()
            with capture(execute=True):
                for member in User.objects.filter(pk__in=table.players):
                    open_page(table.table, member)
                play_out(table.table, present=set(table.seats), time=time)
            match = Match.objects.get(table=table.table)
            assert match.over and len(match.winners) == 1
            scores[table.seats[match.winners[0]]] += 1
        winner = User.objects.get(pk=rng.choice(matches[0].players))
        club_tables.record_club_winner(table_id=matches[0].pk, staff=staff, winner=winner)
        scores[winner.pk] += 1
        for bye in byes:
            scores[bye.players[0]] += 1
        services.finish_round(tournament_id=tournament.pk, staff=staff)
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    return tournament, scores, pairings


def check_swiss_standings(tournament: Tournament, scores: Counter[int], pairings: list[set[frozenset[int]]]) -> None:
    ranked = standings(tournament_id=tournament.pk)
    assert {line.user_id: line.score for line in ranked} == dict(scores)
    assert [line.score for line in ranked] == sorted(scores.values(), reverse=True)
    met = [pair for round_pairs in pairings for pair in round_pairs]
    assert len(met) == len(set(met)), "a pairing was repeated"
    assert sum(scores.values()) == sum(len(round_pairs) for round_pairs in pairings) + len(pairings)  # wins + byes
