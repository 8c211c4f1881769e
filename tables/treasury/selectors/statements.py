"""A member's statement: every ledger entry of theirs in a period of the club's days, game by game, with where it
was played, what happened, reversals and corrections marked, and a running balance that starts from what they had
before the period. Days and times are the club's (its zone), so every member's statement covers the same hours as
the treasurer's balances and settlements."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from django.db.models import F, Sum
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from rules.engine import registry
from rules.engine.api import GameSpec
from tables.ledger.selectors import (
    EntryAmounts,
    in_period,
    money_text,
    played_before,
    tournament_what,
    tournament_where,
)
from tables.ledger.units import booked
from tables.models import InPersonRecord, LedgerEntry
from tables.play.selectors import round_headline
from tables.treasury.selectors.nights import row_numbers


@dataclass(frozen=True)
class StatementRow(EntryAmounts):
    entry: LedgerEntry
    balance: int  # the member's balance in this game after the entry
    where: str
    result: str
    counts_hand: bool = False  # a hand the member played: a result, online or of a record that was not replaced

    @property
    def marker(self) -> str:
        """"reversal", "correction" or "" (a plain result): the statement marks the rows that fix earlier ones."""
        kind = self.entry.kind
        if kind == LedgerEntry.Kind.REVERSAL:
            return "reversal"
        if kind == LedgerEntry.Kind.CORRECTION or (self.entry.in_person_id and self.entry.in_person.replaces_id):
            return "correction"
        return ""

    @property
    def marker_text(self) -> str:
        """The marker as the statement prints it, in the reader's language."""
        return str(MARKERS.get(self.marker, ""))


MARKERS = {"reversal": _("Reversal"), "correction": _("Correction")}


@dataclass
class GameStatement:
    spec: GameSpec
    opening: int
    rows: list[StatementRow] = field(default_factory=list)

    @property
    def change(self) -> int:
        return sum(row.entry.amount for row in self.rows)

    @property
    def closing(self) -> int:
        return self.opening + self.change

    @property
    def hands(self) -> int:
        """Hands played, as the standings count them: a hand replaced in one step counts once, as its replacement
        (for whoever played it in the replacement), never as the record it replaced."""
        return sum(1 for row in self.rows if row.counts_hand)

    def text(self, amount: int) -> str:
        return money_text(amount, self.spec.unit)

    @property
    def opening_text(self) -> str:
        return self.text(self.opening)

    @property
    def change_text(self) -> str:
        return self.text(self.change)

    @property
    def closing_text(self) -> str:
        return self.text(self.closing)


@dataclass
class Statement:
    member: User
    start: date | None
    end: date | None
    games: list[GameStatement]

    @property
    def empty(self) -> bool:
        return not any(game.rows for game in self.games)


def _where(entry: LedgerEntry, rows: dict[int, int | None]) -> str:
    """Where the entry's hand was played; a hand of a club night by its row on the sheet, which a replacement (and
    its reversals) shares with the hand it replaced (`rows`: the record's row, from selectors.nights.row_numbers)."""
    if entry.round_id is not None:
        table = entry.round.match.table
        # The table as its model names it: a club-made name in the reader's language (tables.play.table_names).
        return gettext("Online: %(table)s, round %(number)s") % {"table": str(table), "number": entry.round.number}
    if entry.tournament_id is not None:
        return tournament_where(entry)
    record = entry.in_person
    if record.night_id is not None and (number := rows.get(record.pk, record.number)) is not None:
        return gettext("Club night of %(day)s, hand %(number)s") % {"day": date_format(record.night.played_on, "d M Y"),
                                                                     "number": number}
    if record.night_id is not None:
        return gettext("Club night of %(day)s") % {"day": date_format(record.night.played_on, "d M Y")}
    return gettext("At the club's table, %(day)s") % {"day": date_format(record.played_on, "d M Y")}


def _names_by_round(round_ids: set[int]) -> dict[int, list[str]]:
    found: dict[int, dict[int, str]] = defaultdict(dict)
    for round_id, seat, label in LedgerEntry.objects.filter(
            round_id__in=round_ids, kind=LedgerEntry.Kind.RESULT).values_list("round_id", "seat", "label"):
        found[round_id][seat] = label
    return {rid: [seats.get(p, gettext("seat %(number)s") % {"number": p + 1}) for p in range(max(seats) + 1)]
            for rid, seats in found.items()}


def _result(entry: LedgerEntry, names: dict[int, list[str]]) -> str:
    by = entry.made_by.shown_name if entry.made_by_id else gettext("the treasurer")
    if entry.kind == LedgerEntry.Kind.REVERSAL:
        return gettext("Reversal of an earlier entry, by %(by)s: %(reason)s") % {"by": by, "reason": entry.reason}
    if entry.kind == LedgerEntry.Kind.CORRECTION:
        return gettext("Corrected amount, by %(by)s: %(reason)s") % {"by": by, "reason": entry.reason}
    if entry.tournament_id is not None:
        return tournament_what(entry)
    if entry.in_person_id is not None:
        record = entry.in_person
        if record.replaces_id:
            return gettext("Corrected hand (%(reason)s): %(summary)s") % {"reason": record.reason,
                                                                           "summary": record.summary_shown}
        return record.summary_shown
    summary = (entry.round.result or {}).get("summary") or {}
    return round_headline(summary, names.get(entry.round_id, [])) or gettext("Result")


def statement(*, member: User, game: str | None = None, start: date | None = None,
              end: date | None = None) -> Statement:
    """The member's entries of hands played on the club's days `start` to `end` (`in_period`: the day played, not
    the day booked), in the order played, one section per game they have a balance or an entry in (just `game` when
    given), each opening with the balance from every hand played before."""
    mine = booked(LedgerEntry.objects.filter(member=member))  # the member's account: a tournament's points owe nothing
    if game:
        mine = mine.filter(game=game)
    opening: dict[str, int] = {}
    if start is not None:
        opening = {row["game"]: row["total"] or 0 for row in played_before(mine, start).values("game")
                   .annotate(total=Sum("amount")).order_by()}
    entries = list(in_period(mine, start, end).annotate(day_played=F("played"))
                   .select_related("round__match__table", "in_person__night", "tournament", "made_by")
                   .order_by("played", "created_at", "id"))
    names = _names_by_round({e.round_id for e in entries if e.round_id is not None})
    rows = row_numbers({e.in_person for e in entries if e.in_person_id is not None})
    replaced = set(InPersonRecord.objects.filter(
        pk__in={e.in_person_id for e in entries if e.in_person_id is not None}, replaced_by__isnull=False,
    ).values_list("pk", flat=True))
    sections: dict[str, GameStatement] = {}
    for spec in registry.all_specs():
        if (game and spec.key == game) or opening.get(spec.key):
            sections[spec.key] = GameStatement(spec=spec, opening=opening.get(spec.key, 0))
    running = dict(opening)
    for entry in entries:
        if entry.game not in sections:
            if not registry.known(entry.game):
                continue
            sections[entry.game] = GameStatement(spec=registry.spec(entry.game), opening=opening.get(entry.game, 0))
        running[entry.game] = running.get(entry.game, 0) + entry.amount
        counts = (entry.kind == LedgerEntry.Kind.RESULT and entry.in_person_id not in replaced
                  and entry.tournament_id is None)  # a tournament's fee and prize is money, not a hand
        sections[entry.game].rows.append(StatementRow(entry=entry, balance=running[entry.game],
                                                      where=_where(entry, rows), result=_result(entry, names),
                                                      counts_hand=counts))
    order = {key: index for index, key in enumerate(registry.game_keys())}
    return Statement(member=member, start=start, end=end,
                     games=sorted(sections.values(), key=lambda s: order.get(s.spec.key, len(order))))


def members_in_period(*, game: str | None, start: date | None, end: date | None) -> list[User]:
    """Everyone with an entry of a hand played in the period (in `game`, when given), by name."""
    entries = in_period(booked(LedgerEntry.objects.filter(member__isnull=False)), start, end)
    if game:
        entries = entries.filter(game=game)
    ids = entries.values_list("member_id", flat=True).distinct().order_by()
    return sorted(User.objects.filter(pk__in=ids), key=lambda u: (u.shown_name.lower(), u.pk))


def statements_for_everyone(*, game: str | None, start: date | None, end: date | None) -> list[Statement]:
    return [statement(member=m, game=game, start=start, end=end)
            for m in members_in_period(game=game, start=start, end=end)]
