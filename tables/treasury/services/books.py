"""Checking the club's books against what they were made from: every difference, named by its kind, with the ids.

The ledger is written from results, and the results from the engine; each can be recomputed. For every finished
(not voided) round the fair-deal check (tables.ledger.services.fairness.verify_deal) deals again from the seed and
replays the recorded moves; once that replay ends exactly where the round ended, the engine's result of that end
is what the round should have recorded and paid, seat by seat, and each seat's entry must name who sat there (the
seat's member; the house for a bot's seat and a seat the house played while its member was away, README "When a
member is away"). In-person records are priced again from their facts and their night's house rules by the
recording service's own pricing (tables.ledger.services.inperson.price_recorded), not read from the score stored
beside them, and paid to the players their facts name; a replaced record nets to zero seat by seat. A tournament's
entry fees and prizes (entries whose source is the tournament) are worked out again from its fee, prize shares and
final standings (tables.tournaments.money, the very sums it booked with), seat by seat, and a published tournament
with a fee must have them. Reversals must
cancel exactly what they reverse, and every money round, in-person record and correction set must sum to zero.
Each settlement's balances are added up again from the entries it covered, and its payments must settle exactly
those. Each game's hash chain (LedgerEntry's docstring) is recomputed, and the first entry that breaks it is named.
Finally every member's balance per game is added up again and compared with what the standings and the admin's
balances show. Nothing here writes.

Every check is one small function taking (check, game); each difference carries a `kind` from `Kind`, whose texts
are stable: the command prints them and scripts may match them.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from accounts.models import User
from rules.engine import registry
from rules.engine.text import from_data
from tables.ledger.selectors import balances, club_play_entries, standings
from tables.ledger.services.fairness import verify_deal
from tables.ledger.services.inperson import Priced, price_from_facts
from tables.ledger.services.ledger import LedgerError, in_person_unit
from tables.ledger.units import booked, money_games
from tables.models import (
    ChainHead,
    InPersonRecord,
    LedgerEntry,
    NightPayment,
    Round,
    Seat,
    Settlement,
    Tournament,
    TournamentTable,
)
from tables.play.services.errors import TableError
from tables.tournaments.money import fees_and_prizes
from tables.tournaments.scoring import hand_points
from tables.treasury.books import party_key

MONEY = "cents"


class Kind:
    """The name of each kind of difference (stable: printed by `manage.py check_books`, matched by scripts)."""

    DEAL = "deal differs from its commitment"
    REPLAY = "moves do not replay"
    ROUND_RESULT = "round result differs from its replay"
    ROUND_ENTRY = "entry amount differs from its round"
    NOT_AT_TABLE = "entry paid to someone not at the table"
    PAYS_NOTHING = "entry for a round that pays nothing"
    ROUND_ZERO_SUM = "table round does not sum to zero"
    IN_PERSON_PRICE = "in-person price differs from its facts"
    IN_PERSON_SCORE = "in-person score differs from its facts"
    IN_PERSON_NIGHT = "in-person facts differ from their night"
    IN_PERSON_ZERO_SUM = "in-person record does not sum to zero"
    REPLACED = "replaced record does not net to zero"
    CORRECTION = "correction does not match its entry"
    CORRECTION_ZERO_SUM = "correction set does not sum to zero"
    SOURCE_ZERO_SUM = "round or record with its corrections does not sum to zero"
    TOURNAMENT = "tournament fees and prizes differ from its standings"
    TOURNAMENT_ZERO_SUM = "tournament fees and prizes do not sum to zero"
    SETTLEMENT = "settlement differs from the balances it settled"
    SETTLEMENT_PAYMENTS = "settlement payments do not settle its balances"
    CHAIN = "ledger chain broken"
    BALANCE = "balance differs from its entries"
    NIGHT_PAYMENT = "night payment"


@dataclass(frozen=True)
class Difference:
    kind: str  # one of Kind's texts
    where: str  # the rows to look at, by id
    detail: str

    @property
    def what(self) -> str:
        """The kind, by its older name (callers written before the kinds were named read it so)."""
        return self.kind

    def __str__(self) -> str:
        return f"[{self.kind}] {self.where}: {self.detail}"


@dataclass
class BooksCheck:
    game: str | None
    rounds: int = 0
    in_person: int = 0
    corrections: int = 0
    tournaments: int = 0
    settlements: int = 0
    balances: int = 0
    chains: dict[str, tuple[int, str]] = field(default_factory=dict)  # game -> (entries, the last one's digest)
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def kinds(self) -> list[str]:
        """The kinds of difference found, each once, in the order first found."""
        return list(dict.fromkeys(difference.kind for difference in self.differences))

    def add(self, kind: str, where: str, detail: str) -> None:
        self.differences.append(Difference(kind, where, detail))


def _plain(value: Any) -> Any:
    """As stored in a JSON field (tuples become lists), so a fresh result compares with a recorded one."""
    return json.loads(json.dumps(value))


def _entries(game: str | None) -> Any:
    entries = LedgerEntry.objects.all()
    return entries.filter(game=game) if game else entries


def _by(entries: Any, key: str) -> dict[int, list[LedgerEntry]]:
    grouped: dict[int, list[LedgerEntry]] = defaultdict(list)
    for entry in entries:
        grouped[getattr(entry, key)].append(entry)
    return grouped


def _round_where(rnd: Round) -> str:
    table = rnd.match.table
    return f"round id {rnd.pk} (table {table.code}, round {rnd.number})"


def _finished_rounds(game: str | None) -> Any:
    rounds = Round.objects.filter(over=True, voided_at__isnull=True).select_related("match__table").order_by("pk")
    return rounds.filter(match__table__game=game) if game else rounds


def _replayed(check: BooksCheck, rnd: Round) -> dict[str, Any] | None:
    """The round's result as its replay gives it (deltas, unit, summary), or None when it does not replay."""
    where = _round_where(rnd)
    deal = verify_deal(round_id=rnd.pk)
    if not deal.commitment_ok:
        check.add(Kind.DEAL, where, "its revealed seed does not hash to the commitment shown before the deal")
    if not deal.hands_ok:
        check.add(Kind.DEAL, where, "the hands dealt again from its seed are not the hands it recorded")
    if not deal.replay_ok:
        check.add(Kind.REPLAY, where, deal.replay_problem)
        return None
    # The replay ended exactly where the round ended (verify_deal compared the states), so the engine's result
    # of the stored end is the replay's.
    engine = registry.game(rnd.match.table.game)
    replayed = engine.result(engine.from_json(rnd.state))
    return _plain({"deltas": list(replayed.deltas), "unit": replayed.unit, "summary": dict(replayed.summary)})


def _check_rounds(check: BooksCheck, game: str | None) -> None:
    results = _by(_entries(game).filter(kind=LedgerEntry.Kind.RESULT, round__isnull=False).order_by("seat"),
                  "round_id")
    tournament = set(TournamentTable.objects.filter(table__isnull=False).values_list("table_id", flat=True))
    for rnd in _finished_rounds(game):
        check.rounds += 1
        expected = _replayed(check, rnd)
        if expected is None:
            continue
        where = _round_where(rnd)
        recorded = from_data(rnd.result or {})  # sentences kept as Said (rules.engine.text) read as their English
        for key in ("deltas", "unit", "summary"):
            if recorded.get(key) != expected[key]:
                check.add(Kind.ROUND_RESULT, where,
                          f"its recorded {key} is {recorded.get(key)!r}; the replay gives {expected[key]!r}")
        if rnd.match.table_id in tournament:
            expected = _in_points(check, where, rnd, expected)
            if expected is None:
                continue
        _check_round_entries(check, where, results.get(rnd.pk, []), expected)
        _check_round_zero_sum(check, where, results.get(rnd.pk, []), expected["unit"])


def _in_points(check: BooksCheck, where: str, rnd: Round, expected: dict[str, Any]) -> dict[str, Any] | None:
    """What a tournament table's round pays its seats in the ledger: the replay's result as tournament points."""
    table = rnd.match.table
    options = {**(table.options or {}), **((rnd.match.config or {}).get("options") or {})}
    try:
        deltas = hand_points(game=table.game, amounts=[int(delta) for delta in expected["deltas"]], options=options)
    except ValueError as error:
        check.add(Kind.ROUND_ENTRY, where, f"its result is no tournament points: {error!s}")
        return None
    return {**expected, "deltas": deltas, "unit": "points"}


def _check_round_entries(check: BooksCheck, where: str, entries: list[LedgerEntry], expected: dict[str, Any]) -> None:
    deltas = expected["deltas"]
    by_seat = {entry.seat: entry for entry in entries}
    for seat, delta in enumerate(deltas):
        entry = by_seat.pop(seat, None)
        if entry is None:
            check.add(Kind.ROUND_ENTRY, where, f"seat {seat + 1} has no result entry (the replay pays it {delta})")
            continue
        if entry.amount != delta or entry.unit != expected["unit"]:
            paid, due = f"{entry.amount} {entry.unit}", f"{delta} {expected['unit']}"
            check.add(Kind.ROUND_ENTRY, f"{where}, entry {entry.pk}",
                      f"seat {seat + 1} was paid {paid}; the replay pays {due}")
    for seat, entry in sorted(by_seat.items()):
        check.add(Kind.ROUND_ENTRY, f"{where}, entry {entry.pk}",
                  f"a result for seat {seat + 1}, which the round has not")


def _check_round_zero_sum(check: BooksCheck, where: str, entries: list[LedgerEntry], unit: str) -> None:
    """A money round's result entries, the house's included, sum to exactly zero (a tournament table's too, in
    points)."""
    if not entries or entries[0].game not in money_games():
        return
    total = sum(entry.amount for entry in entries)
    if total:
        check.add(Kind.ROUND_ZERO_SUM, where, f"its result entries sum to {total} {entries[0].unit}, not zero")


def _check_round_seats(check: BooksCheck, game: str | None) -> None:
    """Every entry of a round (results, reversals, corrections) is the party who sat in its seat: the seat's member,
    or the house for a bot's seat and for a member's seat the house played in that round (Round.house_seats)."""
    entries = _entries(game).filter(round__isnull=False).select_related("round__match").order_by("pk")
    seats: dict[tuple[int, int], Seat] = {}
    tables = set(_entries(game).filter(round__isnull=False).values_list("round__match__table", flat=True))
    for seat in Seat.objects.filter(table_id__in=tables):
        seats[(seat.table_id, seat.position)] = seat
    for entry in entries:
        seat = seats.get((entry.round.match.table_id, entry.seat))
        if seat is None:
            check.add(Kind.NOT_AT_TABLE, f"entry {entry.pk}",
                      f"round id {entry.round_id}'s table has no seat {entry.seat + 1}")
            continue
        house = seat.is_bot or seat.user_id is None or seat.position in set(entry.round.house_seats or [])
        due = (None, True) if house else (seat.user_id, False)
        if (entry.member_id, entry.is_bot) != due:
            check.add(Kind.NOT_AT_TABLE, f"entry {entry.pk} (round id {entry.round_id}, seat {entry.seat + 1})",
                      f"it pays {_party(entry.member_id, entry.is_bot)}; the seat was {_party(*due)}'s")


def _party(member_id: int | None, is_bot: bool) -> str:
    return "the house" if is_bot or member_id is None else f"member {member_id}"


def _check_orphans(check: BooksCheck, game: str | None) -> None:
    orphans = (
        _entries(game).filter(kind=LedgerEntry.Kind.RESULT, round__isnull=False)
        .filter(Q(round__over=False) | Q(round__voided_at__isnull=False)).order_by("pk")
    )
    for entry in orphans:
        check.add(Kind.PAYS_NOTHING, f"entry {entry.pk}",
                  f"a result for round id {entry.round_id}, which is voided or not over, so pays nothing")


def _records(game: str | None) -> Any:
    records = InPersonRecord.objects.select_related("night").order_by("pk")
    return records.filter(game=game) if game else records


def _check_in_person(check: BooksCheck, game: str | None) -> None:
    results = _by(_entries(game).filter(kind=LedgerEntry.Kind.RESULT, in_person__isnull=False).order_by("seat"),
                  "in_person_id")
    for record in _records(game):
        check.in_person += 1
        where = f"in-person result {record.pk}"
        entries = results.get(record.pk, [])
        try:
            priced = _reprice(record)
        except (LedgerError, KeyError, TypeError) as error:
            check.add(Kind.IN_PERSON_PRICE, where, f"its facts do not price: {error!s}")
            continue
        if record.night is not None and record.night.tournament_table_id is not None:
            try:  # a tournament night's hands are booked in points
                priced = dataclasses.replace(priced, amounts=in_person_unit(record, priced.amounts)[1])
            except LedgerError as error:
                check.add(Kind.IN_PERSON_PRICE, where, f"its price is no tournament points: {error!s}")
                continue
        _check_in_person_price(check, where, entries, priced)
        _check_in_person_score(check, where, record, priced)
        _check_in_person_night(check, where, record)
        _check_in_person_zero_sum(check, where, record, entries)


def _reprice(record: InPersonRecord) -> Priced:
    """The record priced again from its facts (its night's stake where the facts lack one) by the recording service's
    own pricing. The players are taken as they sat: an account closed since still played that hand (the copy is in
    memory only; the account stays closed)."""
    facts = dict(record.facts or {})
    options = (record.night.options or {}) if record.night is not None else {}
    if "stake_cents" in options and record.game == "sheepshead":
        facts.setdefault("stake_cents", options["stake_cents"])
    names = [str(name) for name in facts.get("players") or []]
    found = {user.username: user for user in User.objects.filter(username__in=names)}
    players: list[Any] = []
    for name in names:
        user = found.get(name)
        if user is not None and not user.is_active:
            user = copy.copy(user)
            user.is_active = True
        players.append(user if user is not None else name)
    facts["players"] = players
    return price_from_facts(kind=record.kind, facts=facts)


def _check_in_person_price(check: BooksCheck, where: str, entries: list[LedgerEntry], priced: Priced) -> None:
    paid = [entry.amount for entry in entries]
    if paid != list(priced.amounts) or [entry.seat for entry in entries] != list(range(len(entries))):
        check.add(Kind.IN_PERSON_PRICE, where, f"its entries pay {paid} by seat; its facts price {priced.amounts}")


def _check_in_person_score(check: BooksCheck, where: str, record: InPersonRecord, priced: Priced) -> None:
    if _plain(record.score) != _plain(priced.score):
        check.add(Kind.IN_PERSON_SCORE, where, f"its stored score is {record.score!r}; its facts give {priced.score!r}")


def _check_in_person_night(check: BooksCheck, where: str, record: InPersonRecord) -> None:
    """A hand of a night was played at the night's stake (the sheet prices every hand with it)."""
    if record.night is None:
        return
    stake, night_stake = (record.facts or {}).get("stake_cents"), (record.night.options or {}).get("stake_cents")
    if stake is not None and night_stake is not None and stake != night_stake:
        check.add(Kind.IN_PERSON_NIGHT, f"{where} (night {record.night_id})",
                  f"its facts say a stake of {stake} cents; its night's is {night_stake}")


def _check_in_person_zero_sum(check: BooksCheck, where: str, record: InPersonRecord,
                              entries: list[LedgerEntry]) -> None:
    paid = sum(entry.amount for entry in entries)
    if registry.known(record.game) and registry.spec(record.game).unit == MONEY and paid:
        unit = entries[0].unit if entries else MONEY
        check.add(Kind.IN_PERSON_ZERO_SUM, where, f"its result entries sum to {paid} {unit}, not zero")


def _check_in_person_players(check: BooksCheck, game: str | None) -> None:
    """Every entry of an in-person record (results, reversals, corrections) pays the member its facts seat there."""
    entries = list(_entries(game).filter(in_person__isnull=False).order_by("pk"))
    records = InPersonRecord.objects.in_bulk({entry.in_person_id for entry in entries})  # whatever game they say
    names = {str(name) for record in records.values() for name in (record.facts or {}).get("players") or []}
    ids = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
    for entry in entries:
        players = (records[entry.in_person_id].facts or {}).get("players") or []
        name = players[entry.seat] if entry.seat < len(players) else None
        due = ids.get(str(name)) if name is not None else None
        if entry.is_bot or due is None or entry.member_id != due:
            sat = f"member {due} ({name})" if due is not None else "nobody's"
            check.add(Kind.NOT_AT_TABLE, f"entry {entry.pk} (in-person result {entry.in_person_id}, seat "
                                         f"{entry.seat + 1})",
                      f"it pays {_party(entry.member_id, entry.is_bot)}; the facts' seat is {sat}")


def _check_replaced(check: BooksCheck, game: str | None) -> None:
    """A replaced record's entries (its results, corrections and the reversals its replacement wrote) net to
    exactly zero in every seat: the replacement alone pays."""
    replaced = _records(game).filter(replaced_by__isnull=False).values_list("pk", flat=True)
    totals: dict[tuple[int, int], int] = defaultdict(int)
    for record_id, seat, amount in _entries(game).filter(in_person__in=list(replaced)).values_list(
            "in_person", "seat", "amount"):
        totals[(record_id, seat)] += amount
    for (record_id, seat), total in sorted(totals.items()):
        if total:
            check.add(Kind.REPLACED, f"in-person result {record_id}, seat {seat + 1}",
                      f"it was replaced, but its entries still add up to {total}")


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
            check.add(Kind.CORRECTION, where, f"a {entry.kind} that names no entry")
            continue
        same = ("member_id", "is_bot", "seat", "game", "unit", "round_id", "in_person_id", "tournament_id")
        moved = [name for name in same if getattr(entry, name) != getattr(target, name)]
        if moved:
            verb = "reverses" if entry.kind == LedgerEntry.Kind.REVERSAL else "corrects"
            check.add(Kind.CORRECTION, where,
                      f"its {', '.join(moved)} differ from entry {target.pk}'s, which it {verb}")
        if entry.kind == LedgerEntry.Kind.REVERSAL and entry.amount != -target.amount:
            check.add(Kind.CORRECTION, where,
                      f"it reverses entry {target.pk} ({target.amount}) with {entry.amount}, not {-target.amount}")
        sets[(entry.round_id, entry.in_person_id, entry.tournament_id, entry.created_at, entry.made_by_id,
              entry.reason)].append(entry)
    for entries in sets.values():
        total = sum(entry.amount for entry in entries)
        if entries[0].game in money_games() and total:  # money, or a tournament hand's points
            ids = ", ".join(str(entry.pk) for entry in entries)
            check.add(Kind.CORRECTION_ZERO_SUM, f"entries {ids}",
                      f"a correction set that sums to {total} {entries[0].unit}, not zero")


def _check_source_sums(check: BooksCheck, game: str | None) -> None:
    sources: dict[tuple[Any, ...], int] = defaultdict(int)
    money = _entries(game).filter(game__in=money_games())  # money, and tournament points of a money game
    for round_id, in_person_id, tournament_id, unit, amount in money.values_list(
            "round", "in_person", "tournament", "unit", "amount"):
        sources[(round_id, in_person_id, tournament_id, unit)] += amount
    in_order = sorted(sources.items(), key=lambda item: (*(number or 0 for number in item[0][:3]), item[0][3]))
    for (round_id, in_person_id, tournament_id, unit), total in in_order:
        if total:
            where = (f"round id {round_id}" if round_id is not None
                     else f"tournament {tournament_id}" if tournament_id is not None
                     else f"in-person result {in_person_id}")
            check.add(Kind.SOURCE_ZERO_SUM, where,
                      f"all its entries, corrections included, sum to {total} {unit}, not zero")


def _tournament_where(tournament: Tournament) -> str:
    return f"tournament {tournament.pk} ({tournament.name})"


def _check_tournaments(check: BooksCheck, game: str | None) -> None:
    """Each tournament's fee and prize entries are what its fee, prize shares and final standings pay, seat by seat
    (entrants in place order, the house's rest last), and sum to zero; a published tournament with a fee has them."""
    books = money_games()
    if game and game not in books:
        return  # they are in the money book only
    results = _by(LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RESULT, tournament__isnull=False)
                  .order_by("seat", "pk"), "tournament_id")
    wanted = Tournament.objects.filter(Q(pk__in=list(results)) | Q(published_at__isnull=False, entry_fee_cents__gt=0))
    for tournament in wanted.order_by("pk"):
        check.tournaments += 1
        where = _tournament_where(tournament)
        entries = results.get(tournament.pk, [])
        total = sum(entry.amount for entry in entries)
        if total:
            check.add(Kind.TOURNAMENT_ZERO_SUM, where, f"its fee and prize entries sum to {total} cents, not zero")
        if tournament.published_at is None:
            check.add(Kind.TOURNAMENT, where, "it has fee and prize entries but its results are not published")
            continue
        try:
            plan = fees_and_prizes(tournament)
        except TableError as error:
            check.add(Kind.TOURNAMENT, where, f"its standings pay nothing: {error!s}")
            continue
        expected = plan.ledger_lines() if plan is not None else []
        by_seat = {entry.seat: entry for entry in entries}
        for seat, (member_id, amount) in enumerate(expected):
            entry = by_seat.pop(seat, None)
            due = f"{_party(member_id, member_id is None)} {amount} cents"
            if entry is None:
                check.add(Kind.TOURNAMENT, where, f"seat {seat + 1} has no entry (its standings pay {due})")
                continue
            if (entry.member_id, entry.is_bot, entry.amount, entry.unit, entry.game) != (
                    member_id, member_id is None, amount, MONEY, books[0] if books else entry.game):
                paid = f"{_party(entry.member_id, entry.is_bot)} {entry.amount} {entry.unit} in {entry.game}"
                check.add(Kind.TOURNAMENT, f"{where}, entry {entry.pk}",
                          f"seat {seat + 1} pays {paid}; its fee, prize shares and standings pay {due}")
        for seat, entry in sorted(by_seat.items()):
            check.add(Kind.TOURNAMENT, f"{where}, entry {entry.pk}",
                      f"an entry for seat {seat + 1}, which its fee, prize shares and standings do not pay")


def _check_settlements(check: BooksCheck, game: str | None) -> None:
    """Each settlement's balances are the sums of the entries it covered ((after_entry, through_entry] of its game),
    each settlement starts where the one before it ended, and its payments settle exactly its balances."""
    settlements = Settlement.objects.order_by("game", "through_entry_id")
    previous: dict[str, int | None] = {}
    for settlement in settlements.filter(game=game) if game else settlements:
        check.settlements += 1
        where = f"settlement {settlement.pk} ({settlement.game})"
        if settlement.after_entry_id != previous.get(settlement.game):
            check.add(Kind.SETTLEMENT, where, f"it starts after entry {settlement.after_entry_id}; the settlement "
                                              f"before it ended at entry {previous.get(settlement.game)}")
        previous[settlement.game] = settlement.through_entry_id
        covered = booked(LedgerEntry.objects.filter(game=settlement.game, id__lte=settlement.through_entry_id))
        if settlement.after_entry_id is not None:
            covered = covered.filter(id__gt=settlement.after_entry_id)
        added: dict[str, int] = defaultdict(int)
        for member_id, amount in covered.values_list("member", "amount"):
            added[party_key(member_id)] += amount
        stored = {str(party): int(total) for party, total in (settlement.balances or {}).items()}
        for party in sorted(set(added) | set(stored)):
            if added.get(party, 0) != stored.get(party, 0):
                check.add(Kind.SETTLEMENT, f"{where}, party {party}",
                          f"it settled a balance of {stored.get(party, 0)}; the entries it covered add up to "
                          f"{added.get(party, 0)}")
        _check_payments(check, where, stored, settlement.payments or [])


def _check_payments(check: BooksCheck, where: str, stored: dict[str, int], payments: list[Any]) -> None:
    left = dict(stored)
    for number, payment in enumerate(payments, start=1):
        try:
            payer, payee = party_key(payment["payer"]), party_key(payment["payee"])
            amount = int(payment["amount"])
        except (KeyError, TypeError, ValueError):
            check.add(Kind.SETTLEMENT_PAYMENTS, where, f"payment {number} is not a payment: {payment!r}")
            continue
        if amount <= 0 or stored.get(payer, 0) >= 0 or stored.get(payee, 0) <= 0:
            check.add(Kind.SETTLEMENT_PAYMENTS, where, f"payment {number} ({payer} pays {payee} {amount}): only one "
                                                       "who owes pays, only one who is owed receives, and more than 0")
        left[payer] = left.get(payer, 0) + amount
        left[payee] = left.get(payee, 0) - amount
    unsettled = {party: total for party, total in sorted(left.items()) if total}
    if unsettled:
        check.add(Kind.SETTLEMENT_PAYMENTS, where, f"after its payments these balances are left: {unsettled}")


def _check_chains(check: BooksCheck, game: str | None) -> None:
    """Each game's chain, entry by entry from position 1: the first entry out of place or whose digest is not its
    content's names where the chain breaks; its head must be its last entry."""
    heads = {head.game: head for head in (ChainHead.objects.filter(game=game) if game else ChainHead.objects.all())}
    games = sorted(set(heads) | set(_entries(game).values_list("game", flat=True).distinct()))
    for each in games:
        previous, position, last_id = "", 0, None
        broken = False
        for entry in LedgerEntry.objects.filter(game=each).order_by("position", "id").iterator(chunk_size=2000):
            position += 1
            if entry.position != position:
                check.add(Kind.CHAIN, f"{each} chain, entry {entry.pk}",
                          f"it is at position {entry.position}, where position {position} comes next: an entry "
                          "is missing or was added behind the ledger's back")
                broken = True
                break
            if entry.digest != entry.computed_digest(previous):
                check.add(Kind.CHAIN, f"{each} chain, entry {entry.pk}",
                          f"its digest is not that of its content after position {position - 1}: it, or the entry "
                          "before it, was changed")
                broken = True
                break
            previous, last_id = entry.digest, entry.pk
        head = heads.get(each)
        if not broken and (head is None or (head.length, head.digest) != (position, previous)):
            check.add(Kind.CHAIN, f"{each} chain, entry {last_id}",
                      f"the chain ends at position {position}; its head says {head.length if head else 0} entries "
                      "ending in another digest: entries at its end were removed")
        check.chains[each] = (position, previous)


def _check_balances(check: BooksCheck, game: str | None) -> None:
    added: dict[tuple[str, int | None], int] = defaultdict(int)
    for entry_game, member_id, amount in booked(_entries(game)).values_list("game", "member_id", "amount").iterator():
        added[(entry_game, member_id)] += amount
    shown = {(row.game, row.member_id): row.total for row in balances(game=game)}
    games = [game] if game else sorted({key[0] for key in added} | {key[0] for key in shown})
    for key in sorted(set(added) | set(shown), key=lambda k: (k[0], k[1] or 0)):
        check.balances += 1
        if added.get(key, 0) != shown.get(key, 0):
            check.add(Kind.BALANCE, _who(key), f"its entries add up to {added.get(key, 0)}; "
                                               f"the admin's balances show {shown.get(key, 0)}")
    for each in games:
        if not registry.known(each) or registry.spec(each).ranked_by != "total":
            continue  # standings by matches won show match totals, not the books
        # The standings rank the club's own play: a tournament's hands and its fees and prizes are left out.
        played: dict[int | None, int] = defaultdict(int)
        for member_id, amount in club_play_entries(booked(_entries(each))).values_list("member_id", "amount"):
            played[member_id] += amount
        ranked: dict[int | None, int] = defaultdict(int)
        for line in standings(game=each):  # the house is one line per bot level: together, the bots' entries
            ranked[line.member_id] += line.total
        for member_id in sorted(set(ranked) | set(played), key=lambda m: m or 0):
            if played.get(member_id, 0) != ranked.get(member_id, 0):
                check.add(Kind.BALANCE, _who((each, member_id)), f"its club play adds up to "
                                                                f"{played.get(member_id, 0)}; the standings show "
                                                                f"{ranked.get(member_id, 0)}")


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
    played = booked(LedgerEntry.objects.filter(in_person__night_id__in=list(by_night)))
    for night_id, member_id, amount in played.values_list("in_person__night", "member", "amount"):
        results[night_id][member_id] += amount
    for night_id, rows in by_night.items():
        players = set(rows[0].night.seats) | set(results[night_id])
        moved: dict[int, int] = defaultdict(int)
        for payment in rows:
            where = f"night payment {payment.pk} (club night {night_id})"
            strangers = [m for m in (payment.payer_id, payment.payee_id) if m not in players]
            if strangers:
                check.add(Kind.NIGHT_PAYMENT, where, f"member {strangers[0]} did not play that night")
            if payment.payer_id == payment.payee_id:
                check.add(Kind.NIGHT_PAYMENT, where, f"member {payment.payer_id} pays themselves")
            if payment.amount <= 0:
                check.add(Kind.NIGHT_PAYMENT, where, f"it pays {payment.amount} cents")
            moved[payment.payer_id] += payment.amount
            moved[payment.payee_id] -= payment.amount
        for member_id, change in sorted(moved.items()):
            result = results[night_id].get(member_id, 0)
            left = result + change
            if not (min(result, 0) <= left <= max(result, 0)):
                check.add(Kind.NIGHT_PAYMENT, f"club night {night_id}, member {member_id}",
                          f"its entries pay {result} cents and its payments move {change:+d}: paid or received past "
                          f"square ({left:+d} left)")


def _who(key: tuple[str, int | None]) -> str:
    game, member_id = key
    return f"{game}, member {member_id}" if member_id is not None else f"{game}, the house (bots)"


CHECKS: list[Callable[[BooksCheck, str | None], None]] = [
    _check_chains, _check_rounds, _check_round_seats, _check_orphans, _check_in_person, _check_in_person_players,
    _check_replaced, _check_corrections, _check_source_sums, _check_tournaments, _check_settlements, _check_balances,
    _check_night_payments,
]
"""Every check, in the order they run; a new one is one more function here."""


def check_books(*, game: str | None = None) -> BooksCheck:
    """Every difference between the books and what they were made from (all games, or `game`)."""
    if game and not registry.known(game):
        raise ValueError(f"There is no game {game!r}; the games are {', '.join(registry.GAME_KEYS)}.")
    started = time.monotonic()
    check = BooksCheck(game=game)
    for run in CHECKS:
        run(check, game)
    check.seconds = time.monotonic() - started
    return check
