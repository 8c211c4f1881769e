"""Tournament tables played at the club, at a physical table, rather than online (issue 45, the in-person half).

A session may mix both: the organiser marks each drawn table "online" or "club" before its round starts, and from
the start on where a table plays is fixed (members were told where to sit; an online table is seated at its start).

A club table's result comes from paper, as any club night's does: a session table's hands go on the treasurer's
night sheet (tables.treasury.services.nights), which this module opens for the table, prefilled with its players in
seat order and the tournament's stake, and which records the table's points when it is saved (in the same
transaction as the night); a Swiss or round-robin table's winner is chosen by staff from its two players; a session
table of a game played to a target (Puskiyon, which the night sheet does not keep) records each player's final
total, entered by staff from the paper, converted to points as the online table's hands are. Each
function is one transaction that locks the tournament's row first (services._locked_table), as every tournament
write does.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from rules.engine.puskiyon.scoring import CARD_POINTS
from rules.engine.sheepshead.house import NIGHT_OPTIONS
from tables.models import NightDraft, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments.scoring import totals_points
from tables.tournaments.services import (
    _ensure_open,
    _ensure_staff,
    _locked_table,
    plays_to_target,
    record_swiss_result,
    session_target,
    set_points,
)
from tables.treasury.services import nights

WHERE = TournamentTable.Where


def round_word(tournament: Tournament, number: int) -> str:
    """"Session 2" or "Round 2", as the tournament's format calls its rounds."""
    if tournament.format == Tournament.Format.SESSIONS:
        return gettext("Session %(number)s") % {"number": number}
    return gettext("Round %(number)s") % {"number": number}


def table_label(table: TournamentTable) -> str:
    """The table as the club names it on paper and on the night: "<tournament>, session N, table M"."""
    tournament = table.round.tournament
    if tournament.format == Tournament.Format.SESSIONS:
        text = gettext("%(tournament)s, session %(session)s, table %(table)s")
    else:
        text = gettext("%(tournament)s, round %(session)s, table %(table)s")
    return text % {"tournament": tournament.name, "session": table.round.number, "table": table.number}


def set_where(*, table_id: int, staff: User, where: str) -> TournamentTable:
    """The drawn table is played online or at the club. Only before its round starts (from then on members sit
    where they were told), and never for a bye (there is no game to play anywhere)."""
    with transaction.atomic():
        _ensure_staff(staff)
        if where not in WHERE.values:
            raise TableError(gettext("A tournament table is played online or at the club."))
        tournament, table = _locked_table(table_id)
        if table.round.status != TournamentRound.Status.DRAWN:
            raise TableError(gettext("Round %(number)s has started: where its tables play is fixed.")
                             % {"number": table.round.number})
        if table.is_bye:
            raise TableError(gettext("A bye is played nowhere."))
        if table.void:
            raise TableError(gettext("That table was voided."))
        if where == WHERE.CLUB:
            _ensure_sheet_scores(tournament)
        if table.where != where:
            table.where = where
            table.save(update_fields=["where"])
        return table


SHEET_CANNOT_SCORE = {"hawk": ("bonus_per_trick",)}
"""House rules a game's club score sheet does not take: the treasurer's Hawk sheet counts each bonus kind once per
side, so a tournament that counts every bonus trick would score its club tables by another rule than its online
ones."""


def _ensure_sheet_scores(tournament: Tournament) -> None:
    """The tournament's house rules are ones its club tables' sheet can score."""
    rules = tournament.house_rules
    if any(rules.get(name) for name in SHEET_CANNOT_SCORE.get(tournament.game, ())):
        raise TableError(gettext("The club's score sheet counts each bonus kind once per side; this tournament "
                                 "counts every bonus trick, so its tables play online."))


def _club_table_playing(table: TournamentTable) -> None:
    """The table is one played at the club, in a round being played, with a result still to come."""
    _ensure_open(table)
    if table.is_bye:
        raise TableError(gettext("A bye has no match to record."))
    if table.where != WHERE.CLUB:
        raise TableError(gettext("Table %(number)s is played online: its result comes from its table.")
                         % {"number": table.number})
    if table.round.status != TournamentRound.Status.PLAYING:
        raise TableError(gettext("Round %(number)s has not started yet.") % {"number": table.round.number})


def open_table_sheet(*, table_id: int, staff: User) -> NightDraft:
    """The treasurer's night sheet for a session table played at the club: its players in seat order (the first
    deals first), today, the tournament's stake (and any house rule among its options), linked to the table. One per
    table: asked again, it is the same sheet (still open, or signed off and read-only)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        if tournament.format != Tournament.Format.SESSIONS:
            raise TableError(gettext("A Swiss or round-robin table records its winner, not a sheet of hands."))
        if plays_to_target(tournament.game):
            raise TableError(gettext("A %(game)s table at the club records each player's final total, not a sheet "
                                     "of hands.") % {"game": registry.spec(tournament.game).title})
        existing = NightDraft.objects.filter(tournament_table=table).order_by("pk").first()
        if existing is not None:
            return existing
        _club_table_playing(table)
        by_id = User.objects.in_bulk(table.players)
        players = [by_id[member_id] for member_id in table.players]
        options = tournament.house_rules
        house = {option.name: options[option.name] for option in NIGHT_OPTIONS if option.name in options}
        return nights.open_sheet(
            admin=staff, game=tournament.game, played_on=timezone.localdate(), players=players,
            stake_cents=options.get("stake_cents"), note=table_label(table), house=house or None,
            tournament_table=table)


def record_club_winner(*, table_id: int, staff: User, winner: User) -> TournamentTable:
    """A Swiss or round-robin match played at the club: staff record who won (services.record_swiss_result, which
    keeps a recorded result standing)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        if tournament.format == Tournament.Format.SESSIONS:
            raise TableError(gettext("A session's tables record points, not a winner."))
        _club_table_playing(table)
        return record_swiss_result(table_id=table_id, winner=winner)


DECK_POINTS = sum(CARD_POINTS.values())  # the most one Puskiyon hand can add to a total: every card held


def record_club_totals(*, table_id: int, staff: User, totals: Sequence[int]) -> TournamentTable:
    """A Puskiyon session played at the club: staff enter each seat's final total (the penalty points each player
    ended the game with), in seat order, from the table's paper. The game ends after the hand in which a total
    reaches the target, so at least one does, and none can pass it by more than one hand's cards. The table's points
    are the totals converted as an online table's hands are (scoring.totals_points), written by the one check every
    session result passes (services.set_points). Recorded once: a wrong result is voided, not overwritten."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        target = session_target(tournament)
        if target is None:
            raise TableError(gettext("Only a session of a game played to a target records final totals."))
        _club_table_playing(table)
        if table.points is not None:
            raise TableError(gettext("That table's result is already recorded."))
        given = list(totals)
        players = table.players
        if len(given) != len(players):
            raise TableError(gettext("Give one total for each of the table's %(count)s players.")
                             % {"count": len(players)})
        if any(not isinstance(total, int) or isinstance(total, bool) or total < 0 for total in given):
            raise TableError(gettext("Totals are whole numbers, 0 or more."))
        if max(given) < target:
            raise TableError(gettext("Nobody's total reaches %(target)s: the game goes on until one does.")
                             % {"target": target})
        most = target - 1 + DECK_POINTS
        if max(given) > most:
            raise TableError(gettext("A game to %(target)s ends with totals of at most %(most)s.")
                             % {"target": target, "most": most})
        points = totals_points(game=tournament.game, totals=given, options=tournament.house_rules)
        return set_points(tournament, table, points=dict(zip(players, points, strict=True)))
