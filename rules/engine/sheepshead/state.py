"""The immutable state of one Sheepshead hand and its JSON form.

Only what cannot be derived is stored: the hands as dealt are rebuilt from the seed for the
record, and points, trick counts and whether the partner is known are all read off the tricks,
so every move builds one small frozen value and replay from (config, seed, moves) is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.cards import Card, card

PICK = "pick"
BURY = "bury"
PLAY = "play"
OVER = "over"
PHASES: tuple[str, ...] = (PICK, BURY, PLAY, OVER)

Trick = tuple[int, int, tuple[Card, ...]]
"""A finished trick: (leader seat, winner seat, cards in play order)."""


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed through one hand: who sits where, the deal's seed, the table's rules, the blind."""

    players: int
    dealer: int
    seed: str
    jd_partner: bool  # the table's partner option is the jack of diamonds (matters with 5+ players)
    stake: int  # cents
    blind: tuple[Card, ...]  # as dealt; in a leaster it goes to the taker of the last trick


@dataclass(frozen=True, slots=True)
class State:
    """One hand in progress; the fixed part sits in `table` so each move copies only ten fields."""

    table: Table
    phase: str
    turn: int | None  # seat to act; None once the hand is over
    hands: tuple[tuple[Card, ...], ...]
    picker: int | None
    buried: tuple[Card, ...]  # in the order the picker buried them
    partner: int | None  # set when the bury ends; hidden in views until the jack of diamonds is played
    leader: int  # seat that led (or will lead) the trick on the table
    trick: tuple[Card, ...]  # cards on the table, in play order from `leader`
    tricks: tuple[Trick, ...]

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def seed(self) -> str:
        return self.table.seed

    @property
    def blind(self) -> tuple[Card, ...]:
        return self.table.blind

    @property
    def leaster(self) -> bool:
        return self.picker is None and self.phase in (PLAY, OVER)


def _cards(texts: Any) -> tuple[Card, ...]:
    return tuple(card(t) for t in texts)


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def to_json(state: State) -> dict[str, Any]:
    return {
        "game": "sheepshead",
        "players": state.table.players,
        "dealer": state.table.dealer,
        "seed": state.table.seed,
        "jd_partner": state.table.jd_partner,
        "stake": state.table.stake,
        "blind": _texts(state.table.blind),
        "phase": state.phase,
        "turn": state.turn,
        "hands": [_texts(h) for h in state.hands],
        "picker": state.picker,
        "buried": _texts(state.buried),
        "partner": state.partner,
        "leader": state.leader,
        "trick": _texts(state.trick),
        "tricks": [[leader, winner, _texts(cards)] for leader, winner, cards in state.tricks],
    }


def _seat(value: Any) -> int | None:
    return None if value is None else int(value)


def from_json(data: Mapping[str, Any]) -> State:
    if data.get("game", "sheepshead") != "sheepshead":
        raise ValueError(f"not a Sheepshead state: {data.get('game')!r}")
    phase = str(data["phase"])
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    table = Table(
        players=int(data["players"]),
        dealer=int(data["dealer"]),
        seed=str(data["seed"]),
        jd_partner=bool(data["jd_partner"]),
        stake=int(data["stake"]),
        blind=_cards(data["blind"]),
    )
    return State(
        table=table,
        phase=phase,
        turn=_seat(data["turn"]),
        hands=tuple(_cards(h) for h in data["hands"]),
        picker=_seat(data["picker"]),
        buried=_cards(data["buried"]),
        partner=_seat(data["partner"]),
        leader=int(data["leader"]),
        trick=_cards(data["trick"]),
        tricks=tuple((int(t[0]), int(t[1]), _cards(t[2])) for t in data["tricks"]),
    )
