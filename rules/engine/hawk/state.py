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
