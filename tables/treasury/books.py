"""The open books of one game: which ledger entries the next settlement covers, and each party's sum of them.

Both the settling page (selectors) and the settling service read them here, so what the treasurer is shown is
exactly what is written when they confirm. A settlement covers the entries after the previous settlement's
`through_entry` up to the last entry of the game when the page was drawn (later entries wait for the next one);
the bots' seats (no member) are one party, the house, so a game's balances sum to zero like its rounds."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Sum

from tables.ledger.units import booked
from tables.models import LedgerEntry, Settlement
from tables.treasury.squaring import Plan, square_up

HOUSE = "house"  # the house's key in Settlement.balances (members are keyed by their id, as a string)


def party_key(member_id: int | None) -> str:
    return HOUSE if member_id is None else str(member_id)


def last_settlement(game: str) -> Settlement | None:
    return Settlement.objects.filter(game=game).order_by("-through_entry_id").first()


@dataclass(frozen=True)
class OpenBooks:
    """Entries `after` (exclusive) to `through` (inclusive), `seen` of them; `through` None: nothing since."""

    game: str
    after: int | None
    through: int | None
    seen: int
    totals: dict[int | None, tuple[int, int]]  # member id (None: the house) -> (sum, entries)


def open_books(game: str, *, through: int | None = None) -> OpenBooks:
    """The entries the next settlement of `game` would cover: up to the game's last entry right now, or up to
    `through` (the last entry a page showed: the ledger is append-only, so what came later cannot change them)."""
    previous = last_settlement(game)
    after = previous.through_entry_id if previous is not None else None
    entries = booked(LedgerEntry.objects.filter(game=game))  # a tournament's points are no debts: never settled
    if after is not None:
        entries = entries.filter(id__gt=after)
    if through is not None:
        entries = entries.filter(id__lte=through)
    through = entries.aggregate(last=Max("id"))["last"]
    if through is None:
        return OpenBooks(game=game, after=after, through=None, seen=0, totals={})
    totals = sums(entries.filter(id__lte=through))
    return OpenBooks(game=game, after=after, through=through, seen=sum(n for _, n in totals.values()), totals=totals)


def sums(entries: object) -> dict[int | None, tuple[int, int]]:
    """Per member (None: every bot seat together, the house) the sum of the entries and how many there are."""
    rows = entries.values("member").annotate(total=Sum("amount"), n=Count("id")).order_by()  # type: ignore[attr-defined]
    return {row["member"]: (row["total"] or 0, row["n"]) for row in rows}


def settling_plan(balances: dict[int | None, int]) -> Plan[int | None]:
    """The payments that square `balances` (member id, None for the house, to cents), as the page shows them and the
    settlement stores them. Where amounts tie, the squaring pairs parties in the order it is given; so the parties go
    in one fixed order (members by id, the house last) whatever order the caller read them in (by name on the page,
    by database order in the service), and what was shown is what is stored."""
    ordered = sorted(balances.items(), key=lambda item: (item[0] is None, item[0] or 0))
    return square_up(dict(ordered))
