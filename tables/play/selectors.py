"""Reads for the table's pages and sockets. Everything a viewer sees of a game comes from the engine's
`view(state, seat)` for that viewer's own seat (or None for a spectator), never the raw state."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.urls import reverse

from accounts.models import User
from rules.engine import registry
from rules.engine.api import GameSpec
from rules.engine.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, card
from tables.models import Match, Move, Round, Seat, Table
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


def face(text: str, move: str | None = None) -> CardFace:
    c = card(text)
    return CardFace(text=text, rank=c.rank, suit=c.suit, symbol=SUIT_SYMBOLS[c.suit],
                    name=f"{RANK_NAMES[c.rank]} of {SUIT_NAMES[c.suit]}", red=c.suit in "DH", move=move)


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
    options: list[tuple[str, str]] = field(default_factory=list)
    round_text: str = ""
    timeout_notice: str = ""

    @property
    def version(self) -> int:
        return self.table.version

    @cached_property
    def move_url(self) -> str:
        """Reversed once per board, not once per card in the hand."""
        return reverse("move", args=[self.table.code])

    @property
    def my_turn(self) -> bool:
        return bool(self.view and self.view.get("legal"))

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
    return [(option.label, option.describe(options.get(option.name, option.default))) for option in spec.options]


def move_label(text: str) -> str:
    kind, *cards = text.split()
    if not cards:
        return kind.capitalize()
    return f"{kind.capitalize()} " + " ".join(f"{card(c).rank}{SUIT_SYMBOLS[card(c).suit]}" for c in cards)


_SEAT_WORD = re.compile(r"\b([Ss])eat (\d+)\b")


def name_seats(text: str, names: list[str]) -> str:
    """The engine speaks of "seat 3"; people at the table see each other's names."""

    def name(found: re.Match[str]) -> str:
        position = int(found.group(2))
        return names[position] if position < len(names) else found.group(0)

    return _SEAT_WORD.sub(name, text or "")


def round_headline(summary: dict[str, Any], names: list[str]) -> str:
    text = summary.get("text") or summary.get("headline")
    if not text and summary.get("ending") == "blocked":
        text = "Nobody could go on: the hand is blocked and everyone counts the cards they hold."
    elif not text and summary.get("winner") is not None:
        text = f"Seat {summary['winner']} went out; everyone else counts the cards they hold."
    return name_seats(text or "", names)


def timeout_notice(recent: list[tuple[str, int]], names: list[str]) -> str:
    """Who ran out of time since a member last moved (`recent`: (actor, seat), newest first). It names
    the seat, never the card the bot chose (a buried or discarded card must stay hidden)."""
    late = []
    for actor, seat in recent:
        if actor == Move.Actor.MEMBER:
            break
        if actor == Move.Actor.TIMEOUT and names[seat] not in late:
            late.append(names[seat])
    if not late:
        return ""
    return f"Time ran out for {' and '.join(late)}; the bot played for them."


RECENT_MOVES = 12  # enough to name everyone who timed out since the last member's move


def recent_moves(current: Round) -> list[tuple[str, int]]:
    return list(current.moves.order_by("-seq").values_list("actor", "seat")[:RECENT_MOVES])


def seat_label(seat: Seat) -> str:
    """A seat's name on the board, in the ledger and in replays: the member's name, or the bot's seat
    number (a finished round's seats are all taken, so the ledger never labels an empty seat)."""
    if seat.is_bot:
        return f"Bot {seat.position + 1}"
    return seat.user.shown_name if seat.user else "empty seat"


def snapshot_of(table: Table) -> TableSnapshot:
    """The table as the database holds it now (for a version no transaction of this process left)."""
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("position"))
    # The current round and its match in one query (the table's past rounds are never read here).
    current = Round.objects.filter(match__table=table).select_related("match").order_by("-number").first()
    match = current.match if current is not None else Match.objects.filter(table=table).first()
    state = registry.game(table.game).from_json(current.state) if current is not None else None
    recent = recent_moves(current) if current is not None else []
    return TableSnapshot(table=table, seats=seats, match=match, round=current, state=state, recent=recent)


def board_for(table: Table, user: User) -> Board:
    return board_from(snapshot_of(table), user)


def board_from(snapshot: TableSnapshot, user: User) -> Board:
    """One viewer's board. Nothing here reads the database or changes the snapshot (boards for other
    viewers are built from the same one, perhaps at the same moment in another thread)."""
    table, seats = snapshot.table, snapshot.seats
    spec = registry.spec(table.game)
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    board = Board(
        table=table, spec=spec, my_seat=mine, unit=spec.unit,
        seats=[
            SeatLine(position=s.position, name=seat_label(s), is_bot=s.is_bot, away=s.away,
                     is_me=mine is not None and s.pk == mine.pk, empty=s.empty, ready=s.ready)
            for s in seats
        ],
        options=describe_options(spec, table.options),
    )
    current, match = snapshot.round, snapshot.match
    if match is None:
        return board
    board.match = match
    board.round = current
    totals = match.state.get("totals", [])
    dealer = match.state.get("dealer")
    if current is None:
        return board
    game = registry.game(table.game)
    seat_number = mine.position if mine is not None else None
    view = game.view(snapshot.state, seat_number)
    if mine is not None and (mine.away or table.status != Table.Status.RUNNING):
        view = {**view, "legal": []}
    names = [line.name for line in board.seats]
    view = {**view, "prompt": name_seats(view.get("prompt", ""), names),
            "last": name_seats(view.get("last", ""), names)}
    board.view = view
    if current.over and current.result:
        board.round_text = round_headline(current.result.get("summary", {}), names)
    board.timeout_notice = timeout_notice(snapshot.recent, names)
    counts = view.get("hand_counts") or []
    for line in board.seats:
        line.total = totals[line.position] if line.position < len(totals) else None
        line.cards = counts[line.position] if line.position < len(counts) else None
        line.to_act = view.get("to_act") == line.position and not view.get("over")
        line.dealer = view.get("dealer", dealer) == line.position
    legal = list(view.get("legal") or [])
    by_card: dict[str, str] = {}
    for text in legal:
        _kind, *cards = text.split()
        if len(cards) == 1 and cards[0] in view.get("hand", []) and cards[0] not in by_card:
            by_card[cards[0]] = text
        else:
            board.buttons.append((text, move_label(text)))
    board.hand = [face(text, by_card.get(text)) for text in view.get("hand", [])]
    return board
