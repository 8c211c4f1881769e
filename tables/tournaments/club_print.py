"""What a round's print page shows (a read, no writes): a seat card for every player of the round and a score sheet
for every table played at the club.

Why paper at all: at the club's physical tables the session is played and scored on paper, and the treasurer copies
that paper into the night sheet; the seat cards tell each member where to sit, and the score sheet has the players
in seat order (the first deals first), one row per hand of the session, so the paper and the sheet agree from the
start. A Puskiyon session is one game to a target, however many hands that takes: its sheet has rows enough for a
long game (TARGET_SHEET_ROWS) and staff enter only the final totals from it. An online table gets seat cards too
(saying it is played online): a member with a card knows where they play. A player of the club's tables only
(tables.tournaments.club_players) at an online table is marked, so the organiser moves that table to the club
before starting the round (services.start_round refuses until then).
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from tables.models import NightDraft, Tournament, TournamentRound, TournamentTable
from tables.tournaments.club_tables import round_word, table_label
from tables.tournaments.services import session_target

TARGET_SHEET_ROWS = 20  # a Puskiyon game to 200 at four rarely runs past it; the paper has room on its back


@dataclass(frozen=True)
class SeatCard:
    member: User
    table: TournamentTable
    seat: int | None  # None: a bye
    deals_first: bool
    cannot_come: bool  # plays only at the club, drawn at a table played online


@dataclass(frozen=True)
class ScoreSheet:
    table: TournamentTable
    label: str
    players: list[User]  # seat order: the first deals first
    rows: list[int]  # each hand's number (a Swiss or round-robin pairing: one match)
    draft: NightDraft | None  # the treasurer's sheet, once opened


@dataclass(frozen=True)
class RoundPrint:
    tournament: Tournament
    round: TournamentRound
    round_title: str
    cards: list[SeatCard]
    sheets: list[ScoreSheet]
    sessions: bool
    target: int | None  # a session of a game played to a target (Puskiyon): the total it ends at
    club_only_online: dict[int, list[User]]  # table number: its players of the club's tables only, if it plays online


def round_print(*, tournament: Tournament, round: TournamentRound) -> RoundPrint:
    tables = list(round.tables.order_by("number"))
    members = User.objects.in_bulk([seat for table in tables for seat in table.players])
    sessions = tournament.format == Tournament.Format.SESSIONS
    target = session_target(tournament)
    drafts = {draft.tournament_table_id: draft
              for draft in NightDraft.objects.filter(tournament_table__in=tables).order_by("-pk")}
    cards: list[SeatCard] = []
    sheets: list[ScoreSheet] = []
    club_only_online: dict[int, list[User]] = {}
    for table in tables:
        table.round = round  # for the labels, without a query per table
        online = table.where == TournamentTable.Where.ONLINE and not table.is_bye and not table.void
        for index, member_id in enumerate(table.players):
            member = members[member_id]
            cannot_come = online and member.plays_only_at_club
            cards.append(SeatCard(member=member, table=table, seat=None if table.is_bye else index + 1,
                                  deals_first=index == 0 and not table.is_bye, cannot_come=cannot_come))
            if cannot_come:
                club_only_online.setdefault(table.number, []).append(member)
        if table.is_bye or table.void or table.where != TournamentTable.Where.CLUB:
            continue
        hands = TARGET_SHEET_ROWS if target else tournament.hands_per_session if sessions else 1
        sheets.append(ScoreSheet(table=table, label=table_label(table), players=[members[m] for m in table.players],
                                 rows=list(range(1, hands + 1)), draft=drafts.get(table.pk)))
    return RoundPrint(tournament=tournament, round=round, round_title=round_word(tournament, round.number),
                      cards=cards, sheets=sheets, sessions=sessions, target=target,
                      club_only_online=club_only_online)
