"""Hawk's search play-outs on plain lists: the uniform random cards `search.playout` plays, without the engine.

Hawk's search plays its play-outs at random (the easy bot is too slow to play them), and with the engine each
card built a frozen state, a legal-move list and a trick: four fifths of a strong decision's time. Here the
hands are lists and a card is a list removal. The choices are the ones `search.playout` makes from the same
random numbers (one `rng.random()` per card with a choice, none for a forced card, the legal cards in hand
order), and the value is `search.seat_value`'s: the seat's points less the others' mean. A test plays both on
the same guessed states and requires equal values and the same random numbers left in the rng.
"""

from __future__ import annotations

import random

from rules.engine.cards import Card
from rules.engine.hawk.deck import winning_index
from rules.engine.hawk.scoring import tally_deltas
from rules.engine.hawk.state import State


def rollout(state: State, seat: int, limit: int, rng: random.Random) -> float:
    """`seat`'s value at the end of a uniform random play-out of at most `limit` cards."""
    players = state.deal.config.players
    hands = [list(hand) for hand in state.hands]
    table: list[Card] = list(state.table)
    leader = state.leader
    tricks: list[tuple[int, tuple[Card, ...]]] = [(t.winner, t.cards) for t in state.tricks]
    turn = state.turn
    rand = rng.random
    cards = 0
    while turn is not None:
        if cards == limit:
            raise ValueError("the playout stopped before the end and the game has no estimate")
        cards += 1
        hand = hands[turn]
        if table:
            led = table[0][1]
            options = [c for c in hand if c[1] == led] or hand
        else:
            options = hand
        choice = options[0] if len(options) == 1 else options[int(rand() * len(options))]
        hand.remove(choice)
        table.append(choice)
        if len(table) < players:
            turn = (turn + 1) % players
            continue
        winner = (leader + winning_index(table)) % players
        tricks.append((winner, tuple(table)))
        table = []
        leader = winner
        turn = winner if hand else None
    deltas = tally_deltas(players, tricks, bool(state.deal.config.get("bonus_per_trick")))
    return deltas[seat] - (sum(deltas) - deltas[seat]) / max(1, players - 1)
