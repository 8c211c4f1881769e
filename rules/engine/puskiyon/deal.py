"""The deal: a seeded shuffle of 52 cards, hands round the table, the next card face up.

Kept apart from the turn logic because the end-of-round record deals again from the seed to show
every hand as it was dealt, without the state having to carry a copy of it.
"""

from __future__ import annotations

from rules.engine import rng
from rules.engine.api import Config, Match
from rules.engine.cards import FULL_DECK, Card
from rules.engine.errors import ConfigError
from rules.engine.puskiyon.scoring import sort_hand
from rules.engine.puskiyon.spec import KEY, hand_size
from rules.engine.puskiyon.state import NO_LAST, State, Table


def deal(seed: str, players: int, dealer: int) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """(hands by seat, the first pile card, the stock with its top card first).

    Cards go one at a time clockwise, starting with the player left of the dealer.
    """
    deck = rng.shuffled(seed, FULL_DECK, "deal")
    size = hand_size(players)
    dealt = players * size
    first = (dealer + 1) % players
    hands = [()] * players
    for offset in range(players):
        seat = (first + offset) % players
        hands[seat] = sort_hand(deck[offset:dealt:players])
    return tuple(hands), deck[dealt], deck[dealt + 1 :]


def new_round(config: Config, seed: str, match: Match | None = None) -> State:
    if config.game != KEY:
        raise ConfigError(f"this is a {config.game} configuration, not Puskiyon")
    players = config.players
    if match is None:
        dealer, totals = players - 1, (0,) * players
    else:
        if len(match.totals) != players:
            raise ConfigError(f"the match has {len(match.totals)} players, the table {players}")
        dealer, totals = match.dealer, tuple(match.totals)
    hands, starter, stock = deal(seed, players, dealer)
    table = Table(players=players, target=int(config.get("target")), seed=seed, dealer=dealer, totals=totals)
    return State(
        table=table,
        hands=hands,
        stock=stock,
        pile=(starter,),
        turn=(dealer + 1) % players,
        passes=0,
        last=NO_LAST,
    )
