"""The round's complete state as one frozen value, and its JSON form for storage and replay.

Everything a round needs to go on lives here (hands, stock, pile, whose turn, the seed), so the web
layer can store a round as JSON between moves and rebuild exactly the same value from it. What never
changes during a round sits in one `Table` value shared by every state of the round: a new state is
built on every move, and fewer fields make that cheaper.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.cards import Card, card

# What the last turn step was (for the `last` sentence in views).
NOTHING = ""
PLAYED = "play"  # played a card from hand
DREW = "draw"  # drew a card; the same player still has to play it or pass
DREW_PLAYED = "drawplay"  # played the card just drawn
DREW_PASSED = "drawpass"  # drew a card and passed (the card is kept, seen only by its holder)
PASSED = "pass"  # passed without drawing (stock empty)

STEP_LETTER: dict[str, str] = {PLAYED: "p", DREW: "d", DREW_PLAYED: "x", DREW_PASSED: "k", PASSED: "s"}
"""Each turn step as one letter of `State.steps`: the round's public record, in order."""

Last = tuple[int, str, Card | None]  # (seat, kind, card played or drawn); seat -1: nothing yet
NO_LAST: Last = (-1, NOTHING, None)


@dataclass(frozen=True, slots=True)
class Table:
    """The round's fixed facts: who plays, to what target, from which seed and deal."""

    players: int
    target: int
    seed: str
    dealer: int
    totals: tuple[int, ...]  # match totals before this round (all 0 outside a match)


@dataclass(frozen=True, slots=True)
class State:
    table: Table
    hands: tuple[tuple[Card, ...], ...]  # per seat; dealt sorted, drawn cards added at the end
    stock: tuple[Card, ...]  # face down; stock[0] is the next card drawn
    pile: tuple[Card, ...]  # face up; pile[-1] is the top card
    turn: int | None  # seat to act; None once the round is over
    passes: int  # passes in a row made with the stock empty (a draw, or a card played, resets it)
    last: Last  # the last step: who did what with which card
    steps: str = ""  # every step so far, one `STEP_LETTER` each: what everyone at the table saw happen

    @property
    def drawn(self) -> Card | None:
        """The card the player to act drew this turn (they must now play it or pass), if any."""
        _seat, kind, drawn = self.last
        return drawn if kind == DREW else None

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def target(self) -> int:
        return self.table.target

    @property
    def seed(self) -> str:
        return self.table.seed

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def totals(self) -> tuple[int, ...]:
        return self.table.totals

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def out(self) -> int | None:
        """The seat that played its last card (None while playing, or when the hand was blocked)."""
        for seat, hand in enumerate(self.hands):
            if not hand:
                return seat
        return None


_new = object.__new__
_set_table = State.__dict__["table"].__set__
_set_hands = State.__dict__["hands"].__set__
_set_stock = State.__dict__["stock"].__set__
_set_pile = State.__dict__["pile"].__set__
_set_turn = State.__dict__["turn"].__set__
_set_passes = State.__dict__["passes"].__set__
_set_last = State.__dict__["last"].__set__
_set_steps = State.__dict__["steps"].__set__


def build(
    table: Table,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    pile: tuple[Card, ...],
    turn: int | None,
    passes: int,
    last: Last,
    steps: str,
) -> State:
    """The same value as `State(...)`, built faster for the move-by-move hot path.

    A frozen dataclass's `__init__` stores every field through `object.__setattr__`, which costs
    about a third of a random-play move; the slots' own setters store the same fields directly.
    Nothing else changes: the result is an ordinary, frozen `State`.
    """
    state = _new(State)
    _set_table(state, table)
    _set_hands(state, hands)
    _set_stock(state, stock)
    _set_pile(state, pile)
    _set_turn(state, turn)
    _set_passes(state, passes)
    _set_last(state, last)
    _set_steps(state, steps)
    return state


def _text(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _cards(texts: Any) -> tuple[Card, ...]:
    return tuple(card(t) for t in texts)


def _optional_card(text: str | None) -> Card | None:
    return None if text is None else card(text)


def to_json(state: State) -> dict[str, Any]:
    table = state.table
    seat, kind, last_card = state.last
    return {
        "players": table.players,
        "target": table.target,
        "seed": table.seed,
        "dealer": table.dealer,
        "totals": list(table.totals),
        "hands": [_text(h) for h in state.hands],
        "stock": _text(state.stock),
        "pile": _text(state.pile),
        "turn": state.turn,
        "passes": state.passes,
        "last": [seat, kind, None if last_card is None else str(last_card)],
        "steps": state.steps,
    }


def from_json(data: Mapping[str, Any]) -> State:
    turn = data["turn"]
    seat, kind, last_card = data["last"]
    return State(
        table=Table(
            players=int(data["players"]),
            target=int(data["target"]),
            seed=str(data["seed"]),
            dealer=int(data["dealer"]),
            totals=tuple(int(t) for t in data["totals"]),
        ),
        hands=tuple(_cards(h) for h in data["hands"]),
        stock=_cards(data["stock"]),
        pile=_cards(data["pile"]),
        turn=None if turn is None else int(turn),
        passes=int(data["passes"]),
        last=(int(seat), str(kind), _optional_card(last_card)),
        steps=_steps(data["steps"]),
    )


def _steps(text: Any) -> str:
    """A stored round's step record, refused if it holds anything but step letters."""
    if not isinstance(text, str) or not set(text) <= set(STEP_LETTER.values()):
        raise ValueError(f"not a record of Puskiyon steps: {text!r}")
    return text
