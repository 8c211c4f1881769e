"""The state of one Hawk round as an immutable value, and its JSON form.

Everything the round needs is in here (config, seed, the deal, the tricks so far), so a state
can be stored as JSON between two requests and replayed from its seed and moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.api import Config
from rules.engine.cards import Card, card


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led it, who took it, the cards in play order."""

    leader: int
    winner: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """What is fixed from the deal on; kept apart so each move copies six fields, not ten."""

    config: Config
    seed: str
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]  # each seat's hand as dealt
    out: tuple[Card, ...]  # out of play, never seen before the end


@dataclass(frozen=True, slots=True)
class State:
    deal: Deal
    hands: tuple[tuple[Card, ...], ...]
    leader: int  # who led (or leads) the trick on the table
    table: tuple[Card, ...]  # the trick on the table, in play order
    tricks: tuple[Trick, ...]  # finished tricks
    turn: int | None  # None: round over

    @property
    def config(self) -> Config:
        return self.deal.config

    @property
    def seed(self) -> str:
        return self.deal.seed

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        return self.deal.dealt

    @property
    def out(self) -> tuple[Card, ...]:
        return self.deal.out

    @property
    def players(self) -> int:
        return self.deal.config.players

    @property
    def over(self) -> bool:
        return self.turn is None


_new = object.__new__
_set_deal = State.__dict__["deal"].__set__
_set_hands = State.__dict__["hands"].__set__
_set_leader = State.__dict__["leader"].__set__
_set_table = State.__dict__["table"].__set__
_set_tricks = State.__dict__["tricks"].__set__
_set_turn = State.__dict__["turn"].__set__
_set_trick_leader = Trick.__dict__["leader"].__set__
_set_trick_winner = Trick.__dict__["winner"].__set__
_set_trick_cards = Trick.__dict__["cards"].__set__


def build(
    deal: Deal,
    hands: tuple[tuple[Card, ...], ...],
    leader: int,
    table: tuple[Card, ...],
    tricks: tuple[Trick, ...],
    turn: int | None,
) -> State:
    """The same value as `State(...)`, built faster for the card-by-card hot path (the search's play-outs).

    A frozen dataclass's `__init__` stores every field through `object.__setattr__`; the slots' own
    setters store the same fields directly. The result is an ordinary, frozen `State` (a test compares
    the two ways field by field and fails if a field is added to one and not the other).
    """
    state = _new(State)
    _set_deal(state, deal)
    _set_hands(state, hands)
    _set_leader(state, leader)
    _set_table(state, table)
    _set_tricks(state, tricks)
    _set_turn(state, turn)
    return state


def build_trick(leader: int, winner: int, cards: tuple[Card, ...]) -> Trick:
    """`Trick(...)` built the way `build` builds a state."""
    trick = _new(Trick)
    _set_trick_leader(trick, leader)
    _set_trick_winner(trick, winner)
    _set_trick_cards(trick, cards)
    return trick


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _cards(texts: list[str]) -> tuple[Card, ...]:
    return tuple(card(t) for t in texts)


def to_json(state: State) -> dict[str, Any]:
    return {
        "config": state.config.to_json(),
        "seed": state.seed,
        "dealer": state.dealer,
        "dealt": [_texts(h) for h in state.dealt],
        "out": _texts(state.out),
        "hands": [_texts(h) for h in state.hands],
        "leader": state.leader,
        "table": _texts(state.table),
        "tricks": [{"leader": t.leader, "winner": t.winner, "cards": _texts(t.cards)} for t in state.tricks],
        "turn": state.turn,
    }


def from_json(data: Mapping[str, Any]) -> State:
    turn = data["turn"]
    return State(
        deal=Deal(
            config=Config.from_json(data["config"]),
            seed=str(data["seed"]),
            dealer=int(data["dealer"]),
            dealt=tuple(_cards(h) for h in data["dealt"]),
            out=_cards(data["out"]),
        ),
        hands=tuple(_cards(h) for h in data["hands"]),
        leader=int(data["leader"]),
        table=_cards(data["table"]),
        tricks=tuple(
            Trick(leader=int(t["leader"]), winner=int(t["winner"]), cards=_cards(t["cards"])) for t in data["tricks"]
        ),
        turn=None if turn is None else int(turn),
    )
