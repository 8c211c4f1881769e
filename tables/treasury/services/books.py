"""Checking the club's books against what they were made from: every difference, with the ids to look at.

The ledger is written from results, and the results from the engine; each can be recomputed. For every finished
(not voided) round the fair-deal check (tables.ledger.services.fairness.verify_deal) deals again from the seed and
replays the recorded moves; once that replay ends exactly where the round ended, the engine's result of that end
is what the round should have recorded and paid, seat by seat. In-person records are re-read from their own
score. Reversals must cancel exactly what they reverse, and every money round, in-person record and correction
set must sum to zero. Finally every member's balance per game is added up again, entry by entry, and compared
with what the standings and the admin's balances show. Nothing here writes.

Entries are compared as first written (kind RESULT): reversals and corrections are later, legitimate entries and
are checked on their own terms.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from rules.engine import registry
from rules.engine.text import from_data
from tables.ledger.selectors import balances, standings
from tables.ledger.services.fairness import verify_deal
from tables.models import InPersonRecord, LedgerEntry, NightPayment, Round

MONEY = "cents"
SCORE_KEY = {
    InPersonRecord.Kind.SHEEPSHEAD_HAND: "money",
    InPersonRecord.Kind.SHEEPSHEAD_LEASTER: "money",
    InPersonRecord.Kind.HAWK_ROUND: "deltas",
}


@dataclass(frozen=True)
class Difference:
    what: str  # which check: deal, replay, round result, round entries, zero sum, in-person, correction, balance
    where: str  # the rows to look at, by id
    detail: str

    def __str__(self) -> str:
        return f"[{self.what}] {self.where}: {self.detail}"


@dataclass
class BooksCheck:
    game: str | None
    rounds: int = 0
    in_person: int = 0
    corrections: int = 0
    balances: int = 0
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.differences

    def add(self, what: str, where: str, detail: str) -> None:
        self.differences.append(Difference(what, where, detail))


def _plain(value: Any) -> Any:
    """As stored in a JSON field (tuples become lists), so a fresh result compares with a recorded one."""
    return json.loads(json.dumps(value))


def _entries(game: str | None) -> Any:
    entries = LedgerEntry.objects.all()
    return entries.filter(game=game) if game else entries


def _round_where(rnd: Round) -> str:
    table = rnd.match.table
    return f"round id {rnd.pk} (table {table.code}, round {rnd.number})"


def _check_rounds(check: BooksCheck, game: str | None) -> None:
    rounds = Round.objects.filter(over=True, voided_at__isnull=True).select_related("match__table").order_by("pk")
    if game:
        rounds = rounds.filter(match__table__game=game)
    results: dict[int, list[LedgerEntry]] = defaultdict(list)
    for entry in _entries(game).filter(kind=LedgerEntry.Kind.RESULT, round__isnull=False).order_by("seat"):
        results[entry.round_id].append(entry)
    for rnd in rounds:
        check.rounds += 1
        where = _round_where(rnd)
        deal = verify_deal(round_id=rnd.pk)
        if not deal.commitment_ok:
            check.add("deal", where, "its revealed seed does not hash to the commitment shown before the deal")
        if not deal.hands_ok:
            check.add("deal", where, "the hands dealt again from its seed are not the hands it recorded")
        if not deal.replay_ok:
            check.add("replay", where, deal.replay_problem)
            continue
        # The replay ended exactly where the round ended (verify_deal compared the states), so the engine's result
        # of the stored end is the replay's.
        engine = registry.game(rnd.match.table.game)
        replayed = engine.result(engine.from_json(rnd.state))
        expected = _plain({"deltas": list(replayed.deltas), "unit": replayed.unit, "summary": dict(replayed.summary)})
        recorded = from_data(rnd.result or {})  # sentences kept as Said (rules.engine.text) read as their English
        for key in ("deltas", "unit", "summary"):
            if recorded.get(key) != expected[key]:
                check.add("round result", where,
                          f"its recorded {key} is {recorded.get(key)!r}; the replay gives {expected[key]!r}")
        _check_round_entries(check, where, results.get(rnd.pk, []), expected)
    orphans = (
        _entries(game).filter(kind=LedgerEntry.Kind.RESULT, round__isnull=False)
        .filter(Q(round__over=False) | Q(round__voided_at__isnull=False)).order_by("pk")
    )
    for entry in orphans:
        check.add("round entries", f"entry {entry.pk}",
                  f"a result for round id {entry.round_id}, which is voided or not over, so pays nothing")


def _check_round_entries(check: BooksCheck, where: str, entries: list[LedgerEntry], expected: dict[str, Any]) -> None:
    deltas = expected["deltas"]
    by_seat = {entry.seat: entry for entry in entries}
    for seat, delta in enumerate(deltas):
        entry = by_seat.pop(seat, None)
        if entry is None:
            check.add("round entries", where, f"seat {seat + 1} has no result entry (the replay pays it {delta})")
            continue
        if entry.amount != delta or entry.unit != expected["unit"]:
            paid, due = f"{entry.amount} {entry.unit}", f"{delta} {expected['unit']}"
            check.add("round entries", f"{where}, entry {entry.pk}",
                      f"seat {seat + 1} was paid {paid}; the replay pays {due}")
    for seat, entry in sorted(by_seat.items()):
        check.add("round entries", f"{where}, entry {entry.pk}",
                  f"a result for seat {seat + 1}, which the round has not")
    if expected["unit"] == MONEY and entries:
        total = sum(entry.amount for entry in entries)
        if total:
            check.add("zero sum", where, f"its result entries sum to {total} cents, not zero")


def _check_in_person(check: BooksCheck, game: str | None) -> None:
    records = InPersonRecord.objects.order_by("pk")
    if game:
        records = records.filter(game=game)
    results: dict[int, list[LedgerEntry]] = defaultdict(list)
    for entry in _entries(game).filter(kind=LedgerEntry.Kind.RESULT, in_person__isnull=False).order_by("seat"):
        results[entry.in_person_id].append(entry)
    for record in records:
        check.in_person += 1
        where = f"in-person result {record.pk}"
        entries = results.get(record.pk, [])
        scored = (record.score or {}).get(SCORE_KEY.get(record.kind, ""))
        paid = [entry.amount for entry in entries]
        if scored is None:
            check.add("in-person", where, f"its score holds no amounts for a {record.kind}")
        elif paid != list(scored) or [entry.seat for entry in entries] != list(range(len(entries))):
            check.add("in-person", where, f"its entries pay {paid} by seat; its score says {list(scored)}")
        if registry.known(record.game) and registry.spec(record.game).unit == MONEY and sum(paid):
            check.add("zero sum", where, f"its result entries sum to {sum(paid)} cents, not zero")


def _check_corrections(check: BooksCheck, game: str | None) -> None:
    later = (
        _entries(game).exclude(kind=LedgerEntry.Kind.RESULT).select_related("reverses", "corrects").order_by("pk")
    )
    sets: dict[tuple[Any, ...], list[LedgerEntry]] = defaultdict(list)
    for entry in later:
        check.corrections += 1
        where = f"entry {entry.pk}"
        target = entry.reverses if entry.kind == LedgerEntry.Kind.REVERSAL else entry.corrects
        if target is None:
            check.add("correction", where, f"a {entry.kind} that names no entry")
            continue
        same = ("member_id", "is_bot", "seat", "game", "unit", "round_id", "in_person_id")
        moved = [name for name in same if getattr(entry, name) != getattr(target, name)]
        if moved:
            check.add("correction", where, f"its {', '.join(moved)} differ from entry {target.pk}'s, which it "
                                           f"{'reverses' if entry.kind == LedgerEntry.Kind.REVERSAL else 'corrects'}")
        if entry.kind == LedgerEntry.Kind.REVERSAL and entry.amount != -target.amount:
            check.add("correction", where,
                      f"it reverses entry {target.pk} ({target.amount}) with {entry.amount}, not {-target.amount}")
        sets[(entry.round_id, entry.in_person_id, entry.created_at, entry.made_by_id, entry.reason)].append(entry)
    for entries in sets.values():
        total = sum(entry.amount for entry in entries)
        if entries[0].unit == MONEY and total:
            ids = ", ".join(str(entry.pk) for entry in entries)
            check.add("zero sum", f"entries {ids}", f"a correction set that sums to {total} cents, not zero")
    sources: dict[tuple[Any, ...], int] = defaultdict(int)
    for round_id, in_person_id, amount in _entries(game).filter(unit=MONEY).values_list("round", "in_person", "amount"):
        sources[(round_id, in_person_id)] += amount
    for (round_id, in_person_id), total in sorted(sources.items(), key=lambda item: (item[0][0] or 0, item[0][1] or 0)):
        if total:
            where = f"round id {round_id}" if round_id is not None else f"in-person result {in_person_id}"
            check.add("zero sum", where, f"all its entries, corrections included, sum to {total} cents, not zero")


def _check_balances(check: BooksCheck, game: str | None) -> None:
    added: dict[tuple[str, int | None], int] = defaultdict(int)
    for entry_game, member_id, amount in _entries(game).values_list("game", "member_id", "amount").iterator():
        added[(entry_game, member_id)] += amount
    shown = {(row.game, row.member_id): row.total for row in balances(game=game)}
    games = [game] if game else sorted({key[0] for key in added} | {key[0] for key in shown})
    for key in sorted(set(added) | set(shown), key=lambda k: (k[0], k[1] or 0)):
        check.balances += 1
        if added.get(key, 0) != shown.get(key, 0):
            check.add("balance", _who(key), f"its entries add up to {added.get(key, 0)}; "
                                            f"the admin's balances show {shown.get(key, 0)}")
    for each in games:
        if not registry.known(each) or registry.spec(each).ranked_by != "total":
            continue  # standings by matches won show match totals, not the books
        ranked: dict[tuple[str, int | None], int] = defaultdict(int)
        for line in standings(game=each):  # the house is one line per bot level: together, the bots' entries
            ranked[(each, line.member_id)] += line.total
        for key in sorted(set(ranked) | {k for k in added if k[0] == each}, key=lambda k: k[1] or 0):
            if added.get(key, 0) != ranked.get(key, 0):
                check.add("balance", _who(key), f"its entries add up to {added.get(key, 0)}; "
                                                f"the standings show {ranked.get(key, 0)}")


def _check_night_payments(check: BooksCheck, game: str | None) -> None:
    """Payments made at the table for a club night: each between two different players of its night, of more than
    nothing, and together never past square: nobody paid more than the night's entries say they lost, nobody
    received more than they won (the recording service refuses all of these, so only an edited row gets here)."""
    payments = NightPayment.objects.select_related("night").order_by("night_id", "pk")
    if game:
        payments = payments.filter(night__game=game)
    by_night: dict[int, list[NightPayment]] = defaultdict(list)
    for payment in payments:
        by_night[payment.night_id].append(payment)
    results: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for night_id, member_id, amount in LedgerEntry.objects.filter(in_person__night_id__in=list(by_night)).values_list(
            "in_person__night", "member", "amount"):
        results[night_id][member_id] += amount
    for night_id, rows in by_night.items():
        players = set(rows[0].night.seats) | set(results[night_id])
        moved: dict[int, int] = defaultdict(int)
        for payment in rows:
            where = f"night payment {payment.pk} (club night {night_id})"
            strangers = [m for m in (payment.payer_id, payment.payee_id) if m not in players]
            if strangers:
                check.add("night payment", where, f"member {strangers[0]} did not play that night")
            if payment.payer_id == payment.payee_id:
                check.add("night payment", where, f"member {payment.payer_id} pays themselves")
            if payment.amount <= 0:
                check.add("night payment", where, f"it pays {payment.amount} cents")
            moved[payment.payer_id] += payment.amount
            moved[payment.payee_id] -= payment.amount
        for member_id, change in sorted(moved.items()):
            result = results[night_id].get(member_id, 0)
            left = result + change
            if not (min(result, 0) <= left <= max(result, 0)):
                check.add("night payment", f"club night {night_id}, member {member_id}",
                          f"its entries pay {result} cents and its payments move {change:+d}: paid or received past "
                          f"square ({left:+d} left)")


def _who(key: tuple[str, int | None]) -> str:
    game, member_id = key
    return f"{game}, member {member_id}" if member_id is not None else f"{game}, the house (bots)"


def check_books(*, game: str | None = None) -> BooksCheck:
    """Every difference between the books and what they were made from (all games, or `game`)."""
    if game and not registry.known(game):
        raise ValueError(f"There is no game {game!r}; the games are {', '.join(registry.GAME_KEYS)}.")
    started = time.monotonic()
    check = BooksCheck(game=game)
    _check_rounds(check, game)
    _check_in_person(check, game)
    _check_corrections(check, game)
    _check_balances(check, game)
    _check_night_payments(check, game)
    check.seconds = time.monotonic() - started
    return check
