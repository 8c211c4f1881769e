"""Reads for the table's pages and sockets. Everything a viewer sees of a game comes from the engine's
`view(state, seat)` for that viewer's own seat (or None for a spectator), never the raw state."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, ngettext

from accounts.models import User
from accounts.time_zones import member_zone
from rules.engine import registry
from rules.engine.api import GameSpec
from rules.engine.cards import SUIT_SYMBOLS, card, card_name
from rules.engine.text import Said, from_data, seat_of
from tables.i18n import say
from tables.models import Match, Move, Round, Seat, Table
from tables.play import autoplay, move_log, pace, rematch_board
from tables.play.amounts import dollars_text, points_text
from tables.play.correspondence import move_hours_text
from tables.play.snapshots import TableSnapshot


@dataclass(frozen=True)
class CardFace:
    text: str
    rank: str
    suit: str
    symbol: str
    name: str
    red: bool
    move: str | None = None
    premove: str | None = None  # out of turn: the move this card would be chosen as, ahead (tables.play.autoplay)
    chosen: bool = False  # the card chosen ahead, or the one the clock is about to play for the member


def face(text: str, move: str | None = None) -> CardFace:
    c = card(text)
    return CardFace(text=text, rank=c.rank, suit=c.suit, symbol=SUIT_SYMBOLS[c.suit],
                    name=say(card_name(text)), red=c.suit in "DH", move=move)


@dataclass
class SeatLine:
    position: int
    name: str
    is_bot: bool
    away: bool
    is_me: bool
    empty: bool
    ready: bool
    total: int | None = None
    cards: int | None = None
    to_act: bool = False
    dealer: bool = False
    presence: str = ""  # "online", "offline" or "bot" ("" for an empty seat): the board's data-presence
    bot_plays: bool = False  # the bot plays this seat now: a bot's, one its member left, or offline past the grace
    level: str = ""  # a bot seat's level, in the reader's language ("strong"); "" for a member's seat
    spot: str = "b"  # where the seat sits around the felt, as the viewer sees it (seat_spots)
    house: bool = False  # a member's seat the house plays in this round (they were away when it was dealt)

    @property
    def cards_text(self) -> str:
        """ "5 cards" held, in the reader's language."""
        count = self.cards or 0
        return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}

    @property
    def presence_text(self) -> str:
        """The seat's presence in words, as everyone at the table reads it."""
        if self.house:
            return gettext("away · the house plays this round")
        if self.presence == "bot":
            if self.away:
                return gettext("left · the bot plays")
            return gettext("bot · %(level)s") % {"level": self.level} if self.level else gettext("bot")
        if self.presence == "offline":
            return gettext("offline · the bot plays for them") if self.bot_plays else gettext("offline")
        return gettext("online") if self.presence == "online" else self.presence


@dataclass(frozen=True)
class LogLine:
    """One line of "What happened this round", as this viewer may read it (names and suits put in)."""

    text: str
    trick: bool  # the move took a trick


@dataclass(frozen=True)
class LastTrick:
    """The trick taken last, for games that show it (Sheepshead, Hawk)."""

    plays: list[tuple[str, str]]  # (who, card) in the order played
    taker: str
    count: str  # "12 points", "7 pips"
    on_table: bool  # the current trick is empty: the taken one is still what the table shows
    seats: tuple[int, ...] = ()  # who played each card, by position (in the order of `plays`)
    taker_seat: int | None = None



@dataclass(frozen=True)
class SheetRow:
    """One finished round on the score sheet: each seat's result and its running total after the round."""

    round: int
    deltas: list[int]
    totals: list[int]


@dataclass(frozen=True)
class AwayLine:
    """One round of "while you were away": whose it was (the member's, the bot playing for them, or the house's in
    their seat) and what it paid that seat, as text."""

    round: int
    house: bool
    amount: str


@dataclass(frozen=True)
class AwayReport:
    """What was played for a member who is back: the rounds since they went away in which the bot made a move in
    their name (the result theirs) or the house played their seat (the result the house's), with the sums."""

    lines: list[AwayLine]
    yours: str  # the sum of their own rounds' results ("" if none)
    house: str  # the sum of the house's rounds in their seat ("" if none)
    house_now: bool  # the house plays their seat in the round now on: they play again from the next


def amount_change(unit: str, amount: int) -> str:
    """A change in the game's unit, signed: "+$6.00", "-2 points"."""
    if unit == "cents":
        return ("+" if amount > 0 else "") + dollars_text(amount)
    return points_text(amount, signed=True)


def away_report(match: Match | None, current: Round | None, seat: Seat | None, unit: str) -> AwayReport | None:
    """The member's "while you were away", from the score sheet's rows since `seat.away_from` (no round is read):
    shown once they are back (the seat not left, a page of theirs open), until they close it. None if there is
    nothing to tell."""
    if match is None or seat is None or seat.away_from is None or seat.away or seat.offline_since is not None:
        return None
    lines, yours, house = [], [], []
    for row in match.sheet or []:
        number, deltas = int(row["round"]), row["deltas"]
        if number < seat.away_from or seat.position >= len(deltas):
            continue
        delta = int(deltas[seat.position])
        if seat.position in row.get("house", []):
            lines.append(AwayLine(round=number, house=True, amount=amount_change(unit, delta)))
            house.append(delta)
        elif seat.position in row.get("bot", []):
            lines.append(AwayLine(round=number, house=False, amount=amount_change(unit, delta)))
            yours.append(delta)
    house_now = (current is not None and not current.over
                 and seat.position in (current.house_seats or []))
    if not lines and not house_now:
        return None
    return AwayReport(lines=lines, yours=amount_change(unit, sum(yours)) if yours else "",
                      house=amount_change(unit, sum(house)) if house else "", house_now=house_now)


@dataclass
class Board:
    """Everything the table page shows one viewer; built from the engine view of their seat only."""

    table: Table
    spec: GameSpec
    seats: list[SeatLine]
    my_seat: Seat | None
    view: dict[str, Any] | None = None
    round: Round | None = None
    match: Match | None = None
    hand: list[CardFace] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (move text, label)
    unit: str = "points"
    round_text: str = ""
    timeout_notice: str = ""
    log: list[LogLine] = field(default_factory=list)
    last_trick: LastTrick | None = None
    bot_acting: bool = False  # the seat to act is played by the bot: no turn countdown
    pile_by: str = ""  # who laid the pile's top card (Hawsker, Puskiyon), when the board knows it
    pile_seat: int | None = None  # and at which seat, so the card lies on that seat's side of the felt
    others_present: bool = False  # another member still sits at the table (not left)
    away_report: AwayReport | None = None  # the viewer's "while you were away", once they are back
    away_names: list[str] = field(default_factory=list)  # between rounds: the members away (left, or offline)
    sheet: list[SheetRow] = field(default_factory=list)  # the match's finished rounds, oldest first
    rematch: rematch_board.RematchPart | None = None  # at a finished table: the rematch, or the button to ask for one
    premove_serial: int = 0  # the viewer's premove count, sent back with a choice (tables.play.services.premoves)
    premove_note: str = ""  # to the viewer alone: their card chosen ahead, or the one that could no longer be played
    move_by: str = ""  # at a correspondence table: when the turn's time runs out, in the viewer's zone and words

    @property
    def sheet_title(self) -> str:
        """The score sheet's fold: "Score sheet (3 rounds)"."""
        count = len(self.sheet)
        return ngettext("Score sheet (%(count)s round)", "Score sheet (%(count)s rounds)", count) % {"count": count}

    @property
    def sheet_key(self) -> tuple[Any, ...]:
        """Everything the score sheet part shows (tables.play.board_parts): the match's rows (a sheet only grows: the
        count and the newest row name it), the seats' names, the viewer's own column, the unit."""
        rows = (self.match.sheet or []) if self.match is not None else []
        return (self.match.pk if self.match is not None else None, len(rows), repr(rows[-1]) if rows else "",
                tuple(line.name for line in self.seats), next((line.position for line in self.seats if line.is_me),
                                                              None), self.unit)

    @property
    def rules_key(self) -> tuple[Any, ...]:
        """Everything the house rules part shows (tables.play.board_parts): the table's options and how it runs by
        itself, and the current deal's public commitment."""
        table, current = self.table, self.round
        return (table.pk, table.game, repr(sorted(table.options.items())), table.turn_seconds, table.move_hours,
                table.missed_move,
                table.bot_speed,
                table.bot_level, table.grace_seconds,
                (current.pk, current.salt, current.commitment) if current is not None else None)

    @property
    def hand_key(self) -> tuple[Any, ...]:
        """Everything the hand part shows (tables.play.board_parts): the viewer's own cards as they read (each with
        the move or the choice ahead it offers), their premove count, the table (its addresses). The cards are in
        the key, so a kept hand is only ever the hand of a viewer who holds exactly these cards."""
        return (self.table.code, tuple(self.hand), self.premove_serial)

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def ring(self) -> str:
        """The felt's class for its number of seats (static/css/club.css lays the seats out by spot)."""
        return f"of-{len(self.seats)}"

    @cached_property
    def spots(self) -> dict[int, str]:
        """Each position's spot around the felt: a card played by a seat lies in front of it."""
        return {line.position: line.spot for line in self.seats}

    @property
    def closed_by_itself(self) -> bool:
        """The table closed without the club: every member left, or all were offline too long."""
        table = self.table
        return table.status == Table.Status.ABANDONED and bool(table.close_reason) and table.closed_by_id is None

    @property
    def leave_confirm(self) -> str:
        """What leaving does, said before it is done (tables.play.services.tables.leave_table; the seat's ledger
        entries stay the member's while the bot plays it, tables.ledger.services.ledger.record_round)."""
        between = self.round is not None and self.round.over
        if self.others_present and between:
            return gettext("Leave the table? From the next round the house plays your seat: its results are the "
                           "house's, not yours. Take your seat back between rounds to play for yourself again.")
        if self.others_present:
            return gettext("Leave the table? The bot finishes this round for you (its result is yours); from the next "
                           "round the house plays your seat (its results are the house's, not yours). Take your seat "
                           "back between rounds to play for yourself again.")
        if between:
            return gettext("You are the last player here. If you leave, the table closes; the rounds played so far "
                           "stand.")
        return gettext("You are the last player here. If you leave, the bots finish this round (it is settled as "
                       "usual, unless no member has moved in this match yet: then it counts for nothing) and the "
                       "table closes.")

    @property
    def waiting_for_away(self) -> bool:
        """The members chose to wait for the away: the next round is not dealt before they are back (or the wait
        ends)."""
        return bool(self.away_names) and self.round is not None and self.round.wait_until is not None

    @cached_property
    def options(self) -> list[tuple[str, str]]:
        """The table's house rules as people read them: asked for only when the house rules part is rendered (it is
        kept from one version to the next, tables.play.board_parts)."""
        return describe_options(self.spec, self.table.options)

    @property
    def head_key(self) -> tuple[Any, ...]:
        """Everything the board's heading shows (tables.play.board_parts): the game, the table's name and status,
        the round's number."""
        return (self.table.game, self.table.name, self.table.status,
                self.round.number if self.round is not None else None)

    @property
    def house_rules(self) -> list[tuple[str, str]]:
        """The table's options, then how it runs by itself: time per turn, bot speed and level, the grace for the
        offline."""
        table = self.table
        speed = pace.pace(table.bot_speed)
        speed_text = str(table.get_bot_speed_display())
        if table.bot_speed != Table.BotSpeed.INSTANT:
            speed_text = gettext("%(speed)s (a move every %(seconds)s s)") % {
                "speed": speed_text, "seconds": number_format(Decimal(f"{speed.move:g}"), use_l10n=True)}
        if table.correspondence:
            timing = (gettext("Correspondence"), f"{capfirst(move_hours_text(table.move_hours))}; "
                                                 f"{gettext('a missed move')}: {table.get_missed_move_display()}")
        else:
            timing = (gettext("Time per turn"), f"{table.turn_seconds} s")
        return [
            *self.options,
            timing,
            (gettext("Bot speed"), speed_text),
            (gettext("Bots play"), str(table.get_bot_level_display())),
            *([] if table.correspondence else [
                (gettext("Grace before the bot plays for an offline player"), f"{table.grace_seconds} s")]),
        ]

    @cached_property
    def move_url(self) -> str:
        """Reversed once per board, not once per card in the hand."""
        return reverse("move", args=[self.table.code])

    @cached_property
    def premove_url(self) -> str:
        return reverse("premove", args=[self.table.code])

    @property
    def my_turn(self) -> bool:
        return bool(self.view and self.view.get("legal"))

    @property
    def bot_levels(self) -> list[tuple[str, str]]:
        """The levels a bot added here may play at, (value, label); the table's is chosen unless one says."""
        return [(value, str(label)) for value, label in Table.BotLevel.choices]

    @property
    def can_join(self) -> bool:
        return self.my_seat is None and self.table.status == Table.Status.OPEN and any(s.empty for s in self.seats)

    @property
    def summary_columns(self) -> list[tuple[str, list[Any]]]:
        """A finished round's per-seat facts, (heading, one value per seat): the lists in the engine's summary
        that hold one plain value per seat. The board of a game without a result fragment of its own shows them."""
        summary = ((self.round.result or {}).get("summary") or {}) if self.round is not None else {}
        return [
            (key.replace("_", " ").capitalize(), value) for key, value in sorted(summary.items())
            if isinstance(value, list) and len(value) == len(self.seats)
            and all(v is None or isinstance(v, int | str) for v in value)
        ]


def describe_options(spec: GameSpec, options: dict[str, Any]) -> list[tuple[str, str]]:
    """The table's house rules as (label, value) for people, each as its option describes it."""
    return [(say(option.label), _option_value(option, options.get(option.name, option.default)))
            for option in spec.options]


def _option_value(option: Any, value: Any) -> str:
    """An option's value in the reader's language; an amount of money in their number format."""
    if option.unit == "cents" and isinstance(value, int) and not (value == 0 and option.zero_text):
        return dollars_text(value)
    return say(option.describe(value))


def move_word(kind: str) -> str:
    """A move's verb on its button, in the reader's language ("Play", "Spielen")."""
    words = {"play": gettext("Play"), "pick": gettext("Pick"), "pass": gettext("Pass"), "draw": gettext("Draw"),
             "bury": gettext("Bury"), "discard": gettext("Discard")}
    return words.get(kind, kind.capitalize())


def move_label(text: str) -> str:
    """A move's words on its button ("Play 7♥"). A play of several cards (Hawsker's combinations) says which one
    lands on top, the last named (RULES.md: the player orders a combination): "Play 3♥ 3♣" and "Play 3♣ 3♥" are
    different moves, and only the top card decides what may follow."""
    kind, *cards = text.split()
    if not cards:
        return move_word(kind)
    shown = [f"{card(c).rank}{SUIT_SYMBOLS[card(c).suit]}" for c in cards]
    label = f"{move_word(kind)} " + " ".join(shown)
    if kind == "play" and len(shown) > 1:
        return gettext("%(move)s (%(card)s on top)") % {"move": label, "card": shown[-1]}
    return label


_SEAT_WORD = re.compile(r"\b([Ss])eat (\d+)\b")


def _named(text: Said, names: list[str], suits: bool) -> Said:
    """`text` with each seat it names replaced by the seat's name (and, with `suits`, its cards as 7♥)."""
    params: dict[str, Any] = {}
    for key, value in text.params.items():
        position = seat_of(value)
        if position is not None:
            params[key] = names[position] if 0 <= position < len(names) else value
        elif isinstance(value, Said):
            params[key] = _named(value, names, suits)
        elif suits and isinstance(value, str):
            params[key] = move_log.with_suits(value)
        else:
            params[key] = value
    return Said(text.msgid, params)


def name_seats(text: Any, names: list[str], *, suits: bool = False) -> str:
    """The engine speaks of "seat 3"; people at the table see each other's names, in their own language. `text`
    is the engine's Said (or one kept in the database, rules.engine.text.to_data), or plain text as older rounds
    kept it; `suits` writes its cards as people write them (7H reads 7♥), never touching a name."""
    text = from_data(text)
    if isinstance(text, Said):
        return say(_named(text, names, suits))

    def name(found: re.Match[str]) -> str:
        position = int(found.group(2))
        return names[position] if position < len(names) else found.group(0)

    return _SEAT_WORD.sub(name, move_log.with_suits(text or "") if suits else (text or ""))


def round_headline(summary: dict[str, Any], names: list[str]) -> str:
    text = summary.get("text") or summary.get("headline")
    if not text and summary.get("ending") == "blocked":
        return gettext("Nobody could go on: the hand is blocked and everyone counts the cards they hold.")
    if not text and summary.get("winner") is not None:
        winner = int(summary["winner"])
        return gettext("%(player)s went out; everyone else counts the cards they hold.") % {
            "player": names[winner] if 0 <= winner < len(names) else gettext("Seat %(seat)s") % {"seat": winner}}
    return name_seats(text or "", names)


def timeout_notice(recent: list[tuple[str, int]], names: list[str], *, viewer: int | None = None,
                   to_act: int | None = None) -> str:
    """Who ran out of time since a member last moved (`recent`: (actor, seat), newest first), said to `viewer` (their
    own seat in the second person). It names the seat, never the card the bot chose (a buried or discarded card must
    stay hidden).

    A late seat is told only until its next turn (`to_act`): by then the news is old, and on the late member's own
    board it would stand beside their new turn as if the bot were still playing for them. Only when the turn comes
    straight back to them (a second card to bury or discard) does it stay until the next move, so they learn of it.
    """
    late: list[int] = []
    for index, (actor, seat) in enumerate(recent):
        if actor == Move.Actor.MEMBER:
            break
        if actor == Move.Actor.TIMEOUT and seat not in late and (index == 0 or seat != to_act):
            late.append(seat)
    if not late:
        return ""
    others = [names[seat] for seat in late if seat != viewer]
    if viewer not in late:
        return gettext("Time ran out for %(players)s; the bot played for them.") % {"players": said_and(others)}
    if not others:
        return gettext("Time ran out: the bot played for you.")
    return gettext("Time ran out for you and for %(players)s; the bot played for you all.") % {
        "players": said_and(others)}


def said_and(items: list[str]) -> str:
    """ "Ann, Bob and Cy" in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def recent_from_log(log: list[dict[str, Any]] | None) -> list[tuple[str, int]]:
    """(actor, seat) of the round's moves, newest first, read off the round's log (each move's line keeps who made
    it), so no board or snapshot queries the moves for it."""
    return [(line["actor"], line["seat"]) for line in reversed(log or []) if line.get("seat") is not None]


def seat_label(seat: Seat) -> str:
    """A seat's name on the board, in the ledger and in replays: the member's name, or the bot's seat
    number (a finished round's seats are all taken, so the ledger never labels an empty seat)."""
    if seat.is_bot:
        return gettext("Bot %(number)s") % {"number": seat.position + 1}
    return seat.user.shown_name if seat.user else gettext("empty seat")


def table_version(table_id: int | None) -> int | None:
    """The table's version as the database has it now (None: no such table)."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def snapshot_of(table: Table) -> TableSnapshot:
    """The table as the database holds it now (for a version no transaction of this process left)."""
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("position"))
    # The current round and its match in one query (the table's past rounds are never read here).
    current = Round.objects.filter(match__table=table).select_related("match").order_by("-number").first()
    match = current.match if current is not None else Match.objects.filter(table=table).first()
    state = registry.game(table.game).from_json(current.state) if current is not None else None
    return TableSnapshot(table=table, seats=seats, match=match, round=current, state=state,
                         rematch=rematch_board.offer_of(table))


def level_text(seat: Seat, table: Table) -> str:
    """A bot seat's level in the reader's language (its own, else the table's); "" for any other seat."""
    if not seat.is_bot:
        return ""
    return str(Table.BotLevel(seat.level_at(table)).label)


def presence_of(seat: Seat, table: Table, now: datetime) -> tuple[str, bool]:
    """(data-presence, whether the bot plays the seat now), as tables.play.services.play.Live.stands_in decides
    it: a bot's seat and one its member left are the bot's; a member shown offline is the bot's once the
    table's grace has run out (only while the table plays)."""
    if seat.is_bot:
        return "bot", True
    if seat.user_id is None:
        return "", False
    if seat.away:
        return "bot", True
    if seat.offline_since is not None:
        grace_over = now >= seat.offline_since + timedelta(seconds=table.grace_seconds)
        # at a correspondence table, offline is how a member waits for their turn: the bot never takes it for that
        return "offline", table.status == Table.Status.RUNNING and grace_over and not table.correspondence
    return "online", False


def move_by_text(deadline: datetime, user: User) -> str:
    """A correspondence turn's deadline as its viewer reads a date: "Mon 7 Dec, 14:00 CET", in their zone (a socket's
    board is rendered outside the request that would have activated it)."""
    with timezone.override(member_zone(user)):
        return formats.date_format(timezone.localtime(deadline), "D j M, H:i T")


def acting_prompt(line: SeatLine) -> str:
    """The prompt while someone else's seat is to act and its member will not act: the bot plays it, or will
    in a moment. Empty when the seat's member is there to play (the engine's prompt stands)."""
    if line.is_bot:
        # a bot's seat is named "Bot N" (seat_label): it says it is a bot
        return gettext("%(player)s is playing…") % {"player": line.name}
    if line.house:
        if line.is_me:
            return gettext("The house plays your seat this round (you were away when it was dealt)…")
        return gettext("The house plays %(player)s's seat this round…") % {"player": line.name}
    if line.bot_plays:
        if line.is_me:
            return gettext("The bot is playing for you…")
        return gettext("The bot is playing for %(player)s…") % {"player": line.name}
    if line.presence == "offline":
        return gettext("Waiting for %(player)s (offline) — the bot plays for them in a moment.") % {
            "player": line.name}
    return ""


def log_lines(current: Round, viewer: int | None, names: list[str], members: set[int]) -> list[LogLine]:
    """The round's log as `viewer` (None: a spectator) may read it, oldest first. Suits go in before names, so a
    member called "KC" keeps their name. A move the bot made in a member's seat (`members`: those seats) says so:
    the engine tells it as the seat's own ("You played 4♣")."""
    return [shown for line in current.log or [] if (shown := _log_line(line, viewer, names, members)) is not None]


def _log_line(line: dict[str, Any], viewer: int | None, names: list[str], members: set[int]) -> LogLine | None:
    """One line of `log_lines` (None: it says nothing to this viewer)."""
    found = move_log.line_for(line, viewer)
    if found is None:
        return None
    text = name_seats(found["text"], names, suits=True)
    seat = found.get("seat")
    if seat in members and found.get("actor") in _BOT_FOR_MEMBER:
        text = gettext("%(line)s (%(note)s)") % {
            "line": text, "note": _bot_for_member(found["actor"], seat == viewer, names[seat])}
    return LogLine(text=text, trick=found["trick"])


LOGS_KEPT = 2048  # translated logs kept: one per (round, viewer's seat, language, names), the live ones in use
_logs: OrderedDict[tuple[Any, ...], tuple[LogLine | None, ...]] = OrderedDict()
_logs_guard = threading.Lock()


def kept_log_lines(code: str, current: Round, viewer: int | None, names: list[str],
                   members: set[int]) -> list[LogLine]:
    """`log_lines`, each line translated once for each way it may read, not again at every version and board.

    Why: the log of a round grows by a line a version, and a board showed the whole of it, so every board
    translated every line again (two thirds of building a board, late in a round). The lines translated are kept
    under the table's code and the round (a round's log only ever grows: a line once written never changes), the
    viewer's seat (a seat's own lines are never shown to another, nor a spectator's taken for a seat's), the
    language, the seats' names and which seats are members' (the notes name them): everything a line's text
    depends on. A board for that key translates only the lines it has not seen; a board of an older version takes
    the first lines it needs."""
    log = current.log or []
    key = (code, current.pk, current.number, viewer, get_language(), tuple(names), frozenset(members))
    with _logs_guard:
        kept = _logs.get(key, ())
        if kept:
            _logs.move_to_end(key)
    lines = kept[:len(log)]
    if len(lines) < len(log):
        lines = (*lines, *(_log_line(line, viewer, names, members) for line in log[len(lines):]))
        with _logs_guard:
            if len(lines) > len(_logs.get(key, ())):
                _logs[key] = lines
                _logs.move_to_end(key)
                while len(_logs) > LOGS_KEPT:
                    _logs.popitem(last=False)
    return [line for line in lines if line is not None]


def forget_logs() -> None:
    """Tests: no translated log line is kept (as `rendering.forget_boards`)."""
    with _logs_guard:
        _logs.clear()


_BOT_FOR_MEMBER = (Move.Actor.BOT, Move.Actor.ABSENT, Move.Actor.TIMEOUT, Move.Actor.HOUSE)


def _bot_for_member(actor: str, mine: bool, name: str) -> str:
    """Why the bot made a member's move: the house plays the seat this round (they were away at the deal), they
    had left the seat, were offline, or ran out of time."""
    if actor == Move.Actor.HOUSE:
        return gettext("played by the house in your seat") if mine else (
            gettext("played by the house in %(player)s's seat") % {"player": name})
    if actor == Move.Actor.BOT:
        return gettext("played by the bot for you") if mine else (
            gettext("played by the bot for %(player)s") % {"player": name})
    if actor == Move.Actor.ABSENT:
        return gettext("played by the bot while you were offline") if mine else (
            gettext("played by the bot while %(player)s was offline") % {"player": name})
    return gettext("played by the bot: you ran out of time") if mine else (
        gettext("played by the bot: %(player)s ran out of time") % {"player": name})


def last_trick_of(view: dict[str, Any], names: list[str]) -> LastTrick | None:
    """The trick taken last, from the view of a game that shows it: Sheepshead's "last_trick" (with its points)
    or the newest of Hawk's "history" (with its pips)."""
    last = view.get("last_trick")
    if last is None and view.get("history"):
        last = view["history"][-1]
    if not isinstance(last, dict) or last.get("winner") is None or not last.get("cards"):
        return None
    if "points" in last:
        count = points_text(int(last["points"]))
    else:
        pips = int(last.get("pips") or 0)
        count = ngettext("%(count)s pip", "%(count)s pips", pips) % {"count": pips}

    def who(position: int) -> str:
        return names[position] if 0 <= position < len(names) else gettext("seat %(seat)s") % {"seat": position}

    return LastTrick(plays=[(who(play["seat"]), play["card"]) for play in last["cards"]], taker=who(last["winner"]),
                     count=count, on_table=not view.get("trick"), seats=tuple(play["seat"] for play in last["cards"]),
                     taker_seat=last["winner"])


# Spots around the felt, clockwise from the bottom (the viewer): the player after them sits at their left, as at a
# real card table. b: bottom, l: left, t: top, r: right, and the corners between (bl, tl, tr, br).
SPOTS: dict[int, tuple[str, ...]] = {
    1: ("b",),
    2: ("b", "t"),
    3: ("b", "l", "r"),
    4: ("b", "l", "t", "r"),
    5: ("b", "l", "tl", "tr", "r"),
    6: ("b", "l", "tl", "t", "tr", "r"),
    7: ("b", "bl", "l", "tl", "tr", "r", "br"),
    8: ("b", "bl", "l", "tl", "t", "tr", "r", "br"),
}


def seat_spots(count: int, bottom: int) -> list[str]:
    """The spot of each position 0..count-1 when `bottom` (the viewer's seat; seat 0 for a spectator) sits at the
    bottom and the others follow in playing order around the felt."""
    ring = SPOTS[min(max(count, 1), len(SPOTS))]
    return [ring[(position - bottom) % count] if (position - bottom) % count < len(ring) else "t"
            for position in range(count)]


def pile_player(view: dict[str, Any], log: list[dict[str, Any]]) -> int | None:
    """The seat that laid the pile's top card: Hawsker's last play, if it holds the top card; Puskiyon's newest
    public log line that played it (the round's first top card was turned up from the stock: nobody)."""
    top = view.get("top")
    if not top:
        return None
    plays = view.get("plays")
    if plays:
        newest = plays[-1]
        return newest["seat"] if top in newest.get("cards", []) else None
    for line in reversed(log):
        text = str(from_data(line.get("text") or ""))  # the English, as the engine said it
        if line.get("seat") is not None and re.search(rf"\bplayed {re.escape(top)}\b", text):
            return int(line["seat"])
    return None


def score_sheet(match: Match) -> list[SheetRow]:
    """The match's score sheet with running totals, from the sheet the match row carries (Live._finish_round
    writes it as each round ends), so no round is read. Only finished rounds are on it: their results are public;
    a voided round has no result and no row. The last totals are the match's totals the seats show."""
    rows = []
    totals: list[int] = []
    for entry in match.sheet or []:
        deltas = [int(delta) for delta in entry["deltas"]]
        totals = [t + d for t, d in zip(totals or [0] * len(deltas), deltas, strict=True)]
        rows.append(SheetRow(round=int(entry["round"]), deltas=deltas, totals=totals))
    return rows


def board_for(table: Table, user: User, *, now: datetime | None = None) -> Board:
    return board_from(snapshot_of(table), user, now=now)


def board_from(snapshot: TableSnapshot, user: User, *, now: datetime | None = None) -> Board:
    """One viewer's board at `now` (who is offline past the grace). Nothing here reads the database or changes
    the snapshot (boards for other viewers are built from the same one, perhaps at the same moment in another
    thread). A board is kept per version: the grace running out at the seat to act is a new version (the bot
    moves then), so the board of a version says what it needs to until the next."""
    now = now or timezone.now()
    table, seats = snapshot.table, snapshot.seats
    spec = registry.spec(table.game)
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    lines = []
    spots = seat_spots(len(seats), mine.position if mine is not None else 0)
    for s in seats:
        presence, bot_plays = presence_of(s, table, now)
        lines.append(SeatLine(position=s.position, name=seat_label(s), is_bot=s.is_bot, away=s.away,
                              is_me=mine is not None and s.pk == mine.pk, empty=s.empty, ready=s.ready,
                              presence=presence, bot_plays=bot_plays, level=level_text(s, table),
                              spot=spots[s.position] if 0 <= s.position < len(spots) else "t"))
    board = Board(
        table=table, spec=spec, my_seat=mine, unit=spec.unit, seats=lines,
        others_present=mine is not None and any(
            s.user_id is not None and not s.away and s.pk != mine.pk for s in seats),
    )
    current, match = snapshot.round, snapshot.match
    if match is None:
        return board
    board.match = match
    board.sheet = score_sheet(match)
    if match.over and table.status == Table.Status.FINISHED:
        board.rematch = rematch_board.part_for(snapshot.rematch, table=table, viewer=mine,
                                               members=[(s.user_id, seat_label(s)) for s in seats if s.user_id])
    board.round = current
    totals = match.state.get("totals", [])
    dealer = match.state.get("dealer")
    if current is None:
        return board
    game = registry.game(table.game)
    seat_number = mine.position if mine is not None else None
    view = game.view(snapshot.state, seat_number)
    house = set(current.house_seats or []) if not current.over else set()
    for line in board.seats:
        if line.position in house and not line.is_bot:
            line.house, line.bot_plays, line.presence = True, True, "bot"
    if mine is not None and (mine.away or mine.position in house or table.status != Table.Status.RUNNING):
        view = {**view, "legal": []}
    board.away_report = away_report(match, current, mine, spec.unit)
    if current.over and not match.over and table.status == Table.Status.RUNNING:
        board.away_names = [line.name for s, line in zip(seats, board.seats, strict=True)
                            if s.user_id is not None and (s.away or (s.offline_since is not None
                                                                      and not table.correspondence))]
    names = [line.name for line in board.seats]
    view = {**view, "prompt": name_seats(view.get("prompt", ""), names, suits=True),
            "last": name_seats(view.get("last", ""), names, suits=True)}
    board.view = view
    if current.over and current.result:
        board.round_text = round_headline(current.result.get("summary", {}), names)
    if table.correspondence and current.deadline is not None and not current.over:
        board.move_by = move_by_text(current.deadline, user)
    board.timeout_notice = timeout_notice(recent_from_log(current.log), names, viewer=seat_number,
                                          to_act=None if view.get("over") else view.get("to_act"))
    counts = view.get("hand_counts") or []
    for line in board.seats:
        line.total = totals[line.position] if line.position < len(totals) else None
        line.cards = counts[line.position] if line.position < len(counts) else None
        line.to_act = view.get("to_act") == line.position and not view.get("over")
        line.dealer = view.get("dealer", dealer) == line.position
    acting = next((line for line in board.seats if line.to_act), None)
    if board.closed_by_itself:
        board.view = {**view, "prompt": gettext("This table has closed.")}
    elif (acting is not None and not current.over and table.status == Table.Status.RUNNING
          and not (acting.is_me and not acting.away and not acting.house)):
        prompt = acting_prompt(acting)
        if prompt:
            board.view = {**view, "prompt": prompt}
        board.bot_acting = acting.bot_plays
    board.log = kept_log_lines(table.code, current, seat_number, names,
                               {s.position for s in seats if s.user_id is not None})
    board.last_trick = last_trick_of(view, names)
    laid_by = pile_player(view, current.log or [])
    known = laid_by is not None and 0 <= laid_by < len(names)
    board.pile_by = names[laid_by] if known else ""
    board.pile_seat = laid_by if known else None
    chosen = _own_autoplay(board, snapshot, mine, acting)
    legal = list(board.view.get("legal") or [])
    by_card: dict[str, str] = {}
    for text in legal:
        _kind, *cards = text.split()
        if len(cards) == 1 and cards[0] in view.get("hand", []) and cards[0] not in by_card:
            by_card[cards[0]] = text
        else:
            board.buttons.append((text, move_label(text)))
    ahead = _premoves_open(board, snapshot, mine, acting)
    board.hand = [face(text, by_card.get(text)) for text in view.get("hand", [])]
    board.hand = [replace(c, premove=f"play {c.text}" if ahead and c.move is None else None,
                          chosen=c.text == chosen) for c in board.hand]
    return board


def _own_autoplay(board: Board, snapshot: TableSnapshot, mine: Seat | None, acting: SeatLine | None) -> str:
    """The viewer's own premove and forced card (tables.play.autoplay), on their board alone: when the clock is about
    to play one for them, their prompt says so and they have nothing to click (no "your turn" either); else the card
    they chose ahead, or the one that could no longer be played, is said under the prompt. Returns the card to show
    as chosen ("" for none)."""
    if mine is None or board.view is None or snapshot.round is None or snapshot.round.over:
        return ""
    board.premove_serial = mine.premove_serial
    if mine.premove_dropped:
        board.premove_note = gettext("Your chosen card %(card)s could no longer be played.") % {
            "card": autoplay.card_text(mine.premove_dropped)}
    if acting is None or not acting.is_me or mine.away or board.table.status != Table.Status.RUNNING:
        if mine.premove:
            board.premove_note = gettext(
                "Chosen for your turn: %(card)s. It is played when your turn comes, if it is still allowed; "
                "click it again to take it back.") % {"card": autoplay.card_text(mine.premove)}
        return mine.premove.removeprefix("play ") if mine.premove else ""
    auto = autoplay.pending(game=board.table.game, state=snapshot.state, seat=mine, to_act=acting.position,
                            stands_in=acting.bot_plays)
    if auto is None:
        return ""
    if auto.kind == autoplay.PREMOVE:
        prompt = gettext("Playing your chosen card %(card)s…") % {"card": autoplay.card_text(str(auto.move))}
    else:
        prompt = gettext("Playing your only card…")
    board.view = {**board.view, "prompt": prompt, "legal": []}
    board.bot_acting = True  # the server plays it in a moment: no countdown of the turn's time
    return auto.card


def _premoves_open(board: Board, snapshot: TableSnapshot, mine: Seat | None, acting: SeatLine | None) -> bool:
    """The viewer's hand may be clicked to choose a card ahead: they sit (not left) at a running table whose trick
    game is in its card play, another seat is to act, and they have premoves on."""
    if mine is None or mine.away or mine.user is None or board.view is None or snapshot.round is None:
        return False
    if snapshot.round.over or board.table.status != Table.Status.RUNNING or acting is None or acting.is_me:
        return False
    return bool(getattr(mine.user, "premoves", False)) and autoplay.card_play(board.table.game, board.view)
