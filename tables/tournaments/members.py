"""A member's tournaments, for their profile page: the latest ones they entered, with their place once there are
standings (a draw made). Public, as the tournaments' pages are; drafts are the organisers' and left out."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from tables.models import Entry, Tournament
from tables.tournaments import selectors

SHOWN = 10


@dataclass(frozen=True)
class MemberTournament:
    tournament: Tournament
    place: int | None  # None: not drawn yet, or withdrawn before the start
    field: int


def member_tournaments(*, member: User) -> list[MemberTournament]:
    entries = (Entry.objects.filter(user=member, status=Entry.Status.ENTERED)
               .exclude(tournament__status=Tournament.Status.DRAFT)
               .select_related("tournament").order_by("-tournament__created_at")[:SHOWN])
    rows = []
    for entry in entries:
        tournament = entry.tournament
        standings = selectors.standings(tournament_id=tournament.pk) if tournament.current_round else []
        place = next((one.place for one in standings if one.user_id == member.pk), None)
        rows.append(MemberTournament(tournament=tournament, place=place, field=len(standings)))
    return rows
