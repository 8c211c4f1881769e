"""Reads for club nights: the players of a sheet, the list of saved nights, one night's hands and totals.

A saved night's totals are sums of its hands' ledger entries (corrections included), never stored, like every
balance in the books; an unsaved sheet's totals are sums of what the engine priced for its rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from rules.engine import registry
from tables.ledger import summaries
from tables.ledger.selectors import money_text
from tables.models import ClubNight, DraftRow, InPersonRecord, LedgerEntry, NightDraft


def unit_of(game: str) -> str:
    return registry.spec(game).unit


def amount_text(amount: int, game: str) -> str:
    return money_text(amount, unit_of(game))


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
    return ClubNight.objects.select_related("recorded_by").annotate(hand_count=Count("hands"))


@dataclass(frozen=True)
class Cell:
    member: User
    amount: int
    text: str


@dataclass(frozen=True)
class Hand:
    number: int
    summary: Any  # its sentence (tables.ledger.summaries), or the English a record from before keeps
    cells: list[Cell]
    record: InPersonRecord | None = None

    @property
    def headline(self) -> str:
        return headline(self.summary)


def headline(summary: Any) -> str:
    """A hand's summary without the list of amounts the ledger's summary ends with (the sheet shows them per player
    beside it), in the reader's language: "Ann with Ben took 75 points (rate +1, stake $1.00)"."""
    return summaries.headline(summary)


def totals(members: Sequence[User], amounts: Sequence[Sequence[int]], game: str) -> list[Cell]:
    """Each player's sum over the hands, in seat order."""
    sums = [sum(hand[seat] for hand in amounts) for seat in range(len(members))]
    return [Cell(m, s, amount_text(s, game)) for m, s in zip(members, sums, strict=True)]


def cells(members: Sequence[User], amounts: Sequence[int], game: str) -> list[Cell]:
    return [Cell(m, a, amount_text(a, game)) for m, a in zip(members, amounts, strict=True)]


def night_hands(night: ClubNight) -> tuple[list[User], list[Hand], list[Cell]]:
    """The night's players, its hands in sheet order with what each paid each player (its standing ledger entries,
    corrections included), and each player's total over the night."""
    members = sheet_members(night.seats)
    records = list(night.hands.order_by("number"))
    paid: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for entry in LedgerEntry.objects.filter(in_person__night=night).only("in_person_id", "member_id", "amount"):
        paid[entry.in_person_id][entry.member_id] += entry.amount
    hands = [
        Hand(number=r.number or 0, summary=r.summary_sentence, record=r,
             cells=cells(members, [paid[r.pk][m.pk] for m in members], night.game))
        for r in records
    ]
    grand = totals(members, [[c.amount for c in h.cells] for h in hands], night.game)
    return members, hands, grand
