"""Reads for club nights: the players of a sheet, the list of saved nights, one night's hands and totals.

A saved night's totals are sums of its hands' ledger entries (corrections included), never stored, like every
balance in the books; an unsaved sheet's totals are sums of what the engine priced for its rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from rules.engine.sheepshead.house import NIGHT_OPTIONS
from tables.i18n import say
from tables.ledger import summaries
from tables.ledger.selectors import money_text
from tables.models import ClubNight, InPersonRecord, LedgerEntry


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


def nights() -> QuerySet[ClubNight]:
    return ClubNight.objects.select_related("recorded_by").annotate(hand_count=Count("hands"))


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
    sums = [sum(hand[seat] or 0 for hand in amounts) for seat in range(len(members))]
    return [Cell(m, s, amount_text(s, game)) for m, s in zip(members, sums, strict=True)]


def cells(members: Sequence[User], amounts: Sequence[int | None], game: str) -> list[Cell]:
    return [Cell(m, a, "—" if a is None else amount_text(a, game)) for m, a in zip(members, amounts, strict=True)]


def house_rule_lines(options: Mapping[str, Any]) -> list[str]:
    """The night's house rules that differ from the seed's, one line each in the reader's language ("Schneider: 30
    or fewer is schneider"); a night of the seed's rules has none to show."""
    lines = []
    for option in NIGHT_OPTIONS:
        if option.name in options and options[option.name] != option.default:
            lines.append(gettext("%(rule)s: %(value)s") % {"rule": say(option.label),
                                                           "value": say(option.describe(options[option.name]))})
    return lines


def _part(paid: dict[int, int], record: InPersonRecord, member: User) -> int | None:
    """What a hand booked for one of the night's players: their entries' sum; 0 for the dealer who sat it out; None
    (no entry) for a player not at the table for it."""
    if member.pk in paid:
        return paid[member.pk]
    return 0 if (record.facts or {}).get("sat_out") == member.username else None


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
             cells=cells(members, [_part(paid[r.pk], r, m) for m in members], night.game))
        for r in records
    ]
    grand = totals(members, [[c.amount for c in h.cells] for h in hands], night.game)
    return members, hands, grand
