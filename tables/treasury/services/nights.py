"""A club night's score sheet: opened (date, game, players in seat order, stake), filled hand by hand, signed off.

The sheet being entered is a draft on the server (tables.models.drafts: NightDraft and its DraftRows), so a closed
browser loses nothing and any staff member can carry on from any device. Every change names the draft's `version`
it was made against and is refused, changing nothing, when another device changed the sheet since (optimistic
concurrency: the draft's row is locked and its version bumped by a conditional UPDATE, which SQLite honours too).

Numbering keeps the paper's: each row carries the number the paper gives the hand (default: one after the last),
unique on the sheet, and the sheet is shown and booked in that order. A missed hand is inserted at the number it has
on the paper: when that number is free it simply takes it; when a row holds it (the rows after the missed one were
typed one number too low), that row and the unbroken run of rows after it move up by one, stopping at the first gap
(a gap is a number still missing, so the rows beyond it already carry the paper's numbers). A voided hand keeps its
number and place, is shown struck and counts nothing; it is not booked.

Every hand is checked and priced by the ledger's in-person services (which call the engine's public scoring
helpers), as it is entered and again when the night is signed off, so the sheet can never show one price and book
another. Signing off writes the ClubNight and one InPersonRecord per hand that is not void (numbered as on the
paper), with their ledger entries, in ONE transaction through the same recording services: a bad hand rolls back
the whole night and is named. The draft's `token` becomes the night's, unique in the database, and the draft is
marked signed off in the same transaction: a second save from anywhere finds the night and writes nothing, and the
sheet is read-only from then on (only a replacement changes a hand). A sheet kept for an in-person tournament table
(NightDraft.tournament_table, opened by tables.tournaments.club_tables) must hold exactly the session's hands; its
night is linked to the table, and the table's points (each player's hands summed, in tournament points:
tables.tournaments.scoring) are recorded in the same transaction, so they are recorded once, with the night.
Refusals are said in the language of the treasurer's request (gettext when raised), as the in-person services say
theirs.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from rules.engine.sheepshead.house import SCHWARZ_TRICKS, SIT_OUT_PLAYERS, HouseRules, house_rules, seat_money
from tables.ledger.forms import field_list, split_words
from tables.ledger.services import inperson
from tables.ledger.services.inperson import InPersonError, Priced
from tables.models import ClubNight, DraftRow, NightDraft, TournamentTable
from tables.play.request_numbers import record_id
from tables.play.services.errors import NotAllowed
from tables.tournaments.scoring import hand_points
from tables.tournaments.services import record_session_points

LEASTER = "leaster"
MAX_HANDS = 200  # an evening is some 40 hands; more is a runaway script, not a night
MAX_NUMBER = 999  # the highest number a hand may carry on a sheet

FIELD_LABELS: dict[str, Any] = {
    "picker": _("Picker"), "partner": _("Partner"), "points": _("Picker's points"),
    "leaster_points": _("Leaster: points"), "leaster_tricks": _("Leaster: tricks"),
    "lafh_1": _("LAFH (first trick)"), "lafh_2": _("LAFH (last trick)"), "solo": _("Solo"),
}
"""The row's fields by the names the sheet shows them under (its form uses these labels): a refusal names them."""


class NightError(InPersonError):
    """The sheet cannot be opened, a hand cannot be added or changed, or the night cannot be saved; nothing was
    written."""


class StaleSheet(NightError):
    """The sheet was changed (by another device or person) since the page making this change was loaded."""


class SheetSignedOff(NightError):
    """The sheet was signed off: its night is booked and the sheet is read-only."""

    def __init__(self, night: ClubNight) -> None:
        super().__init__(gettext("This sheet was already saved as a night: it can no longer be changed (a hand is "
                                 "corrected by replacing it). Nothing was changed."))
        self.night = night


@dataclass(frozen=True)
class Saved:
    night: ClubNight
    created: bool  # False: this sheet had been saved before, and nothing more was written


def _check_admin(admin: User) -> None:
    if not (admin.is_authenticated and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins record club nights."))


def open_sheet(
    *, admin: User, game: str, played_on: date | None, players: Sequence[User], stake_cents: Any = None, note: str = "",
    house: Mapping[str, Any] | None = None, tournament_table: TournamentTable | None = None,
) -> NightDraft:
    """A new, empty sheet on the server for these players in this seat order; refused as the night's first hand
    would be. `tournament_table`: the sheet is that in-person tournament table's (tables.tournaments.club_tables
    opens it), and saving it records the table's points.

    `house` holds the night's house rules (rules.engine.sheepshead.house); the sheet keeps, beside the stake, only
    those that differ from the seed's rules, so a night of the seed's rules has the options it always had."""
    _check_admin(admin)
    options: dict[str, Any] = {}
    rules = _house_rules(game, house)
    if rules.dealer_sits_out and len(players) not in SIT_OUT_PLAYERS:
        raise NightError(gettext("The dealer sits out on a Sheepshead night of %(low)s or %(high)s players, not "
                                 "%(count)s.") % {"low": SIT_OUT_PLAYERS[0], "high": SIT_OUT_PLAYERS[-1],
                                                  "count": len(players)})
    members = inperson.check_players(game=game, players=players)
    if inperson.GAMES[game].stake:
        if stake_cents is None or str(stake_cents).strip() == "":
            raise NightError(gettext("Give the stake of this %(game)s night, in cents.") % {"game": game})
        options["stake_cents"] = inperson.check_stake(stake_cents)
    options.update(rules.non_default())
    day = inperson.check_day(played_on)
    now = timezone.now()
    return NightDraft.objects.create(
        token=secrets.token_urlsafe(24), game=game, played_on=day, seats=[m.pk for m in members], options=options,
        note=(note or "").strip()[:200], tournament_table=tournament_table, created_by=admin, created_at=now,
        updated_by=admin, updated_at=now)


def _house_rules(game: str, house: Mapping[str, Any] | None) -> HouseRules:
    """The night's house rules, checked: Sheepshead's only (no other game recorded here has any)."""
    try:
        rules = house_rules(house)
    except ValueError as error:
        raise NightError(gettext("A house rule of this night is not one the club knows: %(error)s.")
                         % {"error": error}) from None
    if game != "sheepshead" and rules.non_default():
        raise NightError(gettext("House rules are Sheepshead's; a %(game)s night has none.") % {"game": game})
    return rules


def _named(value: Any, members: Sequence[User]) -> Any:
    """A member chosen from the sheet's list (their id) as the service takes them: the member when they sit at this
    table, any other member as themselves (the service then says they are not one of the players), else the text.
    The id is read as every id from a request is (request_numbers.record_id): `"²".isdigit()` is true and `int()`
    fails on it, and `int("\u0661")` (an Arabic-Indic one) is 1, a member nobody chose."""
    text = str(value or "").strip()
    if not text:
        return None
    chosen = record_id(text)
    if chosen is not None:
        for member in members:
            if member.pk == chosen:
                return member
        other = User.objects.filter(pk=chosen).first()
        if other is not None:
            return other
    return text


def _filled(row: Mapping[str, Any], names: Sequence[str]) -> list[Any]:
    return [FIELD_LABELS[name] for name in names if str(row.get(name) or "").strip()]


def check_row_fields(*, game: str, row: Mapping[str, Any]) -> None:
    """Refuses a row whose fields contradict each other, naming them, rather than pricing one reading of it and
    silently dropping the rest (a leaster with picker's points typed, a picked hand with leaster scores typed, a
    solo Hawk round with a second LAFH player)."""
    if game == "sheepshead":
        picker = str(row.get("picker") or "").strip()
        if picker == LEASTER and (named := _filled(row, ["partner", "points"])):
            raise NightError(gettext("A leaster has no picker: leave %(fields)s empty, or choose the picker.")
                             % {"fields": field_list(named)})
        if picker and picker != LEASTER and (named := _filled(row, ["leaster_points", "leaster_tricks"])):
            raise NightError(gettext("A picked hand is no leaster: leave %(fields)s empty, or choose “Leaster "
                                     "(nobody picked)”.") % {"fields": field_list(named)})
    elif game == "hawk":
        if row.get("solo") and (named := _filled(row, ["lafh_2"])):
            raise NightError(gettext("Solo means one LAFH player: leave %(fields)s empty, or untick “%(solo)s”.")
                             % {"fields": field_list(named), "solo": FIELD_LABELS["solo"]})
        if not _filled(row, ["lafh_1"]) and _filled(row, ["lafh_2"]):
            raise NightError(gettext("%(second)s is filled but %(first)s is empty: name the first trick's taker "
                                     "first.") % {"second": field_list([FIELD_LABELS["lafh_2"]]),
                                                  "first": field_list([FIELD_LABELS["lafh_1"]])})


def _hand(draft: NightDraft, members: Sequence[User], row: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The recording service for this row and its arguments (without who records it, when, or on which night)."""
    if draft.game == "sheepshead":
        stake = draft.options.get("stake_cents")
        house = _house_rules(draft.game, draft.options)
        players, sitter = _playing(house, members, row)
        cracks = _cracks(row)
        if str(row.get("picker") or "").strip() == LEASTER:
            if cracks or row.get("no_trick"):
                raise NightError(gettext("A leaster has no picker: it cannot be cracked, nor anybody schwarz."))
            return inperson.record_sheepshead_leaster, {
                "players": players, "points": split_words(str(row.get("leaster_points") or "")),
                "tricks": split_words(str(row.get("leaster_tricks") or "")), "stake_cents": stake,
                "house": house.non_default(), "sat_out": sitter,
            }
        return inperson.record_sheepshead_hand, {
            "players": players, "picker": _named(row.get("picker"), members) or "",
            "partner": _named(row.get("partner"), members), "picker_points": str(row.get("points") or "").strip(),
            "stake_cents": stake, "house": house.non_default(), "cracks": cracks,
            "losers_took_trick": (not row.get("no_trick")) if house.schwarz == SCHWARZ_TRICKS else None,
            "sat_out": sitter,
        }
    if draft.game == "hawk":
        lafh = [who for who in (_named(row.get("lafh_1"), members), _named(row.get("lafh_2"), members)) if who]
        return inperson.record_hawk_round, {
            "players": list(members), "lafh": lafh, "solo": bool(row.get("solo")),
            "lafh_pips": str(row.get("lafh_pips") or "").strip(), "nob_pips": str(row.get("nob_pips") or "").strip(),
            "lafh_bonuses": list(row.get("lafh_bonuses") or []), "nob_bonuses": list(row.get("nob_bonuses") or []),
        }
    raise NightError(gettext("Hands of %(game)s played at the club are not recorded here.") % {"game": draft.game})


def _cracks(row: Mapping[str, Any]) -> int:
    """The row's crack boxes as a count: cracked 1, cracked and re-cracked 2; a re-crack needs a crack first."""
    if row.get("recracked") and not row.get("cracked"):
        raise NightError(gettext("Only a cracked hand can be re-cracked: tick “cracked” too."))
    return int(bool(row.get("cracked"))) + int(bool(row.get("recracked")))


def _playing(house: HouseRules, members: Sequence[User], row: Mapping[str, Any]) -> tuple[list[User], User | None]:
    """Who played this hand, and who dealt and sat out: the sheet's players but those not at the table for it (on a
    night where players come and go) and the row's dealer (on a night where the dealer sits out)."""
    present = _present(house, members, row)
    dealer = _named(row.get("dealer"), members)
    if not house.dealer_sits_out:
        if dealer is not None:
            raise NightError(gettext("On this night the dealer plays: nobody sits out."))
        return present, None
    if dealer is None:
        raise NightError(gettext("Choose who dealt this hand: the dealer sits out."))
    if not isinstance(dealer, User) or all(dealer.pk != m.pk for m in present):
        raise NightError(gettext("The dealer must be one of the night's players at the table."))
    return [m for m in present if m.pk != dealer.pk], dealer


def _present(house: HouseRules, members: Sequence[User], row: Mapping[str, Any]) -> list[User]:
    """The sheet's players at the table for this hand: all of them, but on a night where players come and go those
    the row names as away (not come yet, or gone)."""
    away = [_named(who, members) for who in row.get("away") or []]
    away = [who for who in away if who is not None]
    if not away:
        return list(members)
    if not house.players_change:
        raise NightError(gettext("On this night everybody plays every hand: nobody is away."))
    if any(not isinstance(who, User) or all(who.pk != m.pk for m in members) for who in away):
        raise NightError(gettext("Only the night's players can be away from the table."))
    gone = {who.pk for who in away if isinstance(who, User)}
    return [m for m in members if m.pk not in gone]


def seat_amounts(*, members: Sequence[User], priced: Priced,
                 amounts: Sequence[int] | None = None) -> list[int | None]:
    """A priced hand's amounts laid on the sheet's seats: 0 for the player who dealt and sat out, None for a seat
    that did not play it, so a hand of five shows in the right columns of a sheet of six. `amounts`: other values
    per player who played it, in `priced.members`' order, to lay out instead (a tournament sheet's points)."""
    seat_of = {m.pk: seat for seat, m in enumerate(members)}
    sitter = next((seat for seat, m in enumerate(members) if m.username == priced.facts.get("sat_out")), None)
    try:
        return seat_money(night_players=len(members), playing=[seat_of[m.pk] for m in priced.members],
                          money=list(priced.amounts if amounts is None else amounts), sitting_out=sitter)
    except (KeyError, ValueError):
        raise NightError(gettext("The sheet's players could not all be found; open the night again.")) from None


def tournament_points(*, game: str, options: Mapping[str, Any], priced: Priced) -> list[int]:
    """A priced hand of a sheet kept for a tournament table in tournament points, per player who played it (in
    `priced.members`' order): `scoring.hand_points` with the hand's own stake over the night's, as the ledger
    converts it (tables.ledger.services.ledger.in_person_unit). The sheet shows these, and saving sums these into
    the table's points, so what the treasurer saw is what the tournament records."""
    stake = (priced.facts or {}).get("stake_cents")
    return hand_points(game=game, amounts=priced.amounts,
                       options={**options, **({"stake_cents": stake} if stake else {})})


_PRICE = {
    inperson.record_sheepshead_hand: inperson.price_sheepshead_hand,
    inperson.record_sheepshead_leaster: inperson.price_sheepshead_leaster,
    inperson.record_hawk_round: inperson.price_hawk_round,
}


def price_row(*, draft: NightDraft, members: Sequence[User], row: Mapping[str, Any]) -> Priced:
    """One hand of the sheet checked and priced by the engine's helpers; nothing is written."""
    check_row_fields(game=draft.game, row=row)
    record, kwargs = _hand(draft, members, row)
    if record is inperson.record_sheepshead_hand and kwargs["picker"] == "":
        raise NightError(gettext("Choose the picker, or “Leaster (nobody picked)”."))
    return _PRICE[record](**kwargs)


def _stale(current: NightDraft) -> StaleSheet:
    return StaleSheet(gettext(
        "%(who)s changed this sheet at %(time)s, after your page was loaded (on another device?). Nothing was "
        "changed: the sheet is shown as it is now; make your change again if it is still needed.")
        % {"who": current.updated_by.shown_name, "time": date_format(timezone.localtime(current.updated_at),
                                                                     "TIME_FORMAT")})


def _locked(draft: NightDraft, version: int | None) -> NightDraft:
    """The draft as the database has it, locked for this change; refused when it was signed off or changed since
    `version` (the version the page making the change showed)."""
    current = NightDraft.objects.select_for_update().get(pk=draft.pk)
    if current.night_id is not None:
        raise SheetSignedOff(ClubNight.objects.get(pk=current.night_id))
    if version != current.version:
        raise _stale(current)
    return current


def _bump(*, admin: User, draft: NightDraft, current: NightDraft, **also: Any) -> None:
    """The change's last write: the version goes up by one, if and only if it is still the one the change was made
    against (a conditional UPDATE: a second writer that slipped past the lock, as on SQLite, is refused here and
    its transaction rolled back). The caller's draft object follows."""
    now = timezone.now()
    done = NightDraft.objects.filter(pk=current.pk, version=current.version, night__isnull=True).update(
        version=F("version") + 1, updated_by=admin, updated_at=now, **also)
    if done != 1:
        raise _stale(NightDraft.objects.get(pk=current.pk))
    draft.version, draft.updated_by, draft.updated_at = current.version + 1, admin, now
    for name, value in also.items():
        setattr(draft, name, value)


def _number(value: Any) -> int:
    number = value if isinstance(value, int) else record_id(str(value or ""))
    if number is None or not 1 <= number <= MAX_NUMBER:
        raise NightError(gettext("A hand's number is a whole number from 1 to %(most)s, not %(number)s.")
                         % {"most": MAX_NUMBER, "number": value})
    return number


def _row_at(current: NightDraft, number: int) -> DraftRow:
    found = current.rows.filter(number=number).first()
    if found is None:
        raise NightError(gettext("The sheet has no hand %(number)s.") % {"number": number})
    return found


def _room(current: NightDraft) -> None:
    if current.rows.count() >= MAX_HANDS:
        raise NightError(gettext("A sheet holds at most %(count)s hands: save this night and open another.")
                         % {"count": MAX_HANDS})


def add_row(
    *, admin: User, draft: NightDraft, version: int | None, members: Sequence[User], row: Mapping[str, Any],
    number: Any = None,
) -> DraftRow:
    """The hand checked, priced and put on the sheet at `number` (the paper's; empty: one after the last row); a
    number a row already holds is refused (inserting a missed hand is `insert_row`). Refused: nothing changes."""
    _check_admin(admin)
    with transaction.atomic():
        current = _locked(draft, version)
        _room(current)
        price_row(draft=current, members=members, row=row)
        if number is None or str(number).strip() == "":
            number = (current.rows.aggregate(last=Max("number"))["last"] or 0) + 1
        number = _number(number)
        if current.rows.filter(number=number).exists():
            raise NightError(gettext("Hand %(number)s is already on the sheet: change that row, or insert the missed "
                                     "hand before it.") % {"number": number})
        added = DraftRow.objects.create(draft=current, number=number, data=dict(row), entered_by=admin,
                                        entered_at=timezone.now())
        _bump(admin=admin, draft=draft, current=current)
    return added


def insert_row(
    *, admin: User, draft: NightDraft, version: int | None, members: Sequence[User], row: Mapping[str, Any],
    number: Any,
) -> DraftRow:
    """A missed hand put where it belongs, at the paper's `number`. When a row holds that number, it and the unbroken
    run of rows after it move up by one (up to the first free number: rows beyond a gap already carry the paper's
    numbers), so no row is renumbered that need not be."""
    _check_admin(admin)
    with transaction.atomic():
        current = _locked(draft, version)
        _room(current)
        price_row(draft=current, members=members, row=row)
        number = _number(number)
        taken = set(current.rows.values_list("number", flat=True))
        end = number
        while end in taken:
            end += 1
        if end > MAX_NUMBER:
            raise NightError(gettext("A hand's number is a whole number from 1 to %(most)s, not %(number)s.")
                             % {"most": MAX_NUMBER, "number": end})
        # Highest first, one row at a time: two rows never hold one number, whatever the database checks when.
        for moved in current.rows.filter(number__gte=number, number__lt=end).order_by("-number"):
            moved.number += 1
            moved.save(update_fields=["number"])
        added = DraftRow.objects.create(draft=current, number=number, data=dict(row), entered_by=admin,
                                        entered_at=timezone.now())
        _bump(admin=admin, draft=draft, current=current)
    return added


def change_row(
    *, admin: User, draft: NightDraft, version: int | None, members: Sequence[User], number: int,
    row: Mapping[str, Any], new_number: Any = None,
) -> DraftRow:
    """Hand `number` typed again, in place (and, with `new_number`, moved to a number no row holds): checked and
    priced as a new hand is; who changed it and when is kept beside who entered it."""
    _check_admin(admin)
    with transaction.atomic():
        current = _locked(draft, version)
        target = _row_at(current, number)
        price_row(draft=current, members=members, row=row)
        if new_number is not None and str(new_number).strip() != "":
            moved = _number(new_number)
            if moved != number and current.rows.filter(number=moved).exists():
                raise NightError(gettext("Hand %(number)s is already on the sheet: change that row, or insert the "
                                         "missed hand before it.") % {"number": moved})
            target.number = moved
        target.data, target.changed_by, target.changed_at = dict(row), admin, timezone.now()
        target.save(update_fields=["number", "data", "changed_by", "changed_at"])
        _bump(admin=admin, draft=draft, current=current)
    return target


def void_row(
    *, admin: User, draft: NightDraft, version: int | None, number: int, void: bool = True, reason: str = "",
) -> DraftRow:
    """Hand `number` voided (it stays on the sheet with its number, struck, with the reason if one is given, and
    counts nothing), or with `void=False` counted again."""
    _check_admin(admin)
    with transaction.atomic():
        current = _locked(draft, version)
        target = _row_at(current, number)
        target.void, target.void_reason = void, (reason or "").strip()[:200] if void else ""
        target.changed_by, target.changed_at = admin, timezone.now()
        target.save(update_fields=["void", "void_reason", "changed_by", "changed_at"])
        _bump(admin=admin, draft=draft, current=current)
    return target


def remove_row(*, admin: User, draft: NightDraft, version: int | None, number: int) -> None:
    """Crosses a row typed by mistake (a hand the paper does not have) off the sheet; the other rows keep their
    numbers. A hand the paper has but that does not count is voided instead."""
    _check_admin(admin)
    with transaction.atomic():
        current = _locked(draft, version)
        _row_at(current, number).delete()
        _bump(admin=admin, draft=draft, current=current)


def _already(token: str) -> ClubNight | None:
    return ClubNight.objects.filter(token=token).first()


def _tournament_table(current: NightDraft, hands: int, tournament_table_id: int | None) -> TournamentTable | None:
    """The in-person tournament table the sheet is kept for (None: an ordinary night): the one asked for, else the
    draft's. One that does not exist, is not played at the club, is another game's or already has its night is
    refused; so is a sheet whose hands are not the session's: a session plays `hands_per_session` hands, no more
    and no fewer, on one sheet only."""
    wanted = tournament_table_id if tournament_table_id is not None else current.tournament_table_id
    if wanted is None:
        return None
    table = (TournamentTable.objects.select_related("round__tournament").filter(pk=wanted).first()
             if isinstance(wanted, int) and not isinstance(wanted, bool) else None)
    if table is None or table.where != TournamentTable.Where.CLUB or table.round.tournament.game != current.game:
        raise NightError(gettext("This sheet cannot be saved for that tournament table."))
    if ClubNight.objects.filter(tournament_table=table).exists():
        raise NightError(gettext("This tournament table's hands were already saved from another sheet. Nothing was "
                                 "saved."))
    expected = table.round.tournament.hands_per_session
    if hands != expected:
        raise NightError(gettext(
            "This sheet is for a tournament session of %(expected)s hands, but it has %(count)s hands that count. "
            "Add, remove or void hands until it has %(expected)s. Nothing was saved.")
            % {"expected": expected, "count": hands})
    return table


def save_night(*, admin: User, draft: NightDraft, version: int | None, members: Sequence[User],
               tournament_table_id: int | None = None) -> Saved:
    """Signs the sheet off: the night and every hand that is not void with its ledger entries, and the draft marked
    signed off, in one transaction, or nothing at all. A sheet already signed off answers with its night and writes
    nothing (a double click, or another device saving it first); a sheet changed since `version` is refused, so
    nobody books hands they have not seen.

    Each hand goes through its recording service again (checked and priced afresh, so a member whose account was
    closed since, or a row tampered with, is caught); the first refusal names its hand and rolls everything back.

    A night kept for an in-person tournament table (`tournament_table_id`, else the draft's own `tournament_table`)
    is saved linked to it, so its hands go into the ledger in points, not money (tables.ledger.services.ledger).
    """
    _check_admin(admin)
    try:
        with transaction.atomic():
            current = NightDraft.objects.select_for_update().get(pk=draft.pk)
            if current.night_id is not None:
                return Saved(night=ClubNight.objects.get(pk=current.night_id), created=False)
            if (night := _already(current.token)) is not None:
                return Saved(night=night, created=False)
            if version != current.version:
                raise _stale(current)
            rows = list(current.rows.filter(void=False).order_by("number"))
            if not rows:
                raise NightError(gettext("The sheet has no hands yet: enter at least one before saving."))
            if [m.pk for m in members] != list(current.seats):
                raise NightError(gettext("The sheet's players could not all be found; open the night again."))
            table = _tournament_table(current, len(rows), tournament_table_id)
            now = timezone.now()
            night = ClubNight.objects.create(
                game=current.game, played_on=current.played_on, seats=list(current.seats),
                options=dict(current.options), note=current.note, token=current.token, recorded_by=admin,
                recorded_at=now, tournament_table=table,
            )
            results = dict.fromkeys(current.seats, 0)  # each player's tournament points, summed hand by hand
            for row in rows:
                try:
                    check_row_fields(game=current.game, row=row.data)
                    record, kwargs = _hand(current, members, row.data)
                    if record is inperson.record_sheepshead_hand and kwargs["picker"] == "":
                        raise NightError(gettext("Choose the picker, or “Leaster (nobody picked)”."))
                    if table is not None:
                        priced = _PRICE[record](**kwargs)
                        hand = tournament_points(game=current.game, options=current.options, priced=priced)
                        for member, points in zip(priced.members, hand, strict=True):
                            results[member.pk] += points
                    record(admin=admin, played_on=current.played_on, night=night, number=row.number, **kwargs)
                except InPersonError as error:
                    raise NightError(gettext("Hand %(number)s: %(error)s Nothing was saved.")
                                     % {"number": row.number, "error": error}) from None
            if table is not None:
                record_session_points(table_id=table.pk, staff=admin, points=results)
            _bump(admin=admin, draft=draft, current=current, night=night, signed_off_by=admin, signed_off_at=now)
    except IntegrityError:
        if (night := _already(draft.token)) is not None:  # the same sheet, saved by a request racing this one
            return Saved(night=night, created=False)
        raise
    return Saved(night=night, created=True)
