"""Tournaments for the club-table tests, made through the services as the organiser would."""

from __future__ import annotations

from tables.models import Tournament
from tables.tournaments import services

CLUB_HANDS = 5  # the club table fixture's session (conftest.club_table)
CLUB_STAKE = 50


def session_tournament(make_member, staff, *, count: int, hands: int = 4, game: str = "sheepshead",
                       prefix: str = "p", stake_cents: int | None = None) -> tuple[Tournament, list]:
    options = {"stake_cents": stake_cents} if stake_cents is not None else None
    tournament = services.create_tournament(organiser=staff, name="Club championship", game=game, format="sessions",
                                            rounds=2, hands_per_session=hands, options=options)
    members = [make_member(f"{prefix}{index:02d}", display_name=f"{prefix.title()}layer {index:02d}")
               for index in range(count)]
    _enter(tournament, staff, members)
    return tournament, members


def swiss_tournament(make_member, staff, *, count: int, prefix: str = "h") -> tuple[Tournament, list]:
    tournament = services.create_tournament(organiser=staff, name="Winter Hawsker", game="hawsker", format="swiss",
                                            rounds=3)
    members = [make_member(f"{prefix}{index:02d}", display_name=f"Hawsker {index:02d}") for index in range(count)]
    _enter(tournament, staff, members)
    return tournament, members


def _enter(tournament: Tournament, staff, members: list) -> None:
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
