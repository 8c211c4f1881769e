"""Starting a Hawsker round: refill the hands to eight, decide who leads, ask for the discards.

The deal continues from round to round (the stock, the waste pile and the hands players kept come
from `Match.carry`), so this is the one place that knows how a round picks up where the last ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.api import Config, Match
from rules.engine.cards import FULL_DECK, parse_cards
from rules.engine.hawsker.flow import restock, start_pegging
from rules.engine.hawsker.scoring import sort_cards
from rules.engine.hawsker.spec import FIRST_DISCARDS, HAND_SIZE, PLAYERS, target
from rules.engine.hawsker.state import Cards, Draft, State
from rules.engine.rng import derive, shuffled


def _from_carry(
    seed: str, number: int, carry: Mapping[str, Any]
) -> tuple[tuple[Cards, Cards], Cards, Cards, int]:
    first, second = (sort_cards(parse_cards(h)) for h in carry["hands"])
    # The cards still in the stock get a fresh shuffle from this round's seed: nobody has seen them,
    # so nothing changes for the players, and a finished round's published seed tells nothing of
    # the cards to come.
    stock = shuffled(seed, parse_cards(carry["stock"]), "stock", number)
    return (first, second), stock, parse_cards(carry["waste"]), int(carry["restocks"])


def new_round(config: Config, seed: str, match: Match | None = None) -> State:
    number = (match.number if match else 0) + 1
    dealer = match.dealer if match else PLAYERS - 1
    totals = (match.totals[0], match.totals[1]) if match else (0, 0)
    if match is not None and match.carry:
        hands, stock, waste, restocks = _from_carry(seed, number, match.carry)
    else:
        hands, stock, waste, restocks = ((), ()), shuffled(seed, FULL_DECK, "deal", number), (), 0
    if totals[0] != totals[1]:
        leader, cut = (0 if totals[0] < totals[1] else 1), False
    else:
        leader, cut = derive(seed, "cut", number).randrange(PLAYERS), True
    empty: tuple[Cards, Cards] = ((), ())
    d = Draft(
        State(
            seed=seed, number=number, target=target(config), dealer=dealer, totals=totals,
            leader=leader, cut=cut, phase="discard", turn=leader, pending=(), hands=hands,
            stock=stock, table=(), waste=waste, restocks=restocks, plays=(0, 0), history=(),
            dealt=empty, discards=empty, ending="", ender=None, scored=empty, scores=(0, 0), last="",
            kept=hands,
        )
    )
    _deal(d)
    d.dealt = d.hands
    other = 1 - leader
    d.pending = (leader,) * min(FIRST_DISCARDS, len(d.hands[leader])) + (other,) * min(
        FIRST_DISCARDS, len(d.hands[other])
    )
    if d.pending:
        d.turn = d.pending[0]
    else:
        start_pegging(d)
    return d.freeze()


def _deal(d: Draft) -> None:
    """One card at a time, starting left of the dealer, until both hold eight or no card is left."""
    hands = [list(d.hands[0]), list(d.hands[1])]
    seat = (d.dealer + 1) % PLAYERS
    stock, taken = d.stock, 0
    while len(hands[0]) < HAND_SIZE or len(hands[1]) < HAND_SIZE:
        if len(hands[seat]) < HAND_SIZE:
            if taken == len(stock):
                d.stock = ()
                if not restock(d):
                    break
                stock, taken = d.stock, 0
            hands[seat].append(stock[taken])
            taken += 1
        seat = 1 - seat
    d.stock = stock[taken:]
    d.hands = (sort_cards(hands[0]), sort_cards(hands[1]))
