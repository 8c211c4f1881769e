"""What the settling page shows: each party's balance in one game (since its last settlement, or over any period of
the club's days) with the payments that square them, and the settlements made before."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from rules.engine import registry
from rules.engine.api import GameSpec
from tables.ledger.selectors import Standing, dollars_text, in_period, money_text, standings
from tables.ledger.units import booked
from tables.models import LedgerEntry, Settlement
from tables.treasury.books import HOUSE, OpenBooks, open_books, settling_plan, sums
from tables.treasury.squaring import EXACT_LIMIT

HOUSE_NAME = _("The house (bots' seats)")
HOUSE_SHORT = _("the house")


def money_game() -> str:
    """The game a settling page opens on: the registry's first game played for money (else its first game)."""
    return next((spec.key for spec in registry.all_specs() if spec.unit == "cents"), registry.default_key())


@dataclass(frozen=True)
class PartyLine:
    member_id: int | None  # None: the house
    name: str
    amount: int
    entries: int
    unit: str

    @property
    def house(self) -> bool:
        return self.member_id is None

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.unit)

    @property
    def standing(self) -> str:
        """Owing is for money: a points game's total is a score, which nobody owes or is owed (empty)."""
        if self.unit != "cents":
            return ""
        if self.amount < 0:
            return gettext("owes")
        return gettext("is owed") if self.amount > 0 else gettext("square")


@dataclass(frozen=True)
class PaymentLine:
    payer: str
    payee: str
    amount: int  # cents

    @property
    def amount_text(self) -> str:
        return dollars_text(self.amount, signed=False)

    @property
    def sentence(self) -> str:
        return capfirst(gettext("%(payer)s pays %(payee)s %(amount)s") % {
            "payer": self.payer, "payee": self.payee, "amount": self.amount_text})


@dataclass
class Books:
    """One game's balances on the settling page; `through`/`seen` only when they are the open books (settleable).

    A game counted in points (Hawk, Hawsker, Puskiyon) is never paid nor settled, and its points need not sum to
    zero (Hawk scores only the LAFH side): its page shows the game's standings over the period instead
    (`standings`, as the members' standings page ranks them), with no payments and nobody owing anybody."""

    spec: GameSpec
    parties: list[PartyLine]
    start: date | None = None
    end: date | None = None
    since: Settlement | None = None
    through: int | None = None
    seen: int = 0
    payments: list[PaymentLine] = field(default_factory=list)
    exact: bool = True
    method: str = ""
    standings: list[Standing] = field(default_factory=list)

    @property
    def money(self) -> bool:
        return self.spec.unit == "cents"

    @property
    def ranked(self) -> list[Standing]:
        return [line for line in self.standings if line.rank is not None]

    @property
    def unranked(self) -> list[Standing]:
        return [line for line in self.standings if line.rank is None and not line.house]

    @property
    def house(self) -> list[Standing]:
        return [line for line in self.standings if line.house]

    @property
    def columns(self) -> int:
        return 7 if self.spec.ranked_by == "matches" else 5

    @property
    def minimum(self) -> int:
        """The standings here rank everyone who played at least once (the standings page's minimum is its own)."""
        return 1

    @property
    def period(self) -> bool:
        return self.start is not None or self.end is not None

    @property
    def can_settle(self) -> bool:
        return self.money and not self.period and self.through is not None

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.parties)

    @property
    def has_house(self) -> bool:
        return any(line.house for line in self.parties)


def _names(member_ids: Any) -> dict[int, str]:
    return {u.pk: u.shown_name for u in User.objects.filter(pk__in=[m for m in member_ids if m is not None])}


def _lines(totals: dict[int | None, tuple[int, int]], unit: str) -> list[PartyLine]:
    names = _names(totals)
    lines = [PartyLine(member_id=m, name=names.get(m, "?") if m is not None else str(HOUSE_NAME), amount=t, entries=n,
                       unit=unit) for m, (t, n) in totals.items()]
    lines.sort(key=lambda line: (line.house, line.name.lower(), line.member_id or 0))
    return lines


def method_text(*, exact: bool) -> str:
    """How the payments were found, for the treasurer (the reasoning is tables.treasury.squaring's)."""
    if exact:
        return gettext("the fewest payments possible: equal debts and credits are paired first, then the rest is "
                       "split into as many groups that square among themselves as there can be (searched exactly), "
                       "and in each group the largest debtor pays the largest creditor")
    return gettext("more than %(limit)s people are owed or owe after pairing equal amounts, so the rest is squared "
                   "greedily (the largest debtor pays the largest creditor): at most one payment fewer than the "
                   "people involved, possibly not the fewest") % {"limit": EXACT_LIMIT}


def _with_payments(books: Books) -> Books:
    """Money: the payments that square the balances. Points: the standings over the same days instead."""
    if not books.money:
        books.standings = standings(game=books.spec.key, start=books.start, end=books.end)
        return books
    plan = settling_plan({line.member_id: line.amount for line in books.parties})
    names = {line.member_id: str(HOUSE_SHORT) if line.house else line.name for line in books.parties}
    books.payments = sorted((PaymentLine(names[p.payer], names[p.payee], p.amount) for p in plan.payments),
                            key=lambda p: (p.payer.lower(), p.payee.lower()))
    books.exact, books.method = plan.exact, method_text(exact=plan.exact)
    return books


def open_balances(*, game: str) -> Books:
    """Since the game's last settlement (from the start of the books if none), up to its last entry now."""
    spec = registry.spec(game)
    found: OpenBooks = open_books(game)
    since = (Settlement.objects.select_related("settled_by").filter(through_entry_id=found.after, game=game).first()
             if found.after is not None else None)
    return _with_payments(Books(spec=spec, parties=_lines(found.totals, spec.unit), since=since,
                                through=found.through, seen=found.seen))


def entries_after(*, game: str, through: int) -> int:
    """How many of the game's entries came after `through` (recorded after a page was drawn: still open)."""
    return booked(LedgerEntry.objects.filter(game=game, id__gt=through)).count()


def period_balances(*, game: str, start: date | None, end: date | None) -> Books:
    """Over the hands played on the club's days `start` to `end` (both included; `in_period`: the day played, not
    the day booked), whatever was settled: a summary, never settled."""
    spec = registry.spec(game)
    entries = in_period(booked(LedgerEntry.objects.filter(game=game)), start, end)
    return _with_payments(Books(spec=spec, parties=_lines(sums(entries), spec.unit), start=start, end=end))


@dataclass(frozen=True)
class SettlementLine:
    settlement: Settlement
    balances: list[PartyLine]
    payments: list[PaymentLine]


def past_settlements(*, game: str, limit: int = 50) -> list[SettlementLine]:
    """The game's settlements, newest first, with names for the ids they keep."""
    found = list(Settlement.objects.filter(game=game).select_related("settled_by").order_by("-through_entry_id")
                 [:limit])
    ids: set[int] = set()
    for settlement in found:
        ids.update(int(key) for key in settlement.balances if key != HOUSE)
    names = _names(ids)

    def name(key: Any, *, short: bool = False) -> str:
        if key is None or key == HOUSE:
            return str(HOUSE_SHORT if short else HOUSE_NAME)
        return names.get(int(key), gettext("member %(id)s") % {"id": key})

    lines = []
    for settlement in found:
        balances = [PartyLine(member_id=None if key == HOUSE else int(key), name=name(key), amount=int(amount),
                              entries=0, unit=settlement.unit) for key, amount in settlement.balances.items()]
        balances.sort(key=lambda line: (line.house, line.name.lower()))
        payments = [PaymentLine(name(p["payer"], short=True), name(p["payee"], short=True), int(p["amount"]))
                    for p in settlement.payments]
        lines.append(SettlementLine(settlement=settlement, balances=balances, payments=payments))
    return lines
