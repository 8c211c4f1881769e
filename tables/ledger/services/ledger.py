"""Writing the ledger: a finished round's entries, in-person results' entries, and corrections.

This module is the only writer of `LedgerEntry` rows. Every set of entries written together goes through
`_write_set`, which appends them to their game's hash chain (`_chain`) and refuses a set of a money game (a game
whose spec's unit is cents) that does not sum to exactly zero: a round's results, and a correction's reversals with
their new amounts, both balance. A tournament table's hands (an online table a TournamentTable plays at, a club
night kept for one) are written in points (`tables.tournaments.scoring.hand_points`), never money: a tournament is
played for places, not for debts between members. A money game's points still sum to zero (each is its settlement
divided by the stake), and corrections and reversals keep the unit of the entries they fix. A correction never
touches the entries it corrects; it adds a reversing entry and a new one, both naming the admin and the reason, so
the books show what was first written and why it changed. A tournament's entry fees and prizes, on the other hand,
are money: they go into the club's one money book (`units.money_games`) when its results are published
(`record_tournament_money`).

Refusals are said in the language of the request that asked (gettext when raised): the admin's page shows
`str(error)` in that same request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from tables.ledger.units import money_games
from tables.models import ChainHead, InPersonRecord, LedgerEntry, Round, Seat, Table, Tournament, TournamentTable
from tables.play.request_numbers import LARGEST_INT, whole_number
from tables.play.selectors import seat_label
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments.scoring import hand_points


class LedgerError(TableError):
    """A ledger write that would break the books; nothing was written."""


MONEY = "cents"
POINTS = "points"
LABEL_LENGTH = 60  # LedgerEntry.label's max_length


def unit_of(game: str) -> str:
    return registry.spec(game).unit


def _write_set(entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    """Insert one set of entries that belong together, refusing a money set that does not balance."""
    if not entries:
        raise LedgerError(gettext("There is nothing to write to the ledger."))
    units = {entry.unit for entry in entries}
    if len(units) != 1:
        raise LedgerError(gettext("One set of ledger entries cannot mix money and points."))
    games = {entry.game for entry in entries}
    if len(games) != 1:
        raise LedgerError(gettext("One set of ledger entries belongs to one game."))
    total = sum(entry.amount for entry in entries)
    if unit_of(next(iter(games))) == MONEY and total != 0:  # a money game's tournament points balance too
        if units == {MONEY}:
            raise LedgerError(gettext("Money entries must sum to zero, and these sum to %(total)s cents; nothing was "
                                      "written.") % {"total": total})
        raise LedgerError(gettext("A tournament hand's points must sum to zero, and these sum to %(total)s; nothing "
                                  "was written.") % {"total": total})
    with transaction.atomic():
        _chain(games.pop(), entries)
        return LedgerEntry.objects.bulk_create(entries)


def _chain(game: str, entries: Sequence[LedgerEntry]) -> None:
    """Give each entry its place at the end of its game's hash chain and its digest (LedgerEntry's docstring).

    The game's ChainHead row is locked first, so on PostgreSQL a second writer of the same game waits here until
    this transaction ends and then chains after these entries (SQLite's IMMEDIATE transactions already let one
    writer in at a time); the unique (game, position) stands behind both. One locking read of the head and one
    update of it per set: the path of every finished round."""
    head = ChainHead.objects.select_for_update().filter(game=game).first()
    if head is None:  # the game's first entry ever: make its head, whoever gets there first
        ChainHead.objects.bulk_create([ChainHead(game=game)], ignore_conflicts=True)
        head = ChainHead.objects.select_for_update().get(game=game)
    previous, position = head.digest, head.length
    for entry in entries:
        position += 1
        entry.position = position
        entry.digest = previous = entry.computed_digest(previous)
    ChainHead.objects.filter(pk=head.pk).update(length=position, digest=previous)


def record_round(*, round: Round, table: Table, seats: Sequence[Seat]) -> list[LedgerEntry]:
    """One entry per seat of a round that has just finished (bots, and members' seats the house played in it
    (`Round.house_seats`), as the house side).

    Called inside the transaction that finishes the round (play's `round_finished` signal, received in
    tables.ledger.receivers), so the round and its entries are committed (or rolled back) together.
    """
    if not round.over or not round.result:
        raise LedgerError(gettext("Only a finished round goes into the ledger."))
    deltas = list(round.result["deltas"])
    unit = str(round.result.get("unit") or unit_of(table.game))
    if len(deltas) != len(seats):
        raise LedgerError(gettext("The round paid %(paid)s seats but the table has %(seats)s.")
                          % {"paid": len(deltas), "seats": len(seats)})
    if round.pk is not None and LedgerEntry.objects.filter(round=round, kind=LedgerEntry.Kind.RESULT).exists():
        raise LedgerError(gettext("This round is already in the ledger."))
    at = round.finished_at or timezone.now()
    house = set(round.house_seats or [])
    tournament = TournamentTable.objects.filter(table_id=table.pk).exists()
    if tournament:  # the stake the match was dealt with (its configuration) turns the settlement into points
        unit = POINTS
        options = {**(table.options or {}), **((round.match.config or {}).get("options") or {})}
        points = hand_points(game=table.game, amounts=[int(delta) for delta in deltas], options=options)
    entries = []
    for seat in sorted(seats, key=lambda s: s.position):
        # A bot's seat, and a member's seat the house played because its member was away when the round was dealt
        # (README, "When a member is away"), are the house side: no member's entry, and the books still balance.
        bot = seat.is_bot or seat.user_id is None or seat.position in house
        entries.append(
            LedgerEntry(
                game=table.game, unit=unit, member_id=None if bot else seat.user_id, is_bot=bot,
                seat=seat.position, label=house_label(seat) if seat.position in house else seat_label(seat),
                amount=points[seat.position] if tournament else int(deltas[seat.position]),
                round=round, kind=LedgerEntry.Kind.RESULT, created_at=at,
            )
        )
    return _write_set(entries)


def in_person_unit(record: InPersonRecord, amounts: Sequence[int]) -> tuple[str, list[int]]:
    """The unit and amounts a result played at the club's table is written in: its game's, or points for a hand of a
    club night kept for a tournament table (the hand's own stake, else the night's, converts a money game's)."""
    night = record.night
    if night is None or night.tournament_table_id is None:
        return unit_of(record.game), [int(amount) for amount in amounts]
    options = dict(night.options or {})
    if (record.facts or {}).get("stake_cents"):
        options["stake_cents"] = record.facts["stake_cents"]
    return POINTS, hand_points(game=record.game, amounts=[int(amount) for amount in amounts], options=options)


def house_label(seat: Seat) -> str:
    """The ledger's label of a member's seat the house played: "House (Alice's seat)", within the label's length."""
    name = seat_label(seat)
    label = gettext("House (%(member)s's seat)") % {"member": name}
    room = LABEL_LENGTH - (len(label) - len(name))
    if len(name) > room:
        label = gettext("House (%(member)s's seat)") % {"member": name[: max(room - 1, 1)] + "…"}
    return label[:LABEL_LENGTH]


def record_in_person(
    *, record: InPersonRecord, members: Sequence[User], amounts: Sequence[int]
) -> list[LedgerEntry]:
    """The entries of a result played at the club's table: one per member, in seat order."""
    if len(members) != len(amounts):
        raise LedgerError(gettext("Each player needs exactly one amount."))
    unit, amounts = in_person_unit(record, amounts)
    entries = [
        LedgerEntry(
            game=record.game, unit=unit, member=member, is_bot=False, seat=position, label=member.shown_name,
            amount=int(amount), in_person=record, kind=LedgerEntry.Kind.RESULT, created_at=record.recorded_at,
        )
        for position, (member, amount) in enumerate(zip(members, amounts, strict=True))
    ]
    return _write_set(entries)


def record_tournament_money(
    *, tournament: Tournament, lines: Sequence[tuple[User | None, int]]
) -> list[LedgerEntry]:
    """A tournament's entry fees and prizes, one entry per line in seat order: each entrant's prize less the fee
    (best place first), and the house's rest (member None) last; in cents, in the club's one money book whatever
    game the tournament played, dated when its results were published. The lines must sum to zero.

    Called by tables.tournaments.money inside the transaction that publishes the results, the tournament's row
    locked; the one-result-per-seat constraint stands behind the check that nothing is booked yet."""
    books = money_games()
    if len(books) != 1:
        raise LedgerError(gettext("The club keeps its money in one game's book, and there are %(count)s; nothing "
                                  "was written.") % {"count": len(books)})
    if LedgerEntry.objects.filter(tournament=tournament, kind=LedgerEntry.Kind.RESULT).exists():
        raise LedgerError(gettext("This tournament's entry fees and prizes are already in the ledger."))
    members = [member.pk for member, _ in lines if member is not None]
    if len(set(members)) != len(members):
        raise LedgerError(gettext("Each entrant gets one entry for their fee and prize."))
    at = tournament.published_at or timezone.now()
    entries = [
        LedgerEntry(
            game=books[0], unit=MONEY, member=member, is_bot=member is None, seat=seat,
            label=(member.shown_name if member is not None else gettext("The house"))[:LABEL_LENGTH],
            amount=int(amount), tournament=tournament, kind=LedgerEntry.Kind.RESULT, created_at=at,
        )
        for seat, (member, amount) in enumerate(lines)
    ]
    return _write_set(entries)


def _parse_amount(value: Any) -> int:
    if isinstance(value, bool):
        raise LedgerError(gettext("%(value)s is not an amount.") % {"value": repr(value)})
    amount = value if isinstance(value, int) else whole_number(str(value).strip(), low=-LARGEST_INT)
    if amount is None or not -LARGEST_INT <= amount <= LARGEST_INT:
        raise LedgerError(gettext("%(value)s is not a whole number the ledger can hold (money is written in cents).")
                          % {"value": repr(value)})
    return amount


def correct_entries(*, admin: User, reason: str, changes: Mapping[int, Any]) -> list[LedgerEntry]:
    """Correct entries of one round (or one in-person result): for each entry id, the right amount.

    Each corrected entry gets a reversing entry (minus its amount) and a new entry (the right
    amount), both naming `admin` and `reason`; the original stays as it was. A round played for money
    must still sum to zero afterwards, so the new amounts must add up to what they replace.
    Returns the entries written, reversals and corrections in pairs.
    """
    if not (admin.is_authenticated and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins correct the ledger."))
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError(gettext("Say why the entries are corrected; the reason stays in the ledger."))
    if len(reason) > 300:
        raise LedgerError(gettext("Keep the reason under %(count)s characters.") % {"count": 300})
    if not changes:
        raise LedgerError(gettext("Choose at least one entry to correct."))
    wanted = {int(pk): _parse_amount(amount) for pk, amount in changes.items()}
    with transaction.atomic():
        found = {entry.pk: entry for entry in LedgerEntry.objects.select_for_update().filter(pk__in=wanted)}
        missing = sorted(set(wanted) - set(found))
        if missing:
            raise LedgerError(gettext("There is no ledger entry %(ids)s.") % {"ids": ", ".join(map(str, missing))})
        entries = [found[pk] for pk in sorted(wanted)]
        sources = {(entry.round_id, entry.in_person_id, entry.tournament_id) for entry in entries}
        if len(sources) != 1:
            raise LedgerError(gettext("Correct the entries of one round at a time."))
        for entry in entries:
            if entry.kind == LedgerEntry.Kind.REVERSAL:
                raise LedgerError(gettext("Entry %(id)s is itself a reversal; correct the entry it belongs to.")
                                  % {"id": entry.pk})
            if LedgerEntry.objects.filter(reverses=entry).exists():
                raise LedgerError(gettext("Entry %(id)s has already been corrected; correct its newest entry instead.")
                                  % {"id": entry.pk})
            if wanted[entry.pk] == entry.amount:
                raise LedgerError(gettext("Entry %(id)s already says %(amount)s; there is nothing to correct.")
                                  % {"id": entry.pk, "amount": entry.amount})
        if unit_of(entries[0].game) == MONEY:  # money, or a tournament hand's points: the round sums to zero
            before = sum(entry.amount for entry in entries)
            after = sum(wanted[entry.pk] for entry in entries)
            if before != after and entries[0].unit == POINTS:
                raise LedgerError(
                    gettext("A tournament hand's points must still sum to zero: the new points add up to %(after)s but "
                            "the ones they replace add up to %(before)s. Correct the other seats too.")
                    % {"after": after, "before": before}
                )
            if before != after:
                game = entries[0].get_game_display()
                raise LedgerError(
                    gettext("A %(game)s round must still sum to zero: the new amounts add up to %(after)s cents but "
                            "the ones they replace add up to %(before)s. Correct the other seats too.")
                    % {"game": game, "after": after, "before": before}
                )
        now = timezone.now()
        written: list[LedgerEntry] = []
        for entry in entries:
            common = dict(
                game=entry.game, unit=entry.unit, member_id=entry.member_id, is_bot=entry.is_bot, seat=entry.seat,
                label=entry.label, round_id=entry.round_id, in_person_id=entry.in_person_id,
                tournament_id=entry.tournament_id, reason=reason,
                made_by=admin, created_at=now,
            )
            written.append(LedgerEntry(amount=-entry.amount, kind=LedgerEntry.Kind.REVERSAL, reverses=entry, **common))
            written.append(
                LedgerEntry(amount=wanted[entry.pk], kind=LedgerEntry.Kind.CORRECTION, corrects=entry, **common)
            )
        try:
            return _write_set(written)
        except IntegrityError:
            raise LedgerError(gettext("Someone corrected these entries at the same moment; look again.")) from None


def replace_in_person(
    *, old: InPersonRecord, record: InPersonRecord, members: Sequence[User], amounts: Sequence[int], admin: User,
    reason: str,
) -> list[LedgerEntry]:
    """The entries of `record`, which replaces `old`: a reversal of every entry of `old` still standing, then the
    new results, written as one set (so a money game's pair of records sums to zero together, as each does alone).

    "Still standing" is a result or a correction not yet reversed: after an entry-by-entry correction
    (`correct_entries`) it is the correction that is reversed, so each old seat nets to exactly zero whatever was
    done to it before. The caller holds the transaction in which `record` was created."""
    if record.replaces_id != old.pk:
        raise LedgerError(gettext("The new record must name the record it replaces."))
    standing = list(  # the entries alone are locked: PostgreSQL locks no nullable side of the join to reversals
        LedgerEntry.objects.select_for_update(of=("self",)).filter(in_person=old, reversed_by__isnull=True)
        .exclude(kind=LedgerEntry.Kind.REVERSAL).order_by("seat", "id")
    )
    if not standing:
        raise LedgerError(gettext("In-person result %(id)s has no entry left to reverse.") % {"id": old.pk})
    reversals = [
        LedgerEntry(
            game=e.game, unit=e.unit, member_id=e.member_id, is_bot=e.is_bot, seat=e.seat, label=e.label,
            amount=-e.amount, in_person=old, kind=LedgerEntry.Kind.REVERSAL, reverses=e, reason=reason,
            made_by=admin, created_at=record.recorded_at,
        )
        for e in standing
    ]
    unit, amounts = in_person_unit(record, amounts)
    results = [
        LedgerEntry(
            game=record.game, unit=unit, member=member, is_bot=False, seat=position, label=member.shown_name,
            amount=int(amount), in_person=record, kind=LedgerEntry.Kind.RESULT, created_at=record.recorded_at,
        )
        for position, (member, amount) in enumerate(zip(members, amounts, strict=True))
    ]
    return _write_set(reversals + results)
