"""Marking a game's books settled: one Settlement row with the balances and payments the treasurer was shown.

No ledger entry is touched: the next balances simply read the entries after this settlement's `through_entry`.
The page carries the last entry it showed (`through`) and how many entries it summed (`seen`); exactly those are
settled. Entries recorded after the page was drawn (a table's hand, a correction: the ledger is append-only, so they
never change the entries shown) stay open for the next settlement, so a club whose tables never stop can still be
settled. If what the page showed no longer adds up (another settlement got there first, or an entry the page did
not count has since committed under `through`), nothing is written and the treasurer is asked to look again, so no
entry is ever settled unseen. The same confirmation sent twice finds its settlement and writes nothing more
(the unique constraint on (game, through_entry) stands behind that when two arrive at once). Refusals are said in the
language of the treasurer's request (gettext when raised)."""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from tables.ledger.services.ledger import LedgerError
from tables.models import LedgerEntry, Settlement
from tables.play.services.errors import NotAllowed
from tables.treasury.books import open_books, party_key, settling_plan


class StaleBooks(LedgerError):
    """The books changed between the page and the confirmation; nothing was settled."""


def _hold_the_ledger() -> None:
    """Until this transaction ends, no ledger entry is written, and every entry being written has committed.

    Entries are settled by id (those after the last settlement's `through_entry`). On PostgreSQL a transaction can
    take an id and commit after a later id is visible: settled past, that entry would be missed by every settlement.
    A SHARE lock waits for the writers in flight and holds new ones off, so the books read here are complete.
    SQLite has one writer at a time: its IMMEDIATE transactions already give this."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {LedgerEntry._meta.db_table} IN SHARE MODE")


def settle_game(*, treasurer: User, game: str, through: int, seen: int, note: str = "") -> tuple[Settlement, bool]:
    """Settle `game` through entry `through`, as the page showed it. Returns the settlement and whether it is new
    (False: this very confirmation had already been recorded)."""
    if not (treasurer.is_authenticated and treasurer.is_staff):
        raise NotAllowed(gettext("Only the club's treasurer (staff) settles the books."))
    if not registry.known(game):
        raise LedgerError(gettext("There is no game %(game)s.") % {"game": repr(game)})
    spec = registry.spec(game)
    if spec.unit != "cents":
        raise LedgerError(gettext("%(game)s is counted in points: its balances are a summary, with nothing to pay "
                                  "or settle.") % {"game": spec.title})
    note = (note or "").strip()
    if len(note) > 200:
        raise LedgerError(gettext("Keep the note under %(count)s characters.") % {"count": 200})
    with transaction.atomic():
        _hold_the_ledger()
        done = Settlement.objects.filter(game=game, through_entry_id=through).first()
        if done is not None:
            return done, False
        books = open_books(game, through=through)
        if books.through is None and not open_books(game).seen:
            raise StaleBooks(gettext("Nothing has been played at %(game)s since the last settlement; there is "
                                     "nothing to settle.") % {"game": spec.title})
        if books.through != through or books.seen != seen:
            raise StaleBooks(gettext("The books changed since this page was drawn (settled by someone else, or an "
                                     "entry it did not count): look again at the new balances before settling."))
        balances = {member: total for member, (total, _n) in books.totals.items()}
        plan = settling_plan(balances)
        row = Settlement(
            game=game, unit=spec.unit, after_entry_id=books.after, through_entry_id=books.through,
            balances={party_key(member): total for member, total in balances.items()},
            payments=[{"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in plan.payments],
            settled_by=treasurer, note=note,
        )
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            return Settlement.objects.get(game=game, through_entry_id=through), False
    return row, True
