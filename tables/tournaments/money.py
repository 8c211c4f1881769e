"""A tournament's entry fees and prizes as money: what each entrant pays and wins, and the booking of it.

The issue asks for prizes as shares of the entry fees, recorded in the ledger as money. They are booked once, when
the results are published (tables.tournaments.controls.publish_results, in its transaction under the tournament's
row lock): before that the standings may still change, and a cancelled tournament is never published, so it books
nothing. A tournament without a fee books nothing either.

The sums: every entrant on the final entry list (the live entries, the standings' field) pays the fee; the pot is
the fee times the entrants; place N's prize is pot x share N // 100 cents (the page's figures, rendering.prizes).
Members the standings rank apart only by the lot drawn from the seed (sessions: equal points; Swiss and round robin:
equal score, Buchholz and direct encounter) are tied: they pool the prizes of the places they hold and each takes an
equal share, down to the cent. The house (the club) takes what is left of the pot (the shares may add up to less
than 100, and the cents rounded away), so the entries sum to exactly zero.

One entry per entrant, fee and prize netted (the ledger keeps one result per seat and source), in place order, the
house's last; the breakdown is recomputed from the standings wherever it is shown (the tournament's page, the
member's history and statement through the fee, the books' check), so no second record of it can disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from accounts.models import User
from tables.ledger.services.ledger import record_tournament_money
from tables.models import LedgerEntry, Tournament, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import record, selectors


@dataclass(frozen=True)
class MoneyLine:
    """One entrant's part: their place in the final standings, the fee they pay and the prize they win."""

    place: int
    user_id: int
    fee: int
    prize: int
    tied: bool = False  # their prize is a share of tied places' pooled prizes

    @property
    def amount(self) -> int:
        """What their one ledger entry says: the prize less the fee."""
        return self.prize - self.fee


@dataclass(frozen=True)
class FeesAndPrizes:
    pot: int
    lines: list[MoneyLine]  # in the standings' order
    house: int  # what the prizes leave of the pot: the club's

    def ledger_lines(self) -> list[tuple[int | None, int]]:
        """(member id, amount) in the order the entries take their seats: the entrants by place, then the house
        (when it keeps anything)."""
        lines: list[tuple[int | None, int]] = [(line.user_id, line.amount) for line in self.lines]
        return [*lines, (None, self.house)] if self.house else lines


def _tie_keys(tournament: Tournament, standings: Sequence[selectors.Standing]) -> dict[int, tuple[int, ...]]:
    """What the standings rank each member by before the lot: members with equal keys are tied."""
    if tournament.format == Tournament.Format.SESSIONS:
        return {one.user_id: (one.score,) for one in standings}
    games = record.swiss_record(tournament).games
    level = {one.user_id: (one.score, one.buchholz or 0) for one in standings}

    def direct(user_id: int) -> int:  # swiss.standings_after's direct encounter: wins against the others level
        tied = {str(other) for other, key in level.items() if key == level[user_id]}
        return sum(1 for game in games if game.winner == str(user_id) and {game.first, game.second} <= tied)

    return {user_id: (*key, direct(user_id)) for user_id, key in level.items()}


def _missing_results(tournament: Tournament) -> list[str]:
    tables = TournamentTable.objects.filter(round__tournament=tournament, voided_at__isnull=True,
                                            winner__isnull=True, points__isnull=True).select_related("round")
    return [gettext("round %(round)s, table %(table)s") % {"round": table.round.number, "table": table.number}
            for table in tables.order_by("round__number", "number")]


def fees_and_prizes(tournament: Tournament,
                    standings: Sequence[selectors.Standing] | None = None) -> FeesAndPrizes | None:
    """The fees and prizes the final standings say (None: the tournament charges no fee). Refused (TableError) when
    nobody entered or a table has no result, for then there are no final standings to pay."""
    fee = tournament.entry_fee_cents
    if not fee:
        return None
    standings = list(standings if standings is not None else selectors.standings(tournament_id=tournament.pk))
    if not standings:
        raise TableError(gettext("Nobody entered this tournament, so there are no entry fees or prizes to book."))
    missing = _missing_results(tournament)
    if missing:
        raise TableError(gettext("Tables still without a result: %(tables)s.") % {"tables": ", ".join(missing)})
    pot = fee * len(standings)
    shares = list(tournament.prize_shares or [])

    def prize_of(place: int) -> int:
        return pot * shares[place - 1] // 100 if place <= len(shares) else 0

    keys = _tie_keys(tournament, standings)
    lines: list[MoneyLine] = []
    start = 0
    while start < len(standings):
        end = start + 1
        while end < len(standings) and keys[standings[end].user_id] == keys[standings[start].user_id]:
            end += 1
        group = standings[start:end]
        pooled = sum(prize_of(one.place) for one in group)
        each = pooled // len(group)
        tied = len(group) > 1 and pooled > 0
        lines.extend(MoneyLine(place=one.place, user_id=one.user_id, fee=fee, prize=each, tied=tied) for one in group)
        start = end
    return FeesAndPrizes(pot=pot, lines=lines, house=pot - sum(line.prize for line in lines))


def book_fees_and_prizes(tournament: Tournament) -> list[LedgerEntry]:
    """The fees and prizes written to the ledger (nothing without a fee). Called by controls.publish_results inside
    its transaction, the tournament's row locked and `published_at` just set (the entries' date)."""
    plan = fees_and_prizes(tournament)
    if plan is None:
        return []
    users = User.objects.in_bulk([line.user_id for line in plan.lines])
    return record_tournament_money(tournament=tournament, lines=[
        (users[member_id] if member_id is not None else None, amount) for member_id, amount in plan.ledger_lines()])
