"""A club night's score sheet: opened (date, game, players in seat order, stake), filled hand by hand, saved whole.

Every hand is checked and priced by the ledger's in-person services (which call the engine's public scoring
helpers), both as it is entered and again when the night is saved, so the sheet can never show one price and book
another. Until it is saved a sheet is plain data (`Sheet`, kept in the treasurer's session by the views), so
entering hands writes nothing. Saving writes the ClubNight and one InPersonRecord per hand, with their ledger
entries, in ONE transaction through the same recording services: a bad hand rolls back the whole night and is
named. The sheet's `token` is unique in the database: a second save of the same sheet (a double click, a retried
POST) finds the night already there and writes nothing. Refusals are said in the language of the treasurer's request
(gettext when raised), as the in-person services say theirs.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from rules.engine.sheepshead.house import SCHWARZ_TRICKS, SIT_OUT_PLAYERS, HouseRules, house_rules, seat_money
from tables.ledger.forms import split_words
from tables.ledger.services import inperson
from tables.ledger.services.inperson import InPersonError, Priced
from tables.models import ClubNight
from tables.play.request_numbers import record_id
from tables.play.services.errors import NotAllowed

LEASTER = "leaster"
MAX_HANDS = 200  # an evening is some 40 hands; more is a runaway script, not a night


class NightError(InPersonError):
    """The sheet cannot be opened, a hand cannot be added, or the night cannot be saved; nothing was written."""


@dataclass
class Sheet:
    """An unsaved night: what the treasurer opened it with and the hands entered so far, as typed (member ids for
    the players chosen from the sheet's own lists, numbers as text), so that re-checking them is always possible."""

    token: str
    game: str
    played_on: date
    seats: list[int]
    options: dict[str, Any]
    note: str = ""
    rows: list[dict[str, Any]] = field(default_factory=list)

    def as_data(self) -> dict[str, Any]:
        return {"token": self.token, "game": self.game, "played_on": self.played_on.isoformat(),
                "seats": list(self.seats), "options": dict(self.options), "note": self.note,
                "rows": [dict(row) for row in self.rows]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Sheet:
        return cls(token=str(data["token"]), game=str(data["game"]), played_on=date.fromisoformat(data["played_on"]),
                   seats=[int(s) for s in data["seats"]], options=dict(data.get("options") or {}),
                   note=str(data.get("note") or ""), rows=[dict(r) for r in data.get("rows") or []])


@dataclass(frozen=True)
class Saved:
    night: ClubNight
    created: bool  # False: this sheet had been saved before, and nothing more was written


def _check_admin(admin: User) -> None:
    if not (admin.is_authenticated and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins record club nights."))


def open_sheet(
    *, admin: User, game: str, played_on: date | None, players: Sequence[User], stake_cents: Any = None, note: str = "",
    house: Mapping[str, Any] | None = None,
) -> Sheet:
    """A new, empty sheet for these players in this seat order; refused as the night's first hand would be.

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
    return Sheet(token=secrets.token_urlsafe(24), game=game, played_on=day, seats=[m.pk for m in members],
                 options=options, note=(note or "").strip()[:200])


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


def _hand(sheet: Sheet, members: Sequence[User], row: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The recording service for this row and its arguments (without who records it, when, or on which night)."""
    if sheet.game == "sheepshead":
        stake = sheet.options.get("stake_cents")
        house = _house_rules(sheet.game, sheet.options)
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
    if sheet.game == "hawk":
        lafh = [who for who in (_named(row.get("lafh_1"), members), _named(row.get("lafh_2"), members)) if who]
        return inperson.record_hawk_round, {
            "players": list(members), "lafh": lafh, "solo": bool(row.get("solo")),
            "lafh_pips": str(row.get("lafh_pips") or "").strip(), "nob_pips": str(row.get("nob_pips") or "").strip(),
            "lafh_bonuses": list(row.get("lafh_bonuses") or []), "nob_bonuses": list(row.get("nob_bonuses") or []),
        }
    raise NightError(gettext("Hands of %(game)s played at the club are not recorded here.") % {"game": sheet.game})


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


def seat_amounts(*, members: Sequence[User], priced: Priced) -> list[int | None]:
    """A priced hand's amounts laid on the sheet's seats: 0 for the player who dealt and sat out, None for a seat
    that did not play it, so a hand of five shows in the right columns of a sheet of six."""
    seat_of = {m.pk: seat for seat, m in enumerate(members)}
    sitter = next((seat for seat, m in enumerate(members) if m.username == priced.facts.get("sat_out")), None)
    try:
        return seat_money(night_players=len(members), playing=[seat_of[m.pk] for m in priced.members],
                          money=list(priced.amounts), sitting_out=sitter)
    except (KeyError, ValueError):
        raise NightError(gettext("The sheet's players could not all be found; open the night again.")) from None


_PRICE = {
    inperson.record_sheepshead_hand: inperson.price_sheepshead_hand,
    inperson.record_sheepshead_leaster: inperson.price_sheepshead_leaster,
    inperson.record_hawk_round: inperson.price_hawk_round,
}


def price_row(*, sheet: Sheet, members: Sequence[User], row: Mapping[str, Any]) -> Priced:
    """One hand of the sheet checked and priced by the engine's helpers; nothing is written."""
    record, kwargs = _hand(sheet, members, row)
    if record is inperson.record_sheepshead_hand and kwargs["picker"] == "":
        raise NightError(gettext("Choose the picker, or “Leaster (nobody picked)”."))
    return _PRICE[record](**kwargs)


def add_row(*, admin: User, sheet: Sheet, members: Sequence[User], row: Mapping[str, Any]) -> Priced:
    """The hand priced and appended to the sheet (still unsaved); a bad hand is refused and the sheet unchanged."""
    _check_admin(admin)
    if len(sheet.rows) >= MAX_HANDS:
        raise NightError(gettext("A sheet holds at most %(count)s hands: save this night and open another.")
                         % {"count": MAX_HANDS})
    priced = price_row(sheet=sheet, members=members, row=row)
    sheet.rows.append(dict(row))
    return priced


def remove_row(*, admin: User, sheet: Sheet, number: int) -> None:
    """Crosses hand `number` (1-based) off the unsaved sheet; the hands after it move up one row."""
    _check_admin(admin)
    if not 1 <= number <= len(sheet.rows):
        raise NightError(gettext("The sheet has no hand %(number)s.") % {"number": number})
    del sheet.rows[number - 1]


def _already(token: str) -> ClubNight | None:
    return ClubNight.objects.filter(token=token).first()


def save_night(*, admin: User, sheet: Sheet, members: Sequence[User]) -> Saved:
    """The night and every hand with its ledger entries, in one transaction, or nothing at all.

    Each hand goes through its recording service again (checked and priced afresh, so a member whose account was
    closed since, or a sheet tampered with, is caught); the first refusal names its hand and rolls everything back.
    """
    _check_admin(admin)
    if (night := _already(sheet.token)) is not None:
        return Saved(night=night, created=False)
    if not sheet.rows:
        raise NightError(gettext("The sheet has no hands yet: enter at least one before saving."))
    if [m.pk for m in members] != list(sheet.seats):
        raise NightError(gettext("The sheet's players could not all be found; open the night again."))
    try:
        with transaction.atomic():
            night = ClubNight.objects.create(
                game=sheet.game, played_on=sheet.played_on, seats=list(sheet.seats), options=dict(sheet.options),
                note=sheet.note, token=sheet.token, recorded_by=admin, recorded_at=timezone.now(),
            )
            for number, row in enumerate(sheet.rows, 1):
                record, kwargs = _hand(sheet, members, row)
                try:
                    if record is inperson.record_sheepshead_hand and kwargs["picker"] == "":
                        raise NightError(gettext("Choose the picker, or “Leaster (nobody picked)”."))
                    record(admin=admin, played_on=sheet.played_on, night=night, number=number, **kwargs)
                except InPersonError as error:
                    raise NightError(gettext("Hand %(number)s: %(error)s Nothing was saved.")
                                     % {"number": number, "error": error}) from None
    except IntegrityError:
        if (night := _already(sheet.token)) is not None:  # the same sheet, saved by a request racing this one
            return Saved(night=night, created=False)
        raise
    return Saved(night=night, created=True)
