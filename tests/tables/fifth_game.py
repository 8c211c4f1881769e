"""Little Tricks: a fifth game that exists only in the tests, to show the web layer plays any registered game.

Two or three players, a few cards each from a 24-card pack (nine to ace); the leader plays any card, the
others follow suit if they can, and the highest card of the led suit takes the trick. One point per trick.
A match is a fixed number of rounds (a house rule, also quick play's band). It implements the engine API
(rules.engine.api.GameModule) and a bot, and nothing in `tables/` names it: everything comes from `SPEC`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.engine.api import Band, Config, GameSpec, Match, OptionSpec, RoundResult
from rules.engine.cards import Card, make_deck, parse_cards
from rules.engine.errors import IllegalMove
from rules.engine.match import FixedRoundsMatch
from rules.engine.moves import Move
from rules.engine.rng import shuffled

KEY = "littletricks"
RANKS = ("9", "10", "J", "Q", "K", "A")  # low to high
DECK = make_deck(RANKS)

SPEC = GameSpec(
    key=KEY,
    title="Little Tricks",
    min_players=2,
    max_players=3,
    default_players=2,
    unit="points",
    options=(
        OptionSpec(name="hand_size", label="Cards each", default=4, help="Cards dealt to each player.",
                   minimum=4, maximum=6),
        OptionSpec(name="rounds", label="Rounds in a match", default=2, help="Deals in a match.",
                   minimum=1, maximum=5),
    ),
    blurb="Follow suit; the highest card of the led suit takes the trick, one point a trick.",
    band_option="rounds",
    bands=(Band("standard", "Two rounds", 2), Band("short", "One round", 1)),
    band_name="length",
)


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    players: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], ...]
    leader: int  # who led the trick on the table
    table: tuple[Card, ...]  # the trick so far, from the leader
    tricks: tuple[tuple[int, tuple[Card, ...], int], ...]  # (leader, cards, winner)
    turn: int | None


def new_round(config: Config, seed: str, match: Match | None = None) -> State:
    players = config.players
    size = int(config.get("hand_size"))
    dealer = match.dealer if match is not None else players - 1
    deck = shuffled(seed, DECK, "deal")
    hands = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(players))
    leader = (dealer + 1) % players
    return State(seed=seed, players=players, dealer=dealer, dealt=hands, hands=hands, leader=leader, table=(),
                 tricks=(), turn=leader)


def to_act(state: State) -> int | None:
    return state.turn


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat != state.turn:
        return []
    hand = state.hands[seat]
    follow = [c for c in hand if state.table and c.suit == state.table[0].suit]
    return [Move("play", (c,)) for c in follow or hand]


def apply(state: State, seat: int, move: Move) -> State:
    if state.turn is None:
        raise IllegalMove("The round is over.")
    if seat != state.turn:
        raise IllegalMove(f"It is seat {state.turn}'s turn.")
    if move not in legal_moves(state, seat):
        raise IllegalMove(f"{move} is not a legal play now.")
    played = move.cards[0]
    hands = tuple(tuple(c for c in h if c != played) if i == seat else h for i, h in enumerate(state.hands))
    table = (*state.table, played)
    if len(table) < state.players:
        return replace(state, hands=hands, table=table, turn=(seat + 1) % state.players)
    led = table[0].suit
    best = max((c for c in table if c.suit == led), key=lambda c: RANKS.index(c.rank))
    winner = (state.leader + table.index(best)) % state.players
    tricks = (*state.tricks, (state.leader, table, winner))
    turn = winner if hands[winner] else None
    return replace(state, hands=hands, table=(), tricks=tricks, leader=winner, turn=turn)


def _won(state: State) -> list[int]:
    won = [0] * state.players
    for _leader, _cards, winner in state.tricks:
        won[winner] += 1
    return won


def result(state: State) -> RoundResult:
    won = _won(state)
    best = max(won)
    text = " and ".join(f"Seat {s}" for s, n in enumerate(won) if n == best) + f" took the most tricks ({best})."
    return RoundResult(deltas=tuple(won), unit=SPEC.unit, summary={"text": text, "tricks": won})


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.turn is None
    data: dict[str, Any] = {
        "game": KEY,
        "players": state.players,
        "seat": seat,
        "dealer": state.dealer,
        "to_act": state.turn,
        "hand": [] if seat is None else [str(c) for c in state.hands[seat]],
        "hand_counts": [len(h) for h in state.hands],
        "legal": [] if seat is None else [str(m) for m in legal_moves(state, seat)],
        "prompt": "The round is over." if over else (
            "Your turn: follow suit if you can." if seat == state.turn else f"Waiting for seat {state.turn}."),
        "last": "",
        "over": over,
        "trick": [{"seat": (state.leader + i) % state.players, "card": str(c)} for i, c in enumerate(state.table)],
        "tricks_won": _won(state),
        "result": dict(result(state).summary) if over else None,
    }
    if over:
        data["record"] = {"seed": state.seed, "dealt": [[str(c) for c in hand] for hand in state.dealt]}
    return data


def to_json(state: State) -> dict[str, Any]:
    return {
        "seed": state.seed, "players": state.players, "dealer": state.dealer,
        "dealt": [[str(c) for c in h] for h in state.dealt], "hands": [[str(c) for c in h] for h in state.hands],
        "leader": state.leader, "table": [str(c) for c in state.table],
        "tricks": [[lead, [str(c) for c in cards], winner] for lead, cards, winner in state.tricks],
        "turn": state.turn,
    }


def from_json(data: Mapping[str, Any]) -> State:
    return State(
        seed=data["seed"], players=data["players"], dealer=data["dealer"],
        dealt=tuple(parse_cards(h) for h in data["dealt"]), hands=tuple(parse_cards(h) for h in data["hands"]),
        leader=data["leader"], table=parse_cards(data["table"]),
        tricks=tuple((lead, parse_cards(cards), winner) for lead, cards, winner in data["tricks"]),
        turn=data["turn"],
    )


start_match, next_match, match_over, match_winners = FixedRoundsMatch(result).functions()


def choose(view: Mapping[str, Any], legal: list[Move]) -> Move:
    """The bot: the highest legal card (it sees only its own seat's view)."""
    if not legal:
        raise ValueError("there is no legal move to choose from")
    return max(legal, key=lambda m: RANKS.index(m.cards[0].rank))
