"""How a Hawsker round moves from phase to phase: drawing, reshuffles, the ends of pegging, scoring.

These steps work on a `Draft` so `apply` and `new_round` share one account of what happens when a
player cannot play, empties the hand, or the stock runs dry, and so every such step happens
automatically: `to_act` never names a seat that has no legal move.
"""

from __future__ import annotations

from rules.engine.cards import Card
from rules.engine.hawsker import sentences
from rules.engine.hawsker.scoring import can_play, score_hand, sort_cards
from rules.engine.hawsker.state import Cards, Draft
from rules.engine.rng import shuffled
from rules.engine.text import said, then
from rules.engine.text import seat as seat_said


def with_seat(pair: tuple, seat: int, value: object) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def restock(d: Draft) -> bool:
    """Shuffle the waste and the played cards (all but the top card) into a new stock."""
    pool: Cards = d.waste + d.table[:-1]
    if not pool:
        return False
    d.stock = shuffled(d.seed, pool, "restock", d.restocks)
    d.restocks += 1
    d.waste = ()
    d.table = d.table[-1:]
    return True


def draw(d: Draft) -> Card | None:
    """The next card of the stock, reshuffling first when it is empty; None when no card is left."""
    if not d.stock and not restock(d):
        return None
    card = d.stock[0]
    d.stock = d.stock[1:]
    return card


def start_pegging(d: Draft) -> None:
    d.phase = "play"
    d.pending = ()
    d.turn = d.leader
    if not can_play(None, d.hands[d.leader]):
        stuck(d, d.leader)


def stuck(d: Draft, seat: int) -> None:
    """`seat` has no legal play: pegging ends, that hand is discarded and scores nothing."""
    hand = d.hands[seat]
    d.waste += hand
    d.discards = with_seat(d.discards, seat, d.discards[seat] + hand)
    d.hands = with_seat(d.hands, seat, ())
    d.ending, d.ender = "stuck", seat
    d.last = then(d.last, sentences.stuck(seat))
    final_discards(d, (1 - seat,))


def final_discards(d: Draft, order: tuple[int, ...]) -> None:
    """Pegging is over: the seats in `order` that still hold cards discard one more card each."""
    d.phase = "final"
    d.pending = tuple(seat for seat in order if d.hands[seat])
    if d.pending:
        d.turn = d.pending[0]
    else:
        finish(d)


def finish(d: Draft) -> None:
    """Score the hands; scored cards stay in the hand that scored them (a stealer takes the other's)."""
    hands = d.hands
    if d.ending == "steal":
        stealer = d.ender
        assert stealer is not None
        victim = 1 - stealer
        d.scored = with_seat(((), ()), stealer, hands[victim])
        d.hands = with_seat(((), ()), stealer, sort_cards(hands[victim]))
    elif d.ending == "stuck":
        assert d.ender is not None
        d.scored = with_seat(((), ()), 1 - d.ender, hands[1 - d.ender])
    else:
        d.scored = (hands[0], hands[1])
    d.scores = (score_hand(d.scored[0]), score_hand(d.scored[1]))
    d.last = then(d.last, said("The hands are scored: %(first)s %(first_score)s, %(second)s %(second_score)s.",
                               first=seat_said(0), first_score=d.scores[0], second=seat_said(1),
                               second_score=d.scores[1]))
    d.phase = "over"
    d.turn = None
    d.pending = ()
