"""A full Hawsker state that agrees with one seat's view: the search's guess at the hidden cards.

The seat's own hand and discards, the cards on the pile and this round's plays are kept as seen. The
other hand, the stock (and its order: the draws to come) and the waste pile are dealt from the cards
the seat has not seen, in the sizes the view shows; the seat's own discards may be in the waste or,
after a reshuffle, in the stock (or back in its hand or on the pile, where it sees them), but never in the
other hand. The hand the other player kept from the last round was scored face up: the cards of it not
played since are guessed to be in that hand still (the player may have discarded one face down, but the
cards were kept because they score together), and only the rest of the hand is guessed from the unseen
cards. Knowing them is worth most of what the search gains over its policy (the engine's README).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.cards import FULL_DECK, Card, parse_cards
from rules.engine.hawsker.scoring import sort_cards
from rules.engine.hawsker.spec import FIRST_DISCARDS
from rules.engine.hawsker.state import State


def _pending(view: Mapping[str, Any]) -> tuple[int, ...]:
    """The discards still owed in this phase, in order (the view shows only whose turn it is)."""
    leader, turn = int(view["leader"]), view["to_act"]
    counts, done = view["hand_counts"], view["discard_counts"]
    if view["phase"] == "discard":
        order = (leader,) * FIRST_DISCARDS + (1 - leader,) * FIRST_DISCARDS
        owed = order[sum(done):]
    elif view["phase"] == "final":
        seats = (1 - view["ender"],) if view["ending"] in ("stuck", "steal") else (leader, 1 - leader)
        owed = tuple(s for s in seats if counts[s] and done[s] <= FIRST_DISCARDS)
    else:
        return ()
    return owed if owed and owed[0] == turn else (turn,)


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    me = int(view["seat"])
    other = 1 - me
    hand = sort_cards(parse_cards(view["hand"]))
    pile = parse_cards(view["pile"])
    mine_out = parse_cards(view["discards"])
    history = tuple((int(p["seat"]), parse_cards(p["cards"])) for p in view["plays"])
    other_count = int(view["hand_counts"][other])
    kept = tuple(parse_cards(h) for h in view["kept"])
    # A kept card played since (or back in my hand or my discards after a reshuffle) has left the other hand.
    gone = {*hand, *pile, *mine_out, *(c for _seat, cards in history for c in cards)}
    still_kept = [c for c in kept[other] if c not in gone][:other_count]
    # Played cards no longer on the pile are in the stock or the waste again: unseen, like the rest.
    placed = {*hand, *pile, *mine_out, *still_kept}
    unseen = [c for c in FULL_DECK if c not in placed]
    rng.shuffle(unseen)
    free = other_count - len(still_kept)
    other_hand = sort_cards((*still_kept, *unseen[:free]))
    # My discards are somewhere unseen (waste or, after a reshuffle, stock) unless a reshuffle has brought one back
    # into my hand or onto the pile: those are where I see them, and must not be dealt a second time.
    rest: list[Card] = unseen[free:] + [c for c in mine_out if c not in hand and c not in pile]
    rng.shuffle(rest)
    stock_count = int(view["stock"])
    stock, waste = tuple(rest[:stock_count]), tuple(rest[stock_count:])
    # The other's discards are a record of what went face down; after a reshuffle some are in the stock again.
    other_out = tuple(c for c in (*waste, *stock) if c not in mine_out)[: int(view["discard_counts"][other])]
    hands = (hand, other_hand) if me == 0 else (other_hand, hand)
    discards = (mine_out, other_out) if me == 0 else (other_out, mine_out)
    plays = view["plays_made"]
    return State(
        seed=f"guess-{rng.random()}", number=int(view["round"]), target=int(view["target"]),
        dealer=int(view["dealer"]), totals=(int(view["totals"][0]), int(view["totals"][1])),
        leader=int(view["leader"]), cut=bool(view["cut"]), phase=str(view["phase"]), turn=view["to_act"],
        pending=_pending(view), hands=hands, stock=stock, table=pile, waste=waste, restocks=0,
        plays=(int(plays[0]), int(plays[1])), history=history, dealt=hands, discards=discards,
        ending=str(view["ending"]), ender=view["ender"], scored=((), ()), scores=(0, 0), last=str(view["last"]),
        kept=(kept[0], kept[1]),
    )
