"""The demo's tournaments (issue 45), so that a club started from the README shows one of each kind a member meets:
a Sheepshead championship taking entries (a member may enter it) and a Hawsker Swiss played at the club, finished
with its results published (standings, rounds and a winner to look at).

Made through the organiser's own services, as staff would from the pages; found again by name, so seeding twice
adds nothing. The finished one charges no fee: a fee is booked as money when results are published, and the demo's
books are its matches' alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.utils import timezone

from accounts.models import User
from tables.models import Tournament, TournamentRound, TournamentTable
from tables.tournaments import club_tables, controls, services

CHAMPIONSHIP = "Club Sheepshead championship"
CHAMPIONSHIP_ENTRANTS = ("alice", "bob", "carol", "dave", "erin")  # frank may enter it himself
SWISS = "Autumn Hawsker open"
SWISS_ENTRANTS = ("alice", "bob", "carol", "dave", "erin")  # five: a bye each round
SWISS_ROUNDS = 3
ORGANISER = "treasurer"


@dataclass(frozen=True)
class TournamentsReport:
    created: int
    existing: int
    skipped: list[str]


def seed_tournaments() -> TournamentsReport:
    created = existing = 0
    skipped: list[str] = []
    organiser = User.objects.filter(username=ORGANISER, is_staff=True).first()
    for name, make, usernames in ((CHAMPIONSHIP, _championship, CHAMPIONSHIP_ENTRANTS),
                                  (SWISS, _finished_swiss, SWISS_ENTRANTS)):
        if Tournament.objects.filter(name=name).exists():
            existing += 1
            continue
        members = list(User.objects.filter(username__in=usernames))
        if organiser is None or len(members) != len(usernames):
            skipped.append(f"{name}: the demo members are missing")
            continue
        members.sort(key=lambda user: usernames.index(user.username))
        make(organiser, members)
        created += 1
    return TournamentsReport(created=created, existing=existing, skipped=skipped)


def _next_saturday_afternoon() -> datetime:
    today = timezone.localdate()
    days = (5 - today.weekday()) % 7 or 7
    return timezone.make_aware(datetime.combine(today + timedelta(days=days), time(14, 0)))


def _championship(organiser: User, members: list[User]) -> None:
    """Taking entries: three sessions of twenty hands at tables of five, a fee with prizes for the first three."""
    tournament = controls.organise(
        organiser=organiser, name=CHAMPIONSHIP, game="sheepshead", format=Tournament.Format.SESSIONS, rounds=3,
        hands_per_session=20, options={"stake_cents": 50}, rated=True, starts_at=_next_saturday_afternoon(),
        entry_fee_cents=500, prize_shares=(50, 30, 20),
    )
    services.open_entries(tournament_id=tournament.pk, staff=organiser)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)


def _finished_swiss(organiser: User, members: list[User]) -> None:
    """Played at the club's tables, each match's winner recorded by staff: the first mover wins in the first round,
    the second mover after that (so the standings are not simply the draw's order), then published."""
    tournament = controls.organise(organiser=organiser, name=SWISS, game="hawsker", format=Tournament.Format.SWISS,
                                   rounds=SWISS_ROUNDS, options={"short": True})
    services.open_entries(tournament_id=tournament.pk, staff=organiser)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=organiser)
    by_id = {member.pk: member for member in members}
    for number in range(1, SWISS_ROUNDS + 1):
        drawn: TournamentRound = services.draw_next_round(tournament_id=tournament.pk, staff=organiser)
        matches: list[TournamentTable] = [table for table in drawn.tables.order_by("number") if not table.is_bye]
        for table in matches:
            club_tables.set_where(table_id=table.pk, staff=organiser, where=TournamentTable.Where.CLUB)
        services.start_round(tournament_id=tournament.pk, staff=organiser)
        for table in matches:
            first, second = table.seats
            winner = by_id[first if number == 1 else second]
            club_tables.record_club_winner(table_id=table.pk, staff=organiser, winner=winner)
        services.finish_round(tournament_id=tournament.pk, staff=organiser)
    controls.publish_results(tournament_id=tournament.pk, staff=organiser)
