"""The bot's look-ahead for the last few tricks: sample the hidden cards, play out, score.

Near the end the parties are decided (who takes the last trick), so the bot deals the unseen
cards at random to the other seats (respecting the suits they have shown they lack), plays the
rest of the round out with random legal cards for everyone after its own choice, and scores
each ending with the real scoring rules. The card with the best average wins. Few cards are
left, so a few dozen samples give a steady answer in milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.engine.cards import Card
from rules.engine.hawk.deck import winning_index
from rules.engine.hawk.knowledge import Seen
from rules.engine.hawk.scoring import examine_trick, lafh_deltas, lafh_of

OTHERS_WEIGHT = 0.25
"""How much the bot also likes the other seats losing points (it plays a match, not one round)."""


def deal_hidden(seen: Seen, rng: random.Random, strict: bool = True) -> list[list[Card]] | None:
    """One guess at every other hand, consistent with the voids shown; None if the guess failed.

    With `strict` off the voids are ignored (used only when no consistent guess was found).
    """
    pool = list(seen.unseen)
    rng.shuffle(pool)
    hands: list[list[Card]] = [[] for _ in range(seen.players)]
    hands[seen.me] = list(seen.hand)
    others = sorted((s for s in range(seen.players) if s != seen.me), key=lambda s: -len(seen.voids[s]))
    for seat in others:
        need = seen.counts[seat]
        lacking = seen.voids[seat] if strict else frozenset()
        taken: list[Card] = []
        rest: list[Card] = []
        for c in pool:
            if len(taken) < need and c[1] not in lacking:
                taken.append(c)
            else:
                rest.append(c)
        if len(taken) < need:
            return None
        hands[seat] = taken
        pool = rest
    return hands


def _points(seen: Seen, pips: list[int], first: int, last: int, events: list[tuple[int, str]]) -> tuple[int, ...]:
    lafh = lafh_of(seen.players, first, last)
    plus = [kind for s, kind in events if s in lafh]
    minus = [kind for s, kind in events if s not in lafh]
    return lafh_deltas(seen.players, lafh, pips, plus, minus, seen.per_trick)


def play_out(seen: Seen, hands: list[list[Card]], first_card: Card, rng: random.Random) -> float:
    """Play `first_card` now, then random legal cards to the end; the bot's value of the ending."""
    players = seen.players
    pips = list(seen.pips_won)
    events = list(seen.events)
    first = seen.first_taker
    leader = seen.leader
    table = list(seen.table)
    hands = [h.copy() for h in hands]
    hands[(leader + len(table)) % players].remove(first_card)
    table.append(first_card)
    last = leader
    rand = rng.random
    while True:
        if len(table) == players:
            winner = (leader + winning_index(table)) % players
            trick_pips, kinds = examine_trick(table, players)
            pips[winner] += trick_pips
            if kinds:
                events.extend((winner, kind) for kind in kinds)
            if first is None:
                first = winner
            last = leader = winner
            table = []
            if not hands[winner]:
                break
        hand = hands[(leader + len(table)) % players]
        if table:
            led = table[0][1]
            options = [c for c in hand if c[1] == led] or hand
        else:
            options = hand
        choice = options[int(rand() * len(options))]
        hand.remove(choice)
        table.append(choice)
    points = _points(seen, pips, first if first is not None else last, last, events)
    mine = points[seen.me]
    others = (sum(points) - mine) / (players - 1)
    return mine - OTHERS_WEIGHT * others


def best_card(seen: Seen, candidates: Sequence[Card], rng: random.Random, samples: int) -> Card:
    """The candidate with the best average over `samples` guessed deals (first one on a tie)."""
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    dealt = 0
    for attempt in range(samples * 3):
        hands = deal_hidden(seen, rng, strict=attempt < samples * 2 or dealt > 0)
        if hands is None:
            continue
        for index, candidate in enumerate(candidates):
            totals[index] += play_out(seen, hands, candidate, rng)
        dealt += 1
        if dealt == samples:
            break
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]
