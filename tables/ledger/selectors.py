"""Reads of the club's books and of finished rounds: my history, standings, balances, replays.

Balances are never stored: they are sums of ledger entries over a period, so a correction (a
reversing entry plus a new one) changes them without anyone editing a row. A replay rebuilds a
round from its seed and its recorded moves with the engine; it is offered only for rounds that
are over, because until then the seed, the hands and the blind are secret, from admins too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Case, Count, DateField, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce, NullIf, TruncDate
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from accounts.time_zones import zone_named
from rules.engine import registry
from rules.engine.api import Config, GameSpec
from rules.engine.api import Match as EngineMatch
from rules.engine.moves import Move as EngineMove
from tables.ledger.summaries import points_headline
from tables.ledger.units import booked, is_tournament_points
from tables.models import (
    InPersonRecord,
    LedgerEntry,
    MatchPlace,
    MatchResult,
    Move,
    NightPayment,
    Round,
    Season,
    Seat,
    Settlement,
    TournamentTable,
)
from tables.play.amounts import points_text
from tables.play.bot_names import bot_player_name, level_order
from tables.play.request_dates import calendar_day
from tables.play.selectors import name_seats, round_headline, seat_label
from tables.play.table_names import shown_name
from tables.tournaments.scoring import hand_points

HOUSE = gettext_noop("Bots (the house)")  # English here; shown through gettext(HOUSE)


def played_day() -> Coalesce:
    """The club's day an entry's hand was played, as a query expression: an in-person record's `played_on` (a night's
    date), else the day its online round finished in the club's zone (a round finished at 23:30 on the 4th in the
    club's zone is the 4th's, whatever the UTC date). The booking time (`created_at`) is the last resort only, for a
    round that kept no finish. A reversal or correction has the source of the entry it fixes, so it counts on the day
    that hand was played: "the 4 Dec night" totals what the 4 Dec hands came to once corrected, whenever the
    correction was booked (the booking time stays on the entry and is shown beside it)."""
    zone = club_zone()
    return Coalesce(F("in_person__played_on"), TruncDate("round__finished_at", tzinfo=zone),
                    TruncDate("created_at", tzinfo=zone), output_field=DateField())


def in_period(entries: QuerySet[LedgerEntry], start: date | None, end: date | None) -> QuerySet[LedgerEntry]:
    """Entries of hands played on the club's days `start` to `end` (both days included, either may be open), by the
    day played (`played_day`), never by the day they were booked. The day is an alias, `played`: order by it, or
    select it (`.annotate(day_played=F("played"))`); left out of the select, it never joins a GROUP BY."""
    start, end = calendar_day(start), calendar_day(end)
    entries = entries.alias(played=played_day())
    if start is not None:
        entries = entries.filter(played__gte=start)
    if end is not None:
        entries = entries.filter(played__lte=end)
    return entries


def played_before(entries: QuerySet[LedgerEntry], day: date) -> QuerySet[LedgerEntry]:
    """Entries of hands played before the club's day `day`: what a period's opening balance sums."""
    return entries.alias(played=played_day()).filter(played__lt=calendar_day(day))


def dollars_text(cents: int | float, *, signed: bool = True) -> str:
    """Dollars in the active language's number format, the sign before it: "+$12.50" in English, "+12,50 $" in
    German (where the unit follows the number). The club's unit stays the dollar whatever the language; where the
    sign goes is the catalogue's business ("$%(amount)s"), the digits Django's (`number_format`)."""
    sign = "-" if cents < 0 else "+" if cents > 0 and signed else ""
    number = number_format(Decimal(f"{abs(cents) / 100:.2f}"), decimal_pos=2, use_l10n=True)
    # Translators: an amount of the club's money; %(amount)s is the number, already in your format ("12,50").
    return sign + gettext("$%(amount)s") % {"amount": number}


def money_text(amount: int, unit: str) -> str:
    if unit == "cents":
        return dollars_text(amount)
    return points_text(amount, signed=True)


class EntryAmounts:
    """A line of a member's books (history, statements): its entry's amount and the running balance, as text, and
    the day its hand was played beside the moment it was booked."""

    entry: LedgerEntry
    balance: int

    @property
    def played(self) -> date:
        """The club's day the entry's hand was played (`in_period` selects it as `day_played`)."""
        found = getattr(self.entry, "day_played", None)
        return found if found is not None else timezone.localdate(self.entry.created_at, timezone=club_zone())

    @property
    def booked_later(self) -> bool:
        """Whether the entry was booked on another of the club's days than its hand was played (a night entered the
        next morning, a correction): then both are shown."""
        return timezone.localdate(self.entry.created_at, timezone=club_zone()) != self.played

    @property
    def amount_text(self) -> str:
        return money_text(self.entry.amount, self.entry.unit)

    @property
    def balance_text(self) -> str:
        return money_text(self.balance, self.entry.unit)


def tournament_where(entry: LedgerEntry) -> str:
    """Where an entry of a tournament's entry fees and prizes comes from: the tournament, by name."""
    return gettext("Tournament: %(name)s") % {"name": entry.tournament.name}


def tournament_what(entry: LedgerEntry) -> str:
    """A tournament's fee and prize entry taken apart again: the fee paid and the prize won (the entry is their
    difference, tables.tournaments.money), or, for the house, that it is what the prizes left of the fees."""
    if entry.member_id is None:
        return gettext("What the prizes left of the entry fees")
    fee = entry.tournament.entry_fee_cents
    prize = entry.amount + fee
    if prize:
        return gettext("Entry fee %(fee)s, prize %(prize)s") % {"fee": dollars_text(fee, signed=False),
                                                                "prize": dollars_text(prize, signed=False)}
    return gettext("Entry fee %(fee)s") % {"fee": dollars_text(fee, signed=False)}


@dataclass
class HistoryRow(EntryAmounts):
    entry: LedgerEntry
    balance: int  # the member's running balance in this game after the entry
    names: list[str] = field(default_factory=list)  # who sat where in the entry's online round

    @property
    def where(self) -> str:
        entry = self.entry
        if entry.round_id is not None:
            table = entry.round.match.table
            # A club-made name ("Alice's Sheepshead table 2", stored in English) in the reader's language.
            called = shown_name(table.name) if table.name else gettext("%(game)s table") % {
                "game": table.get_game_display()}
            return gettext("%(table)s, round %(number)s") % {"table": called, "number": entry.round.number}
        if entry.tournament_id is not None:
            return tournament_where(entry)
        return gettext("At the club's table, %(day)s") % {"day": date_format(entry.in_person.played_on)}

    @property
    def what(self) -> str:
        entry = self.entry
        if entry.kind == LedgerEntry.Kind.RESULT:
            if entry.tournament_id is not None:
                return tournament_what(entry)
            if entry.in_person_id is not None:
                record = entry.in_person
                if is_tournament_points(game=entry.game, unit=entry.unit):  # the stake means nothing there
                    return points_headline(record.summary_sentence)
                if record.replaces_id is not None:
                    by = record.recorded_by.shown_name
                    return gettext("%(summary)s (replacing an earlier record, by %(by)s: %(reason)s)") % {
                        "summary": record.summary_shown, "by": by, "reason": record.reason}
                return record.summary_shown
            summary = (entry.round.result or {}).get("summary") or {}
            return round_headline(summary, self.names) or gettext("Result")
        by = entry.made_by.shown_name if entry.made_by else gettext("an admin")
        if entry.kind == LedgerEntry.Kind.REVERSAL:
            return gettext("Reversed by %(by)s: %(reason)s") % {"by": by, "reason": entry.reason}
        return gettext("Corrected by %(by)s: %(reason)s") % {"by": by, "reason": entry.reason}


@dataclass
class GameBalance:
    game: str
    title: str
    unit: str
    opening: int = 0
    change: int = 0
    rounds: int = 0
    paid: int = 0  # paid at the club's table up to the period's end, less what was received there
    payments: int = 0  # how many payments that counts

    @property
    def closing(self) -> int:
        return self.opening + self.change

    @property
    def owed(self) -> int:
        """The balance once the payments made at the table are counted: what is still owed (negative) or still to
        be received (positive)."""
        return self.closing + self.paid

    @property
    def owed_text(self) -> str:
        return money_text(self.owed, self.unit)

    @property
    def opening_text(self) -> str:
        return money_text(self.opening, self.unit)

    @property
    def change_text(self) -> str:
        return money_text(self.change, self.unit)

    @property
    def closing_text(self) -> str:
        return money_text(self.closing, self.unit)


@dataclass
class MatchRow:
    """A match the member played, as their history shows it: where they placed, and the rounds they may replay
    (those the ledger has them in, as `can_see_round` decides)."""

    place: MatchPlace  # the member's line, with its result and table
    players: int
    rounds: list[tuple[int, int]] = field(default_factory=list)  # (round number, round id), in order

    @property
    def result(self) -> MatchResult:
        return self.place.result

    @property
    def title(self) -> str:
        game = self.result.game
        return registry.spec(game).title if registry.known(game) else game

    @property
    def total_text(self) -> str:
        game = self.result.game
        if not registry.known(game) or is_tournament_points(game=game, unit=self.result.unit):
            return money_text(self.place.total, self.result.unit)
        return amount_text(self.place.total, registry.spec(game))

    @property
    def outcome(self) -> str:
        return "won" if self.place.won else "lost"


MATCHES_SHOWN = 100


def payment_sentence(payment: NightPayment) -> str:
    """ "Carol paid Alice $9.25 on 4 Dec 2026": how a payment made at the table reads, on the night's settle sheet and
    in a member's history."""
    return gettext("%(payer)s paid %(payee)s %(amount)s on %(day)s") % {
        "payer": payment.payer.shown_name, "payee": payment.payee.shown_name,
        "amount": dollars_text(payment.amount, signed=False), "day": date_format(payment.paid_on, "j M Y")}


@dataclass(frozen=True)
class PaymentRow:
    """A payment the member made or received: at the club's table for a night, or in a settlement of a game's books
    (the treasurer settles a game when its payments have been made)."""

    key: str  # "night-<payment id>" or "settlement-<id>-<n>": one per row, for the page's markup
    sentence: str
    context: str  # what it paid: the night, or the settlement
    made: bool  # True: the member paid; False: the member was paid
    day: date


@dataclass
class History:
    rows: list[HistoryRow]  # newest first
    balances: list[GameBalance]
    matches: list[MatchRow] = field(default_factory=list)  # newest first, at most MATCHES_SHOWN
    payments: list[PaymentRow] = field(default_factory=list)  # in the period, newest first


def _payments(user: User, game: str | None, start: date | None, end: date | None,
              balances: dict[str, GameBalance]) -> list[PaymentRow]:
    """The member's payments in the period, newest first: those made at the table for a night, and their part of each
    settlement of a game's books. Every payment up to the period's end is counted into the balances still owed (what
    was paid before the period settled part of the balance before it)."""
    rows = _night_payments(user, game, end, balances) + _settlement_payments(user, game, end, balances)
    rows.sort(key=lambda row: (row.day, row.key), reverse=True)
    return [row for row in rows if start is None or row.day >= start]


def _count_paid(balances: dict[str, GameBalance], game: str, amount: int, *, made: bool) -> None:
    line = balances.get(game)
    if line is not None:
        line.paid += amount if made else -amount
        line.payments += 1


def _night_payments(user: User, game: str | None, end: date | None,
                    balances: dict[str, GameBalance]) -> list[PaymentRow]:
    mine = NightPayment.objects.filter(Q(payer=user) | Q(payee=user)).select_related("payer", "payee", "night")
    if game:
        mine = mine.filter(night__game=game)
    if end is not None:
        mine = mine.filter(paid_on__lte=end)
    rows = []
    for payment in mine:
        made = payment.payer_id == user.pk
        _count_paid(balances, payment.night.game, payment.amount, made=made)
        rows.append(PaymentRow(key=f"night-{payment.pk}", sentence=payment_sentence(payment), made=made,
                               context=gettext("for the %(night)s") % {"night": payment.night}, day=payment.paid_on))
    return rows


def _settlement_payments(user: User, game: str | None, end: date | None,
                         balances: dict[str, GameBalance]) -> list[PaymentRow]:
    """The member's part of each settlement: the payments it stored, as made on the day it was settled (the club's
    day), the house named as the club."""
    settlements = Settlement.objects.filter(unit="cents").order_by("settled_at", "id")
    if game:
        settlements = settlements.filter(game=game)
    zone = club_zone()
    found: list[tuple[Settlement, int, dict[str, Any], date]] = []
    for settlement in settlements:
        day = timezone.localtime(settlement.settled_at, zone).date()
        if end is not None and day > end:
            continue
        for n, payment in enumerate(settlement.payments or []):
            if user.pk in (payment.get("payer"), payment.get("payee")):
                found.append((settlement, n, payment, day))
    names = User.objects.in_bulk({who for _s, _n, p, _d in found for who in (p.get("payer"), p.get("payee"))
                                  if who is not None})
    rows = []
    for settlement, n, payment, day in found:
        made = payment.get("payer") == user.pk
        _count_paid(balances, settlement.game, int(payment["amount"]), made=made)
        sentence = gettext("%(payer)s paid %(payee)s %(amount)s on %(day)s") % {
            "payer": _party_name(names, payment.get("payer")), "payee": _party_name(names, payment.get("payee")),
            "amount": dollars_text(int(payment["amount"]), signed=False),
            "day": date_format(day, "j M Y")}
        rows.append(PaymentRow(key=f"settlement-{settlement.pk}-{n}", sentence=sentence, made=made, day=day,
                               context=gettext("when the treasurer settled %(game)s") % {
                                   "game": registry.spec(settlement.game).title if registry.known(settlement.game)
                                   else settlement.game}))
    return rows


def _party_name(names: dict[int, User], who: int | None) -> str:
    if who is None:
        return gettext("the club")
    member = names.get(who)
    return member.shown_name if member is not None else gettext("a former member")


def member_history(*, user: User, game: str | None = None, start: date | None = None,
                   end: date | None = None) -> History:
    """The member's own entries of hands played in the period (the club's days, `played_day`), in the order played,
    with a running balance per game (from every hand played before).

    A tournament table's hands of a money game are listed in points ("+3 points") with their own running total of
    tournament points: they are no part of the game's balance, which is money (tables.ledger.units)."""
    mine = LedgerEntry.objects.filter(member=user)
    if game:
        mine = mine.filter(game=game)
    opening: dict[tuple[str, str], int] = defaultdict(int)
    if start is not None:
        for row in played_before(mine, start).values("game", "unit").annotate(total=Sum("amount")).order_by():
            opening[(row["game"], row["unit"])] = row["total"] or 0
    entries = (
        in_period(mine, start, end).annotate(day_played=F("played"))
        .select_related("round__match__table", "in_person__recorded_by", "tournament", "made_by")
        .order_by("played", "created_at", "id")
    )
    running = dict(opening)
    entries = list(entries)
    replaced = _replaced_records({entry.in_person_id for entry in entries if entry.in_person_id is not None})
    names = _names_by_round({entry.round_id for entry in entries if entry.round_id is not None})
    balances: dict[str, GameBalance] = {}
    rows: list[HistoryRow] = []
    for spec in registry.all_specs():
        if not game or spec.key == game:
            balances[spec.key] = GameBalance(spec.key, spec.title, spec.unit,
                                             opening=opening.get((spec.key, spec.unit), 0))
    for entry in entries:
        key = (entry.game, entry.unit)
        running[key] = running.get(key, 0) + entry.amount
        rows.append(HistoryRow(entry=entry, balance=running[key], names=names.get(entry.round_id, [])))
        if is_tournament_points(game=entry.game, unit=entry.unit):
            continue  # listed, in points; the game's balance is its money
        line = balances[entry.game]
        line.change += entry.amount
        if entry.kind == LedgerEntry.Kind.RESULT and entry.in_person_id not in replaced and entry.tournament_id is None:
            line.rounds += 1  # a tournament's fee and prize is money, not a hand
    rows.reverse()
    payments = _payments(user, game, start, end, balances)
    return History(rows=rows, balances=list(balances.values()), matches=member_matches(
        user=user, game=game, start=start, end=end), payments=payments)


def _replaced_records(record_ids: set[int]) -> set[int]:
    """Which of these in-person records have been replaced: a hand is counted once, as its newest version."""
    return set(InPersonRecord.objects.filter(pk__in=record_ids, replaced_by__isnull=False).values_list("pk", flat=True))


def member_matches(*, user: User, game: str | None = None, start: date | None = None,
                   end: date | None = None) -> list[MatchRow]:
    """The member's recorded matches that ended in the period (the club's days, as the entries' rounds), newest
    first, with their place of how many and the rounds they may replay; three queries."""
    places = MatchPlace.objects.filter(user=user).select_related("result__table")
    if game:
        places = places.filter(result__game=game)
    places = club_days(places, "result__finished_at", start, end)
    mine = list(places.order_by("-result__finished_at", "-result_id")[:MATCHES_SHOWN])
    result_ids = [p.result_id for p in mine]
    players = dict(MatchPlace.objects.filter(result_id__in=result_ids).values_list("result_id")
                   .annotate(n=Count("id")).values_list("result_id", "n"))
    rounds: dict[int, list[tuple[int, int]]] = defaultdict(list)
    entries = LedgerEntry.objects.filter(member=user, kind=LedgerEntry.Kind.RESULT,
                                         round__match_id__in=[p.result.match_id for p in mine])
    for match_id, number, round_id in entries.values_list("round__match_id", "round__number", "round_id").order_by(
            "round__number").distinct():
        rounds[match_id].append((number, round_id))
    return [MatchRow(place=p, players=players.get(p.result_id, 0), rounds=rounds.get(p.result.match_id, []))
            for p in mine]


def _names_by_round(round_ids: set[int]) -> dict[int, list[str]]:
    """Each round's seat labels as the ledger kept them, in one query."""
    found: dict[int, dict[int, str]] = defaultdict(dict)
    results = LedgerEntry.objects.filter(round_id__in=round_ids, kind=LedgerEntry.Kind.RESULT)
    for round_id, seat, label in results.values_list("round_id", "seat", "label"):
        found[round_id][seat] = label
    return {rid: [seats.get(p, gettext("seat %(number)s") % {"number": p + 1}) for p in range(max(seats) + 1)]
            for rid, seats in found.items()}


def club_zone() -> ZoneInfo:
    """The club's zone (settings.TIME_ZONE): standings are the club's, the same for every member, so their
    days (this month, a season, the dates asked for) begin and end at the club's midnight."""
    return zone_named(settings.TIME_ZONE)


def club_today() -> date:
    return timezone.localdate(timezone=club_zone())


def current_season(today: date | None = None) -> Season | None:
    """The season holding `today` (the club's today): the latest to start, should the admins overlap two."""
    today = today or club_today()
    return Season.objects.filter(starts__lte=today, ends__gte=today).order_by("-starts", "-pk").first()


def club_days(rows: QuerySet[Any], field_name: str, start: date | None, end: date | None) -> QuerySet[Any]:
    """Rows whose `field_name` (a moment) falls on the club's days `start` to `end`, both included. Days beyond
    the club's calendar (a season saved before it had limits) count as its first or last day: the next midnight
    after 9999-12-31, or the first midnight of year 1 east of UTC, is no moment Python can hold."""
    zone = club_zone()
    start, end = calendar_day(start), calendar_day(end)
    if start is not None:
        rows = rows.filter(**{f"{field_name}__gte": datetime.combine(start, time.min, tzinfo=zone)})
    if end is not None:
        rows = rows.filter(**{f"{field_name}__lt": datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone)})
    return rows


def amount_text(amount: int, spec: GameSpec) -> str:
    """A total as the game counts it: money signed, points signed as a gain or loss, penalty points (a game
    where lower is better) plain, as what they are: points held against you."""
    if spec.unit == "cents":
        return money_text(amount, spec.unit)
    return points_text(amount, signed=not spec.lower_is_better)


def average_text(total: int, hands: int, spec: GameSpec) -> str:
    """Per hand, one decimal (money to the cent); a dash with no hands."""
    if not hands:
        return "—"
    average = total / hands
    if spec.unit == "cents":
        return dollars_text(average)
    signed = spec.ranked_by == "total" and not spec.lower_is_better
    shown = number_format(Decimal(f"{abs(average):.1f}"), decimal_pos=1, use_l10n=True)
    sign = "-" if average < 0 else "+" if signed and average else ""
    return sign + shown


@dataclass
class Standing:
    """One line of a game's standings: a member, or one level of the bots, which are the house (`member_id` None,
    never ranked; `bot_level` "easy", "normal" or "strong", named "Easy bot" in the reader's language).

    `hands` counts rounds (online and at the club's table); `matches` and `won` count recorded matches
    (for a game ranked by matches; the house counts each bot seat). `rank` is None for the house and for a
    member below the minimum (not yet ranked); equal measures share a rank."""

    name: str
    member_id: int | None
    spec: GameSpec
    username: str = ""
    bot_level: str = ""
    hands: int = 0
    total: int = 0
    matches: int = 0
    won: int = 0
    rank: int | None = None

    @property
    def rounds(self) -> int:
        return self.hands

    @property
    def unit(self) -> str:
        return self.spec.unit

    @property
    def house(self) -> bool:
        return self.member_id is None

    @property
    def total_text(self) -> str:
        return amount_text(self.total, self.spec)

    @property
    def average(self) -> float | None:
        return self.total / self.hands if self.hands else None

    @property
    def average_text(self) -> str:
        return average_text(self.total, self.hands, self.spec)

    @property
    def win_rate(self) -> float:
        return self.won / self.matches if self.matches else 0.0

    @property
    def win_rate_text(self) -> str:
        if not self.matches:
            return "—"
        # Translators: a win rate; "%(rate)s%%" is "50%" (German writes "50 %").
        return gettext("%(rate)s%%") % {"rate": number_format(round(self.win_rate * 100), use_l10n=True)}

    @property
    def games(self) -> int:
        """What the minimum counts: hands for a game ranked by total, matches for one ranked by matches."""
        return self.matches if self.spec.ranked_by == "matches" else self.hands

    def measure(self) -> tuple[float, ...]:
        """Smaller is better: the game's measure, so that sorting puts the best first."""
        direction = 1 if self.spec.lower_is_better else -1
        if self.spec.ranked_by == "matches":
            average = self.average
            return (-self.win_rate, direction * average if average is not None else float("inf"))
        return (direction * self.total,)


def standings(*, game: str, start: date | None = None, end: date | None = None, minimum: int = 0) -> list[Standing]:
    """One game's standings over the club's days `start` to `end`, by the measure its spec names (`ranked_by`):

    - "total": the money (or points) summed over the period's hands, online and at the club's table, best first
      (a game with fixed-length matches: everyone plays the same hands per match), with the average per hand;
    - "matches": recorded matches won over matches played (win rate), then points per hand (fewer first where
      lower is better): summed points over a target game would rank whoever played least best.

    Members with fewer than `minimum` games (hands, or matches) follow unranked; the house (every bot seat, one
    line per bot level: easy, normal, strong) is last and never ranked. Returns ranked members, then unranked
    ones, then the house.

    The club's standings rank the club's own play: a tournament's hands and matches (online at a tournament table,
    or on a night sheet kept for one) are left out, whatever the game. A tournament has its own standings (and
    moves ratings when it is rated); the members' histories still list those hands."""
    spec = registry.spec(game)
    lines = _match_lines(spec, start, end) if spec.ranked_by == "matches" else _total_lines(spec, start, end)
    members = sorted((line for line in lines if not line.house), key=lambda s: (*s.measure(), s.name.lower()))
    ranked = [line for line in members if line.games >= max(minimum, 1)]
    previous: tuple[float, ...] | None = None
    for position, line in enumerate(ranked, start=1):
        line.rank = ranked[position - 2].rank if line.measure() == previous else position
        previous = line.measure()
    unranked = [line for line in members if line.games < max(minimum, 1)]
    house = sorted((line for line in lines if line.house), key=lambda s: (level_order(s.bot_level), s.bot_level))
    return ranked + unranked + house


def _house_name(level: str | None) -> str:
    return bot_player_name(level) if level else gettext(HOUSE)


def _bot_level_of_entry() -> Coalesce:
    """A bot's entry's level: its seat's own, else its table's (bot seats keep their level once a match has begun,
    so the seat says what the bot played every round of it at). Members' entries have none."""
    seat_level = Seat.objects.filter(table=OuterRef("round__match__table"), position=OuterRef("seat")).values(
        "bot_level")[:1]
    return Coalesce(NullIf(Subquery(seat_level), Value("")), F("round__match__table__bot_level"))


def _tournament_table_at(play_table: str) -> Exists:
    """Whether the play table at `play_table` (a lookup from the outer rows) is a tournament's table."""
    return Exists(TournamentTable.objects.filter(table_id=OuterRef(play_table)))


def club_play_entries(entries: QuerySet[LedgerEntry]) -> QuerySet[LedgerEntry]:
    """The entries of the club's own play: not a round of a tournament's online table, nor a hand of a night sheet
    kept for a tournament's table at the club, nor a tournament's entry fee or prize (money, but no play; a join and
    a subquery in the same query, not a query per row)."""
    return (entries.exclude(_tournament_table_at("round__match__table_id"))
            .filter(in_person__night__tournament_table__isnull=True, tournament__isnull=True))


def club_play_places(places: QuerySet[MatchPlace]) -> QuerySet[MatchPlace]:
    """The match places of the club's own play: not a match at a tournament's table (matches are only online)."""
    return places.exclude(_tournament_table_at("result__table_id"))


def _total_lines(spec: GameSpec, start: date | None, end: date | None) -> list[Standing]:
    rows = (
        in_period(club_play_entries(booked(LedgerEntry.objects.filter(game=spec.key))), start, end)
        .annotate(level=Case(When(member__isnull=True, then=_bot_level_of_entry()), default=Value("")))
        .values("member", "level")
        .annotate(
            total=Sum("amount"),
            online=Count("round", distinct=True, filter=Q(kind=LedgerEntry.Kind.RESULT)),
            # A replaced record's hand is counted as its replacement (tables.treasury): once.
            in_person=Count("in_person", distinct=True,
                            filter=Q(kind=LedgerEntry.Kind.RESULT, in_person__replaced_by__isnull=True)),
        )
    )
    names = _names([r["member"] for r in rows])
    return [
        Standing(name=names[r["member"]][0] if r["member"] else _house_name(r["level"]), member_id=r["member"],
                 spec=spec, username=names[r["member"]][1] if r["member"] else "", bot_level=r["level"] or "",
                 hands=r["online"] + r["in_person"], total=r["total"] or 0)
        for r in rows
    ]


def _match_lines(spec: GameSpec, start: date | None, end: date | None) -> list[Standing]:
    places = club_days(club_play_places(MatchPlace.objects.filter(result__game=spec.key)), "result__finished_at",
                       start, end)
    rows = places.values("user", "bot").annotate(  # a bot's place names its level
        matches=Count("id"), won=Count("id", filter=Q(won=True)), total=Sum("total"), hands=Sum("result__rounds"),
    )
    names = _names([r["user"] for r in rows])
    return [
        Standing(name=names[r["user"]][0] if r["user"] else _house_name(r["bot"]), member_id=r["user"], spec=spec,
                 username=names[r["user"]][1] if r["user"] else "", bot_level=r["bot"] if not r["user"] else "",
                 hands=r["hands"] or 0, total=r["total"] or 0, matches=r["matches"], won=r["won"])
        for r in rows
    ]


def _names(member_ids: list[int | None]) -> dict[int, tuple[str, str]]:
    """Each member's shown name and username (the link to their profile: two members may share a display name)."""
    return {u.pk: (u.shown_name, u.username) for u in User.objects.filter(pk__in=[m for m in member_ids if m])}


@dataclass
class BalanceRow:
    member_id: int | None
    name: str
    game: str
    unit: str
    total: int
    entries: int

    @property
    def title(self) -> str:
        return registry.spec(self.game).title if registry.known(self.game) else self.game

    @property
    def total_text(self) -> str:
        return money_text(self.total, self.unit)


def balances(*, game: str | None = None, start: date | None = None, end: date | None = None) -> list[BalanceRow]:
    """Per member and game, the sum of the period's entries (the admin's view of the books: money, never a
    tournament's points)."""
    entries = in_period(booked(LedgerEntry.objects.all()), start, end)
    if game:
        entries = entries.filter(game=game)
    rows = entries.values("member", "game", "unit").annotate(total=Sum("amount"), n=Count("id"))
    names = {u.pk: u.shown_name for u in User.objects.filter(pk__in=[r["member"] for r in rows if r["member"]])}
    found = [
        BalanceRow(member_id=r["member"], name=names.get(r["member"], gettext(HOUSE)), game=r["game"], unit=r["unit"],
                   total=r["total"] or 0, entries=r["n"])
        for r in rows
    ]
    found.sort(key=lambda b: (b.game, b.member_id is None, b.name.lower()))
    return found


def round_members(round: Round) -> set[int]:
    """The members who played a round: its ledger entries, or (before the end) its table's seats."""
    ids = set(
        LedgerEntry.objects.filter(round=round, member__isnull=False).values_list("member_id", flat=True)
    )
    if not ids:
        seated = Seat.objects.filter(table_id=round.match.table_id, user__isnull=False)
        ids = set(seated.values_list("user_id", flat=True))
    return ids


def can_see_round(user: User, round: Round) -> bool:
    """Whether `user` may see a finished round's hands: its replay, and its seed (which deals them all
    again, so the fair-deal check too). Its players and the club's staff may; to anyone else, and to
    everyone while the round is not over, the round does not exist."""
    if not (user.is_authenticated and round.revealed):
        return False
    return bool(user.is_staff or user.pk in round_members(round))


@dataclass
class ReplaySeat:
    position: int
    name: str
    is_bot: bool
    hand: list[str]
    to_act: bool
    delta_text: str = ""


@dataclass
class ReplayStep:
    round: Round
    game: str
    title: str
    step: int  # moves applied so far (0: the deal)
    total: int  # moves in the round
    seats: list[ReplaySeat]
    last: str  # what just happened, with names
    prompt: str
    trick: list[dict[str, Any]]  # cards on the table now, with the seat's name
    top: str | None  # the pile's top card (Hawsker, Puskiyon)
    move: Move | None  # the move that led to this step
    moves: list[dict[str, Any]] = field(default_factory=list)  # every move in order, with names
    blind: list[str] = field(default_factory=list)  # cards dealt to nobody (Sheepshead's blind)
    bury: list[str] = field(default_factory=list)
    headline: str = ""

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.total else None


def seat_names(round: Round) -> tuple[list[str], list[bool]]:
    """Who sat where: the labels the ledger kept (as they were then), else the seats now."""
    players = int(round.match.config["players"])
    names = [gettext("Seat %(number)s") % {"number": p + 1} for p in range(players)]
    bots = [False] * players
    results = LedgerEntry.objects.filter(round=round, kind=LedgerEntry.Kind.RESULT)
    labelled = results.values_list("seat", "label", "is_bot")
    found = False
    for seat, label, is_bot in labelled:
        if seat < players:
            names[seat], bots[seat], found = label, is_bot, True
    if not found:
        for seat in Seat.objects.filter(table_id=round.match.table_id).select_related("user"):
            if seat.position < players:
                names[seat.position], bots[seat.position] = seat_label(seat), seat.is_bot
    return names, bots


def replay_step(*, round: Round, step: int) -> ReplayStep:
    """The finished round as it stood after `step` moves, every hand shown (the round is over)."""
    if not round.revealed:
        raise ValueError("only a finished round is replayed: until then its hands are secret")
    table = round.match.table
    game = registry.game(table.game)
    config = Config.from_json(round.match.config)
    moves = list(round.moves.order_by("seq"))
    step = max(0, min(int(step), len(moves)))
    state = game.new_round(config, round.seed, EngineMatch.from_json(round.match_before))
    for move in moves[:step]:
        state = game.apply(state, move.seat, EngineMove.parse(move.text))
    names, bots = seat_names(round)
    public = game.view(state, None)
    to_act = game.to_act(state)
    deltas = (round.result or {}).get("deltas") or []
    unit = (round.result or {}).get("unit", "points")
    if deltas and TournamentTable.objects.filter(table_id=table.pk).exists():  # as its ledger entries: points
        options = {**(table.options or {}), **((round.match.config or {}).get("options") or {})}
        deltas, unit = hand_points(game=table.game, amounts=[int(d) for d in deltas], options=options), "points"
    seats = [
        ReplaySeat(
            position=p, name=names[p], is_bot=bots[p], hand=list(game.view(state, p)["hand"]), to_act=to_act == p,
            delta_text=money_text(deltas[p], unit) if step == len(moves) and p < len(deltas) else "",
        )
        for p in range(config.players)
    ]
    final = game.view(game.from_json(round.state), None)
    record = final.get("record") or {}
    trick = [{"card": c["card"], "name": names[c["seat"]]} for c in public.get("trick") or [] if "card" in c]
    summary = (round.result or {}).get("summary") or {}
    headline = round_headline(summary, names)
    return ReplayStep(
        round=round, game=table.game, title=registry.spec(table.game).title, step=step, total=len(moves),
        seats=seats, last=name_seats(public.get("last", ""), names), prompt=name_seats(public.get("prompt", ""), names),
        trick=trick, top=public.get("top"), move=moves[step - 1] if step else None,
        moves=[{"seq": m.seq, "name": names[m.seat] if m.seat < len(names) else gettext("seat %(number)s") % {
                    "number": m.seat}, "text": m.text,
                "actor": m.get_actor_display()} for m in moves],
        blind=list(record.get("blind") or []), bury=list(record.get("bury") or []), headline=headline,
    )


def my_finished_rounds(user: User, *, limit: int = 200) -> QuerySet[Round]:
    return (
        Round.objects.filter(over=True, ledger_entries__member=user, ledger_entries__kind=LedgerEntry.Kind.RESULT)
        .select_related("match__table").distinct().order_by("-finished_at", "-id")[:limit]
    )
