"""Reads for club nights: the players of a sheet, the list of saved nights, one night's hands and totals.

A saved night's totals are sums of its hands' ledger entries (corrections included), never stored, like every
balance in the books; an unsaved sheet's totals are sums of what the engine priced for its rows.

A replaced hand keeps its row: the replacement is stored on the same night but off its rows (`number` empty, as the
unique row of a night allows one record), and the night shows each row as its newest version, with what it replaced.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from rules.engine.sheepshead.house import NIGHT_OPTIONS
from tables.i18n import say
from tables.ledger import summaries
from tables.ledger.selectors import money_text
from tables.models import ClubNight, DraftRow, InPersonRecord, LedgerEntry, NightDraft


def unit_of(game: str) -> str:
    return registry.spec(game).unit


def amount_text(amount: int, game: str, unit: str | None = None) -> str:
    """An amount of `game` in its own unit, or in `unit` where the entries say otherwise (a tournament night's
    points)."""
    return money_text(amount, unit or unit_of(game))


def night_unit(night: ClubNight) -> str:
    """The unit a night's entries are in: points for a night kept for a tournament table, else its game's."""
    return "points" if night.tournament_table_id is not None else unit_of(night.game)


def sheet_members(seats: Sequence[int]) -> list[User]:
    """The sheet's players in seat order (a member who no longer exists is left out: saving then refuses)."""
    found = User.objects.in_bulk(list(seats))
    return [found[pk] for pk in seats if pk in found]


def night_for_token(token: str) -> ClubNight | None:
    return ClubNight.objects.filter(token=token).first()


def draft_for_token(token: str) -> NightDraft | None:
    return NightDraft.objects.select_related("created_by", "updated_by", "signed_off_by", "night").filter(
        token=token).first()


def draft_rows(draft: NightDraft) -> list[DraftRow]:
    """The sheet's rows in the paper's order, with who entered and changed each."""
    return list(draft.rows.select_related("entered_by", "changed_by").order_by("number"))


@dataclass(frozen=True)
class OpenSheet:
    draft: NightDraft
    players: list[User]
    hands: int  # hands that count (voided ones apart)
    voided: int


def open_sheets() -> list[OpenSheet]:
    """Every sheet not signed off yet, the most recently changed first, with its players and hands so far."""
    drafts = list(NightDraft.objects.filter(night__isnull=True).select_related("created_by", "updated_by")
                  .annotate(hands=Count("rows", filter=Q(rows__void=False)),
                            voided=Count("rows", filter=Q(rows__void=True)))
                  .order_by("-updated_at", "-id")[:200])
    found = User.objects.in_bulk({pk for d in drafts for pk in d.seats})
    return [OpenSheet(draft=d, players=[found[pk] for pk in d.seats if pk in found], hands=d.hands,
                      voided=d.voided) for d in drafts]


def open_sheet_count() -> int:
    return NightDraft.objects.filter(night__isnull=True).count()


def nights() -> QuerySet[ClubNight]:
    """Saved nights with their number of hands: rows of the sheet, so a replacement (off the rows) is not counted."""
    return ClubNight.objects.select_related("recorded_by").annotate(
        hand_count=Count("hands", filter=Q(hands__replaces__isnull=True)))


@dataclass(frozen=True)
class Cell:
    member: User
    amount: int | None  # None: this player did not play the hand (not at the table for it)
    text: str


@dataclass(frozen=True)
class Hand:
    number: int
    summary: Any  # its sentence (tables.ledger.summaries), or the English a record from before keeps
    cells: list[Cell]
    record: InPersonRecord | None = None  # a saved hand's newest version
    earlier: tuple[InPersonRecord, ...] = ()  # the versions it replaced, oldest (the row as first saved) first
    in_points: bool = False  # a tournament table's hand: said without its money

    @property
    def headline(self) -> str:
        return points_headline(self.summary) if self.in_points else headline(self.summary)


def headline(summary: Any) -> str:
    """A hand's summary without the list of amounts the ledger's summary ends with (the sheet shows them per player
    beside it), in the reader's language: "Ann with Ben took 75 points (rate +1, stake $1.00)"."""
    return summaries.headline(summary)


def points_headline(summary: Any) -> str:
    """`headline` of a hand counted in tournament points: "Ann with Ben took 75 points (rate +1)", no stake."""
    return summaries.points_headline(summary)


def totals(members: Sequence[User], amounts: Sequence[Sequence[int]], game: str, unit: str | None = None) -> list[Cell]:
    """Each player's sum over the hands, in seat order."""
    sums = [sum(hand[seat] or 0 for hand in amounts) for seat in range(len(members))]
    return [Cell(m, s, amount_text(s, game, unit)) for m, s in zip(members, sums, strict=True)]


def cells(members: Sequence[User], amounts: Sequence[int | None], game: str, unit: str | None = None) -> list[Cell]:
    return [Cell(m, a, "—" if a is None else amount_text(a, game, unit))
            for m, a in zip(members, amounts, strict=True)]


def house_rule_lines(options: Mapping[str, Any]) -> list[str]:
    """The night's house rules that differ from the seed's, one line each in the reader's language ("Schneider: 30
    or fewer is schneider"); a night of the seed's rules has none to show."""
    lines = []
    for option in NIGHT_OPTIONS:
        if option.name in options and options[option.name] != option.default:
            lines.append(gettext("%(rule)s: %(value)s") % {"rule": say(option.label),
                                                           "value": say(option.describe(options[option.name]))})
    return lines


def _chain_part(paid: Mapping[int, Mapping[int, int]], chain: Sequence[InPersonRecord], member: User) -> int | None:
    """What a hand (all its versions) booked for one of the night's players: their entries' sum; 0 for the dealer who
    sat the newest version out; None (no entry) for a player not at the table for it."""
    if any(member.pk in paid[r.pk] for r in chain):
        return sum(paid[r.pk].get(member.pk, 0) for r in chain)
    return 0 if (chain[-1].facts or {}).get("sat_out") == member.username else None


def row_numbers(records: Iterable[InPersonRecord]) -> dict[int, int | None]:
    """Each record's row on its night's sheet (None: no night's): its own number, or for a replacement the number of
    the first version of the hand, found by following `replaces` back (one query per step of the longest chain)."""
    numbers: dict[int, int | None] = {}
    origin: dict[int, int] = {}  # a replacement -> the record to ask next
    for record in records:
        numbers[record.pk] = record.number
        if record.number is None and record.replaces_id is not None:
            origin[record.pk] = record.replaces_id
    while origin:
        found = {pk: (number, replaces) for pk, number, replaces in InPersonRecord.objects.filter(
            pk__in=set(origin.values())).values_list("pk", "number", "replaces_id")}
        for pk, asked in list(origin.items()):
            number, replaces = found.get(asked, (None, None))
            if number is not None or replaces is None:
                numbers[pk] = number
                del origin[pk]
            else:
                origin[pk] = replaces
    return numbers


def _versions(records: Sequence[InPersonRecord]) -> list[list[InPersonRecord]]:
    """The night's records as hands: each row's chain of versions, oldest first, in row order (a replacement whose
    predecessor is not on the night, which the services never write, starts a chain of its own after the rows)."""
    by_pk = {r.pk: r for r in records}
    successor = {r.replaces_id: r for r in records if r.replaces_id in by_pk}
    chains = []
    for first in sorted((r for r in records if r.replaces_id not in by_pk),
                        key=lambda r: (r.number is None, r.number or 0, r.pk)):
        chain = [first]
        while chain[-1].pk in successor:
            chain.append(successor[chain[-1].pk])
        chains.append(chain)
    return chains


def night_hands(night: ClubNight) -> tuple[list[User], list[Hand], list[Cell]]:
    """The night's players, its hands in sheet order with what each paid each player (its standing ledger entries,
    corrections included), and each player's total over the night. A replaced hand stays in its row, as its newest
    version, paying what all its versions book together (the old results, their reversals and the new result)."""
    members = sheet_members(night.seats)
    records = list(night.hands.all())
    paid: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for entry in LedgerEntry.objects.filter(in_person__night=night).only("in_person_id", "member_id", "amount"):
        paid[entry.in_person_id][entry.member_id] += entry.amount
    hands = []
    for chain in _versions(records):
        newest = chain[-1]
        hands.append(Hand(
            number=chain[0].number or 0, summary=newest.summary_sentence, record=newest, earlier=tuple(chain[:-1]),
            cells=cells(members, [_chain_part(paid, chain, m) for m in members], night.game, night_unit(night)),
            in_points=night.tournament_table_id is not None))
    grand = totals(members, [[c.amount for c in h.cells] for h in hands], night.game, night_unit(night))
    return members, hands, grand
