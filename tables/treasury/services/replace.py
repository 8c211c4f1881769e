"""Replacing a recorded in-person hand in one step: the new record, priced by the same services that record a hand,
and the reversal of every entry the old one still has standing, written together in one transaction.

The ledger stays append-only: nothing of the old record changes; it gains reversals (each naming the treasurer and
the reason) and a successor (`InPersonRecord.replaces`, one-to-one, so a record is replaced at most once: a second
attempt, a double click or a retried POST, finds it replaced and writes nothing). The preview runs exactly the same
write inside a transaction it then rolls back, so what the treasurer sees is what "Replace" would write, checked by
the same code and the same database constraints, and nothing of it stays. Refusals are said in the language of the
treasurer's request (gettext when raised).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import User
from tables.ledger.selectors import money_text
from tables.ledger.services import inperson
from tables.ledger.services.ledger import LedgerError
from tables.models import InPersonRecord, LedgerEntry
from tables.play.services.errors import NotAllowed

Kind = InPersonRecord.Kind
RECORDERS: dict[str, Callable[..., InPersonRecord]] = {
    Kind.SHEEPSHEAD_HAND: inperson.record_sheepshead_hand,
    Kind.SHEEPSHEAD_LEASTER: inperson.record_sheepshead_leaster,
    Kind.HAWK_ROUND: inperson.record_hawk_round,
}
GAME_OF_KIND = {Kind.SHEEPSHEAD_HAND: "sheepshead", Kind.SHEEPSHEAD_LEASTER: "sheepshead", Kind.HAWK_ROUND: "hawk"}
PREVIEW_REASON = "(preview)"
REASON_LENGTH = 300


class ReplaceError(LedgerError):
    """The replacement cannot be written as asked; nothing was written."""


class AlreadyReplaced(ReplaceError):
    """The record has a successor already: only the newest version of a hand can be replaced."""

    status = 409

    def __init__(self, record: InPersonRecord, newest: InPersonRecord) -> None:
        self.record, self.newest = record, newest
        super().__init__(gettext("In-person result %(id)s has already been replaced (its newest version is "
                                 "%(newest)s): replace the newest version instead.") % {"id": record.pk,
                                                                                         "newest": newest.pk})


@dataclass(frozen=True)
class Line:
    """One member's part of the hand before and after: `old` is what the old record still books for them (its
    results as corrected so far), `new` what the new one books; a member in only one of them has 0 in the other."""

    member_id: int
    name: str
    old: int
    new: int
    unit: str
    in_old: bool
    in_new: bool

    @property
    def difference(self) -> int:
        return self.new - self.old

    @property
    def old_text(self) -> str:
        return money_text(self.old, self.unit) if self.in_old else "—"

    @property
    def new_text(self) -> str:
        return money_text(self.new, self.unit) if self.in_new else "—"

    @property
    def difference_text(self) -> str:
        return money_text(self.difference, self.unit)


@dataclass(frozen=True)
class Comparison:
    old: InPersonRecord
    new_summary: str
    unit: str
    lines: list[Line] = field(default_factory=list)
    corrected_before: bool = False  # the old record's entries were corrected entry by entry: its net is reversed

    @property
    def totals(self) -> tuple[str, str, str]:
        old, new = sum(line.old for line in self.lines), sum(line.new for line in self.lines)
        return money_text(old, self.unit), money_text(new, self.unit), money_text(new - old, self.unit)


def newest_version(record: InPersonRecord) -> InPersonRecord:
    """The last record in the chain of replacements that starts at `record`."""
    current = record
    while (successor := InPersonRecord.objects.filter(replaces=current).first()) is not None:
        current = successor
    return current


def standing_net(record: InPersonRecord) -> dict[int, int]:
    """What the record books for each member now: the sum of all its entries (results, reversals, corrections)."""
    net: dict[int, int] = {}
    for member_id, amount in record.ledger_entries.filter(member__isnull=False).values_list("member_id", "amount"):
        net[member_id] = net.get(member_id, 0) + amount
    return net


def _check(admin: User, reason: str, *, preview: bool) -> str:
    if not (admin.is_authenticated and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins replace recorded results."))
    reason = " ".join((reason or "").split())
    if not reason:
        if preview:
            return PREVIEW_REASON
        raise ReplaceError(gettext("Say why the hand is replaced; the reason stays in the ledger with your name."))
    if len(reason) > REASON_LENGTH:
        raise ReplaceError(gettext("Keep the reason under %(count)s characters.") % {"count": REASON_LENGTH})
    return reason


def _write(*, admin: User, record_id: int, reason: str, kind: str, facts: dict[str, Any]) -> InPersonRecord:
    """The replacement, inside the caller's transaction, with the old record locked."""
    old = InPersonRecord.objects.select_for_update().filter(pk=record_id).first()
    if old is None:
        raise ReplaceError(gettext("There is no in-person result %(id)s.") % {"id": record_id})
    if kind not in RECORDERS:
        raise ReplaceError(gettext("%(kind)s is not a kind of in-person result.") % {"kind": repr(kind)})
    if GAME_OF_KIND[kind] != old.game:
        raise ReplaceError(gettext("A %(game)s result is replaced by another %(game)s result, not a %(kind)s.")
                           % {"game": old.get_game_display(), "kind": Kind(kind).label})
    if InPersonRecord.objects.filter(replaces=old).exists():
        raise AlreadyReplaced(old, newest_version(old))
    if old.night is not None and old.night.tournament_table_id is not None:
        # The table's session points were recorded from these hands; changing one here would leave them behind.
        raise ReplaceError(gettext("This hand was played at a tournament table: its points are the tournament's "
                                   "record. If the sheet was entered wrongly, the organiser voids the table with a "
                                   "reason."))
    facts = {**inperson.house_facts(record=old, kind=kind), **facts}  # the night's house rules stay the hand's
    return RECORDERS[kind](admin=admin, replaces=old, reason=reason, **facts)


def replace_in_person_record(
    *, admin: User, record_id: int, reason: str, kind: str, facts: dict[str, Any]
) -> InPersonRecord:
    """Replace in-person result `record_id` by a new one of `kind` from `facts` (the keyword arguments of the
    service that records that kind, players named by username): the new record with its results, and a reversal of
    each entry the old one has standing, in one transaction, naming `admin` and `reason`. Returns the new record."""
    reason = _check(admin, reason, preview=False)
    try:
        with transaction.atomic():
            return _write(admin=admin, record_id=record_id, reason=reason, kind=kind, facts=facts)
    except IntegrityError:  # another replacement of the same record committed first (the one-to-one refused ours)
        old = InPersonRecord.objects.get(pk=record_id)
        raise AlreadyReplaced(old, newest_version(old)) from None


class _Preview(Exception):
    """Not an error: it carries the comparison out of the block whose writes are rolled back."""

    def __init__(self, comparison: Comparison) -> None:
        self.comparison = comparison


def preview_replacement(
    *, admin: User, record_id: int, kind: str, facts: dict[str, Any], reason: str = ""
) -> Comparison:
    """What `replace_in_person_record` would write, member by member beside what the old record books now, and
    nothing written: the same write runs and is rolled back. Refuses exactly what the replacement would refuse
    (except an empty reason, which the preview does not need yet)."""
    reason = _check(admin, reason, preview=True)
    try:
        with transaction.atomic():
            old = InPersonRecord.objects.filter(pk=record_id).first()
            before = standing_net(old) if old is not None else {}
            corrected = old is not None and old.ledger_entries.filter(kind=LedgerEntry.Kind.CORRECTION).exists()
            new = _write(admin=admin, record_id=record_id, reason=reason, kind=kind, facts=facts)
            raise _Preview(_compare(old, new, before, corrected=corrected))
    except _Preview as done:
        return done.comparison


def _compare(old: InPersonRecord, new: InPersonRecord, before: dict[int, int], *, corrected: bool) -> Comparison:
    results = list(new.ledger_entries.filter(kind=LedgerEntry.Kind.RESULT).select_related("member").order_by("seat"))
    after = {e.member_id: e.amount for e in results}
    names = {e.member_id: e.label for e in results}
    for e in old.ledger_entries.filter(member__isnull=False).order_by("seat", "id"):
        names.setdefault(e.member_id, e.label)
    old_seats = list(dict.fromkeys(
        old.ledger_entries.filter(kind=LedgerEntry.Kind.RESULT).order_by("seat").values_list("member_id", flat=True)))
    order = old_seats + [m for m in after if m not in old_seats]
    unit = results[0].unit if results else "cents"
    lines = [
        Line(member_id=m, name=names[m], old=before.get(m, 0), new=after.get(m, 0), unit=unit, in_old=m in before,
             in_new=m in after)
        for m in order
    ]
    return Comparison(old=old, new_summary=new.summary_shown, unit=unit, lines=lines, corrected_before=corrected)
