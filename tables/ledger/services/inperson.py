"""Results of games played at the club's physical table, recorded by an admin.

The admin writes down a few facts (who played, who picked, the points; or LAFH's pips and the
bonuses) and the engine's own scoring helpers turn them into money or points, exactly as they do
for online rounds, so the two can never disagree. Everything is checked before anything is
written: unknown or repeated members, wrong player counts, impossible points (1 or 119 in
Sheepshead, more than 120, negative), a partner where none can exist. A refusal says what is
wrong and writes nothing, in the language of the request that asked (gettext when it is raised: these services run
inside the treasurer's request, and the page shows `str(error)` in that same request).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from accounts.models import User
from rules.engine import hawk, registry, sheepshead
from rules.engine.hawk import BONUS_KINDS, deal_size
from rules.engine.sheepshead.scoring import TOTAL_POINTS
from rules.engine.text import Said
from tables.i18n import sentence_to_data
from tables.ledger import summaries
from tables.ledger.services import ledger
from tables.ledger.services.ledger import LedgerError
from tables.models import ClubNight, InPersonRecord
from tables.play.request_numbers import LARGEST_INT, whole_number
from tables.play.services.errors import NotAllowed

SHEEPSHEAD_PLAYERS = (3, 7)
HAWK_PLAYERS = (2, 6)
HAWK_ALL_PIPS = 220  # A..10 in four suits
STAKE_RANGE = (5, 10000)


@dataclass(frozen=True)
class InPersonGame:
    """A game whose hands played at the club's table can be recorded here: its player range and whether its hands
    are played for a stake (the one house rule these services take)."""

    players: tuple[int, int]
    stake: bool


GAMES: dict[str, InPersonGame] = {
    "sheepshead": InPersonGame(players=SHEEPSHEAD_PLAYERS, stake=True),
    "hawk": InPersonGame(players=HAWK_PLAYERS, stake=False),
}
"""The games this module records, so a sheet of many hands offers exactly these and no other."""

Named = str | User
"""A member as a form gives them (already resolved) or as a person types them (username or email)."""


@dataclass(frozen=True)
class Priced:
    """A hand checked and priced by the engine's helpers, not yet written: what `_save` would record. `summary` is
    its sentence (tables.ledger.summaries): a str that reads as its English, shown in the reader's language."""

    game: str
    kind: str
    facts: dict[str, Any]
    score: dict[str, Any]
    summary: Said
    members: list[User]
    amounts: list[int]


class InPersonError(LedgerError):
    """The result as written down cannot be right; nothing was recorded."""


def _check_admin(admin: User) -> None:
    if not (admin.is_authenticated and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins record results from the club's table."))


def _whole(name: str, value: Any) -> int:
    """`value` as a whole number; `name` is the field's name as the reader reads it (already translated)."""
    if isinstance(value, bool):
        raise InPersonError(gettext("%(field)s: %(value)s is not a whole number.") % {"field": name,
                                                                                       "value": repr(value)})
    if isinstance(value, int):
        return value
    text = str(value).strip()
    number = whole_number(text, low=-LARGEST_INT)
    if number is None:
        raise InPersonError(gettext("%(field)s: %(value)s is not a whole number.") % {"field": name,
                                                                                       "value": repr(text)})
    return number


def _member(name: str) -> User | None:
    """The member a person means by `name`: a username or an email address, in any case, as the login takes
    them (an address may be the account's own or one added in its email settings)."""
    user = User.objects.filter(username=name).first() or User.objects.filter(username__iexact=name).first()
    if user is not None or "@" not in name:
        return user
    owners = list(
        User.objects.filter(Q(email__iexact=name) | Q(emailaddress__email__iexact=name)).distinct()[:2]
    )
    if len(owners) > 1:
        raise InPersonError(gettext("%(address)s is the email address of more than one member: name them by "
                                    "username.") % {"address": name})
    return owners[0] if owners else None


def _name_of(who: Named) -> str:
    return who.username if isinstance(who, User) else str(who).strip()


def _members(usernames: Sequence[Named], game: str, players: tuple[int, int]) -> list[User]:
    """The members by username or email address (or as members already), in seat order, refusing unknown,
    inactive and repeated names."""
    given = {_name_of(who): who for who in usernames if isinstance(who, User)}
    names = [_name_of(name) for name in usernames if _name_of(name)]
    low, high = players
    if not low <= len(names) <= high:
        raise InPersonError(gettext("%(game)s is played by %(low)s to %(high)s players; you named %(count)s.")
                            % {"game": game, "low": low, "high": high, "count": len(names)})
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            raise InPersonError(gettext("%(name)s is named twice; every player sits once.") % {"name": name})
        seen.add(name.lower())
    found = {name: given[name] if name in given else _member(name) for name in names}
    unknown = [name for name in names if found[name] is None and "@" not in name]
    if unknown:
        raise InPersonError(gettext("No member is called %(names)s.") % {"names": ", ".join(unknown)})
    unknown = [name for name in names if found[name] is None]
    if unknown:
        raise InPersonError(gettext("No member has the email address %(addresses)s.") % {
            "addresses": ", ".join(unknown)})
    members = [found[name] for name in names]
    named_as: dict[int, str] = {}
    for name, member in zip(names, members, strict=True):
        if member.pk in named_as:
            raise InPersonError(
                gettext("%(first)s and %(second)s are the same member, named twice; every player sits once.")
                % {"first": named_as[member.pk], "second": name}
            )
        named_as[member.pk] = name
    closed = [m.username for m in members if not m.is_active]
    if closed:
        raise InPersonError(gettext("The account of %(names)s is closed.") % {"names": ", ".join(closed)})
    return members


def _not_a_player(role: str, name: str) -> InPersonError:
    """One whole sentence per role, so each language says "the picker" in its own words and grammar."""
    sentences = {
        "picker": gettext("The picker (%(name)s) must be one of the players."),
        "partner": gettext("The partner (%(name)s) must be one of the players."),
        "LAFH player": gettext("The LAFH player (%(name)s) must be one of the players."),
    }
    return InPersonError(sentences[role] % {"name": name})


def _seat(members: Sequence[User], username: Named | None, role: str) -> int | None:
    if isinstance(username, User):
        for position, member in enumerate(members):
            if member.pk == username.pk:
                return position
        raise _not_a_player(role, username.shown_name)
    name = (username or "").strip()
    if not name:
        return None
    for position, member in enumerate(members):
        if name.lower() in (member.username.lower(), member.email.lower()):
            return position
    named = _member(name) if "@" in name else None  # perhaps another of a player's addresses
    for position, member in enumerate(members):
        if named is not None and member.pk == named.pk:
            return position
    raise _not_a_player(role, name)


def check_players(*, game: str, players: Sequence[Named]) -> list[User]:
    """The players of a game recorded here, in seat order, as its hands will check them (count, repeats, closed
    accounts), so a sheet of many hands can refuse its players before the first hand."""
    if game not in GAMES:
        raise InPersonError(gettext("Hands of %(game)s played at the club are not recorded here.") % {"game": game})
    return _members(players, registry.spec(game).title, GAMES[game].players)


def check_stake(stake_cents: Any) -> int:
    return _stake(stake_cents)


def check_day(played_on: date | None) -> date:
    return _played_on(played_on)


def _stake(stake_cents: Any) -> int:
    stake = _whole(pgettext("a hand's field", "Stake"), stake_cents)
    low, high = STAKE_RANGE
    if not low <= stake <= high:
        raise InPersonError(gettext("The stake must be between %(low)s and %(high)s cents, not %(stake)s.")
                            % {"low": low, "high": high, "stake": stake})
    return stake


def _played_on(played_on: date | None) -> date:
    today = timezone.localdate()
    if played_on is None:
        return today
    if played_on > today:
        raise InPersonError(gettext("A result cannot be recorded for a day that has not come yet."))
    return played_on


def _save(
    *, admin: User, priced: Priced, played_on: date, note: str, night: ClubNight | None = None,
    number: int | None = None, replaces: InPersonRecord | None = None, reason: str = "",
) -> InPersonRecord:
    """Writes the record and its entries; inside a caller's transaction (a night's sheet) this is a savepoint, so the
    whole night commits or rolls back together. A record that `replaces` another also reverses the other's entries,
    together; it stays on the other's night, off its rows (a row of a night holds one hand)."""
    if (night is None) != (number is None):
        raise InPersonError(gettext("A hand of a club night names both its night and its row."))
    if replaces is not None:
        night, number = replaces.night, None
    with transaction.atomic():
        record = InPersonRecord.objects.create(
            game=priced.game, kind=priced.kind, facts=priced.facts, score=priced.score,
            summary=str(priced.summary)[:300], summary_said=sentence_to_data(priced.summary),
            note=(note or "").strip()[:200], played_on=played_on, recorded_by=admin, recorded_at=timezone.now(),
            night=night, number=number, replaces=replaces, reason=reason if replaces is not None else "",
        )
        if replaces is None:
            ledger.record_in_person(record=record, members=priced.members, amounts=priced.amounts)
        else:
            ledger.replace_in_person(old=replaces, record=record, members=priced.members, amounts=priced.amounts,
                                     admin=admin, reason=reason)
    return record


def _sentence(error: Exception) -> str:
    """The engine's refusal as a sentence: in English, the engine's language; the checks before each call to the
    engine refuse, in the reader's language, everything a person can type that the engine would refuse."""
    text = str(error).rstrip(".")
    return text[:1].upper() + text[1:] + "."


def record_sheepshead_hand(
    *, admin: User, players: Sequence[Named], picker: Named, partner: Named | None, picker_points: Any,
    stake_cents: Any = 100, played_on: date | None = None, note: str = "", night: ClubNight | None = None,
    number: int | None = None,
    replaces: InPersonRecord | None = None, reason: str = "",
) -> InPersonRecord:
    """A picked hand: the picker (and partner, or none) against the rest, settled as RULES.md says."""
    _check_admin(admin)
    priced = price_sheepshead_hand(
        players=players, picker=picker, partner=partner, picker_points=picker_points, stake_cents=stake_cents
    )
    return _save(admin=admin, priced=priced, played_on=_played_on(played_on), note=note, night=night, number=number,
                 replaces=replaces, reason=reason)


def price_sheepshead_hand(
    *, players: Sequence[Named], picker: Named, partner: Named | None, picker_points: Any, stake_cents: Any = 100,
) -> Priced:
    """A picked hand checked and priced, nothing written (a night's sheet shows it before saving)."""
    members = _members(players, "Sheepshead", SHEEPSHEAD_PLAYERS)
    count = len(members)
    picker_seat = _seat(members, picker, "picker")
    if picker_seat is None:
        raise InPersonError(gettext("Name the picker (or record a leaster if nobody picked)."))
    partner_seat = _seat(members, partner, "partner")
    if partner_seat is not None and count < 5:
        raise InPersonError(gettext("With %(count)s players there is no partner: the picker always plays alone.")
                            % {"count": count})
    if partner_seat is not None and partner_seat == picker_seat:
        raise InPersonError(gettext("The partner cannot be the picker; leave the partner empty if the picker "
                                    "played alone."))
    points = _whole(pgettext("a hand's field", "Picker points"), picker_points)
    if points < 0 or points > TOTAL_POINTS:
        raise InPersonError(gettext("The picker's side takes between 0 and %(total)s points, not %(points)s.")
                            % {"total": TOTAL_POINTS, "points": points})
    if points in (1, TOTAL_POINTS - 1):
        raise InPersonError(gettext("%(points)s points cannot happen in Sheepshead (no card is worth 1 point).")
                            % {"points": points})
    stake = _stake(stake_cents)
    try:
        money = sheepshead.settle(
            players=count, picker=picker_seat, partner=partner_seat, picker_points=points, stake_cents=stake
        )
        rate = sheepshead.picker_rate(points)
    except ValueError as error:
        raise InPersonError(_sentence(error)) from None
    summary = summaries.sheepshead_hand(names=[m.shown_name for m in members], picker=picker_seat,
                                        partner=partner_seat, points=points, rate=rate, stake_cents=stake, money=money)
    facts = {
        "players": [m.username for m in members], "picker": members[picker_seat].username,
        "partner": members[partner_seat].username if partner_seat is not None else None,
        "picker_points": points, "stake_cents": stake,
    }
    score = {"rate": rate, "money": money, "picker": picker_seat, "partner": partner_seat}
    return Priced(game="sheepshead", kind=InPersonRecord.Kind.SHEEPSHEAD_HAND, facts=facts, score=score,
                  summary=summary, members=members, amounts=money)


def _per_player(name: str, values: Sequence[Any], count: int) -> list[int]:
    numbers = [_whole(name, v) for v in values]
    if len(numbers) != count:
        raise InPersonError(gettext("%(field)s: give one number per player (%(count)s), not %(given)s.")
                            % {"field": name, "count": count, "given": len(numbers)})
    return numbers


def record_sheepshead_leaster(
    *, admin: User, players: Sequence[Named], points: Sequence[Any], tricks: Sequence[Any],
    stake_cents: Any = 100, played_on: date | None = None, note: str = "", night: ClubNight | None = None,
    number: int | None = None,
    replaces: InPersonRecord | None = None, reason: str = "",
) -> InPersonRecord:
    """A leaster (nobody picked): each player's points and tricks; the fewest points with a trick wins."""
    _check_admin(admin)
    priced = price_sheepshead_leaster(players=players, points=points, tricks=tricks, stake_cents=stake_cents)
    return _save(admin=admin, priced=priced, played_on=_played_on(played_on), note=note, night=night, number=number,
                 replaces=replaces, reason=reason)


def price_sheepshead_leaster(
    *, players: Sequence[Named], points: Sequence[Any], tricks: Sequence[Any], stake_cents: Any = 100,
) -> Priced:
    """A leaster checked and priced, nothing written."""
    members = _members(players, "Sheepshead", SHEEPSHEAD_PLAYERS)
    count = len(members)
    taken_points = _per_player(pgettext("a hand's field", "Points"), points, count)
    taken_tricks = _per_player(pgettext("a hand's field", "Tricks"), tricks, count)
    hand, _blind = sheepshead.deal_sizes(count)
    for member, p, t in zip(members, taken_points, taken_tricks, strict=True):
        if p < 0 or t < 0:
            raise InPersonError(gettext("%(player)s: points and tricks cannot be negative.")
                                % {"player": member.shown_name})
        if p in (1, TOTAL_POINTS - 1) or p > TOTAL_POINTS:
            raise InPersonError(gettext("%(player)s cannot have taken %(points)s points.")
                                % {"player": member.shown_name, "points": p})
        if t == 0 and p:
            raise InPersonError(gettext("%(player)s took no trick, so cannot have %(points)s points.")
                                % {"player": member.shown_name, "points": p})
    if sum(taken_tricks) != hand:
        raise InPersonError(
            gettext("With %(count)s players there are %(tricks)s tricks; the tricks written down add up to "
                    "%(written)s.") % {"count": count, "tricks": hand, "written": sum(taken_tricks)}
        )
    if sum(taken_points) != TOTAL_POINTS:
        raise InPersonError(
            gettext("The points (the blind counted with the last trick) add up to %(total)s, not %(written)s.")
            % {"total": TOTAL_POINTS, "written": sum(taken_points)}
        )
    stake = _stake(stake_cents)
    winner = sheepshead.leaster_winner(points=taken_points, tricks=taken_tricks)
    money = sheepshead.settle_leaster(players=count, winner=winner, stake_cents=stake)
    summary = summaries.sheepshead_leaster(names=[m.shown_name for m in members], winner=winner,
                                           points=taken_points, stake_cents=stake)
    facts = {"players": [m.username for m in members], "points": taken_points, "tricks": taken_tricks,
             "stake_cents": stake}
    score = {"winner": winner, "money": money}
    return Priced(game="sheepshead", kind=InPersonRecord.Kind.SHEEPSHEAD_LEASTER, facts=facts, score=score,
                  summary=summary, members=members, amounts=money)


def _bonuses(side: str, kinds: Iterable[str]) -> list[str]:
    listed = [str(kind).strip() for kind in kinds if str(kind).strip()]
    unknown = [kind for kind in listed if kind not in BONUS_KINDS]
    if unknown:
        raise InPersonError(gettext("%(side)s: %(unknown)s is not a Hawk bonus (%(kinds)s).") % {
            "side": side, "unknown": ", ".join(unknown), "kinds": ", ".join(BONUS_KINDS)})
    if len(set(listed)) != len(listed):
        raise InPersonError(gettext("%(side)s: each bonus kind counts once per side.") % {"side": side})
    return listed


def record_hawk_round(
    *, admin: User, players: Sequence[Named], lafh: Sequence[Named], solo: bool, lafh_pips: Any,
    nob_pips: Any = None, lafh_bonuses: Iterable[str] = (), nob_bonuses: Iterable[str] = (),
    played_on: date | None = None, note: str = "", night: ClubNight | None = None, number: int | None = None,
    replaces: InPersonRecord | None = None, reason: str = "",
) -> InPersonRecord:
    """A Hawk round: LAFH (one player solo, or two), the pips and the bonus kinds each side showed.

    With 4 or 5 players all forty cards are dealt, so NOB's pips are 220 less LAFH's when left out.
    """
    _check_admin(admin)
    priced = price_hawk_round(players=players, lafh=lafh, solo=solo, lafh_pips=lafh_pips, nob_pips=nob_pips,
                              lafh_bonuses=lafh_bonuses, nob_bonuses=nob_bonuses)
    return _save(admin=admin, priced=priced, played_on=_played_on(played_on), note=note, night=night, number=number,
                 replaces=replaces, reason=reason)


def price_hawk_round(
    *, players: Sequence[Named], lafh: Sequence[Named], solo: bool, lafh_pips: Any, nob_pips: Any = None,
    lafh_bonuses: Iterable[str] = (), nob_bonuses: Iterable[str] = (),
) -> Priced:
    """A Hawk round checked and scored, nothing written."""
    members = _members(players, "Hawk", HAWK_PLAYERS)
    count = len(members)
    lafh_names = [n for n in lafh if isinstance(n, User) or str(n).strip()]
    seats = [_seat(members, name, "LAFH player") for name in lafh_names]
    if len(set(seats)) != len(seats):
        raise InPersonError(gettext("A LAFH player is named twice."))
    if count <= 3:
        if len(seats) != 1:
            raise InPersonError(gettext("With %(count)s players LAFH is one player: whoever took the last trick.")
                                % {"count": count})
        if solo:
            raise InPersonError(gettext("Solo exists only with 4 to 6 players; with %(count)s LAFH is always one "
                                        "player.") % {"count": count})
    else:
        if not 1 <= len(seats) <= 2:
            raise InPersonError(gettext("LAFH is two players (first and last trick), or one playing solo who took "
                                        "both."))
        if solo and len(seats) != 1:
            raise InPersonError(gettext("Solo means one player took the first and the last trick: name one LAFH "
                                        "player."))
        if not solo and len(seats) == 1:
            raise InPersonError(gettext("One LAFH player took both the first and the last trick: tick solo, or "
                                        "name both."))
    in_play = count * deal_size(count)
    all_dealt = in_play == len(hawk.DECK)
    pips_lafh = _whole(pgettext("a hand's field", "LAFH pips"), lafh_pips)
    if not 0 <= pips_lafh <= HAWK_ALL_PIPS:
        raise InPersonError(gettext("LAFH's pips are between 0 and %(all)s, not %(pips)s.")
                            % {"all": HAWK_ALL_PIPS, "pips": pips_lafh})
    if nob_pips is None or str(nob_pips).strip() == "":
        if not all_dealt:
            raise InPersonError(gettext("With %(count)s players some cards are out of play: write down NOB's pips "
                                        "too.") % {"count": count})
        pips_nob = HAWK_ALL_PIPS - pips_lafh
    else:
        pips_nob = _whole(pgettext("a hand's field", "NOB pips"), nob_pips)
    if pips_lafh < 0 or pips_nob < 0:
        raise InPersonError(gettext("Pips cannot be negative."))
    if pips_lafh + pips_nob > HAWK_ALL_PIPS:
        raise InPersonError(gettext("The deck holds %(all)s pips; LAFH and NOB together have %(pips)s.")
                            % {"all": HAWK_ALL_PIPS, "pips": pips_lafh + pips_nob})
    if all_dealt and pips_lafh + pips_nob != HAWK_ALL_PIPS:
        raise InPersonError(
            gettext("With %(count)s players every card is dealt, so LAFH and NOB have %(all)s pips together, not "
                    "%(pips)s.") % {"count": count, "all": HAWK_ALL_PIPS, "pips": pips_lafh + pips_nob}
        )
    plus = _bonuses(pgettext("a hand's field", "LAFH bonuses"), lafh_bonuses)
    minus = _bonuses(pgettext("a hand's field", "NOB bonuses"), nob_bonuses)
    # The two refusals of the engine's a person can reach, said here in the reader's language (the engine's own
    # ValueError is English: rules.engine stays free of gettext), in the engine's order and words.
    if pips_lafh + pips_nob == 0:
        raise InPersonError(gettext("Pips are between 0 and %(all)s per side, %(all)s in all at most.")
                            % {"all": HAWK_ALL_PIPS})
    if pips_nob == 0 and minus:
        raise InPersonError(gettext("NOB took no trick, so it showed no bonus."))
    try:
        score = hawk.score_from_facts(
            players=count, lafh=[s for s in seats if s is not None], lafh_pips=pips_lafh, nob_pips=pips_nob,
            lafh_bonuses=plus, nob_bonuses=minus,
        )
    except ValueError as error:
        raise InPersonError(_sentence(error)) from None
    summary = summaries.hawk_round(names=[m.shown_name for m in members], lafh=score.lafh, solo=score.solo,
                                   pips=pips_lafh, won=score.won, k=score.k, points=score.points)
    facts = {
        "players": [m.username for m in members], "lafh": [members[s].username for s in score.lafh],
        "solo": bool(solo), "lafh_pips": pips_lafh, "nob_pips": pips_nob, "lafh_bonuses": plus, "nob_bonuses": minus,
    }
    return Priced(game="hawk", kind=InPersonRecord.Kind.HAWK_ROUND, facts=facts, score=score.as_dict(),
                  summary=summary, members=members, amounts=list(score.deltas))



def price_from_facts(*, kind: str, facts: Mapping[str, Any]) -> Priced:
    """A record priced again from the facts it keeps, by the functions that priced it when it was recorded (nothing
    written): what the books' check compares the stored score and entries with. Raises InPersonError (or KeyError
    for a fact missing) when the facts do not price."""
    if kind == InPersonRecord.Kind.SHEEPSHEAD_HAND:
        return price_sheepshead_hand(players=facts["players"], picker=facts["picker"], partner=facts.get("partner"),
                                     picker_points=facts["picker_points"], stake_cents=facts["stake_cents"])
    if kind == InPersonRecord.Kind.SHEEPSHEAD_LEASTER:
        return price_sheepshead_leaster(players=facts["players"], points=facts["points"], tricks=facts["tricks"],
                                        stake_cents=facts["stake_cents"])
    if kind == InPersonRecord.Kind.HAWK_ROUND:
        return price_hawk_round(players=facts["players"], lafh=facts["lafh"], solo=facts["solo"],
                                lafh_pips=facts["lafh_pips"], nob_pips=facts["nob_pips"],
                                lafh_bonuses=facts.get("lafh_bonuses", ()), nob_bonuses=facts.get("nob_bonuses", ()))
    raise InPersonError(gettext("A record of kind %(kind)s cannot be priced.") % {"kind": kind})
