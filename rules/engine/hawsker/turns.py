"""Whose turn it is, what they may do, and what doing it changes.

`apply` checks a move directly against the hand and the top card instead of listing every legal
move first, which keeps random play and bots fast; a combination may name its leading cards in
any order (only the last card, the new top, matters) and is stored in the listed order.
"""

from __future__ import annotations

from functools import lru_cache, partial

from rules.engine.cards import FULL_DECK, SUIT_ONE, Card
from rules.engine.errors import IllegalMove
from rules.engine.hawsker import sentences
from rules.engine.hawsker.flow import draw, final_discards, finish, start_pegging, stuck, with_seat
from rules.engine.hawsker.scoring import (
    KING,
    canonical_play,
    is_legal_play,
    legal_plays,
    sort_cards,
)
from rules.engine.hawsker.spec import PLAYS_EACH
from rules.engine.hawsker.state import Draft, State
from rules.engine.moves import Move
from rules.engine.text import Said, said, then
from rules.engine.text import seat as seat_said


def to_act(state: State) -> int | None:
    return state.turn


def top_card(state: State) -> Card | None:
    return state.table[-1] if state.table else None


_PLAY_ONE: dict[Card, Move] = {c: Move("play", (c,)) for c in FULL_DECK}
_DISCARD: dict[Card, Move] = {c: Move("discard", (c,)) for c in FULL_DECK}
_TEXT: dict[Card, str] = {c: str(c) for c in FULL_DECK}
_move = partial(tuple.__new__, Move)  # Move(kind, cards) without the Python-level __new__


@lru_cache(maxsize=1024)
def _play_moves(top: Card | None, hand: tuple[Card, ...]) -> tuple[Move, ...]:
    """The play moves of a hand on a top card; `apply` asks first (is the next player stuck?), so the
    `legal_moves` call that follows finds the answer ready."""
    return tuple(_PLAY_ONE[cards[0]] if len(cards) == 1 else _move(("play", cards)) for cards in legal_plays(top, hand))


def legal_moves(state: State, seat: int) -> list[Move]:
    if state.turn is None or seat != state.turn:
        return []
    hand = state.hands[seat]
    if state.phase == "play":
        return list(_play_moves(top_card(state), hand))
    return [_DISCARD[c] for c in hand]


def apply(state: State, seat: int, move: Move) -> State:
    turn = state.turn
    if turn is None:
        raise IllegalMove(said("The round is over: nothing more can be played."))
    if seat != turn:
        raise IllegalMove(said("It is not your turn: waiting for %(player)s.", player=seat_said(turn)))
    if state.phase == "play":
        return _play(state, seat, move)
    return _discard(state, seat, move)


def _discard(state: State, seat: int, move: Move) -> State:
    if move.kind != "discard":
        if state.phase == "discard":
            raise IllegalMove(said("First discard a card face down, one at a time (like 'discard 7S')."))
        raise IllegalMove(said("Pegging is over: discard one more card before the hands are scored."))
    if len(move.cards) != 1:
        raise IllegalMove(said("Discard exactly one card at a time."))
    card = move.cards[0]
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(said("You do not hold %(card)s.", card=str(card)))
    d = Draft(state)
    kept = tuple([c for c in hand if c != card])
    d.hands = (kept, state.hands[1]) if seat == 0 else (state.hands[0], kept)
    d.discards = with_seat(state.discards, seat, (*state.discards[seat], card))
    d.waste = (*state.waste, card)
    d.pending = state.pending[1:]
    d.last = sentences.discarded(seat)
    if d.pending:
        d.turn = d.pending[0]
    elif state.phase == "discard":
        start_pegging(d)
    else:
        finish(d)
    return d.freeze()


def _why_not(top: Card | None, cards: tuple[Card, ...]) -> Said:
    named = " ".join(str(c) for c in cards)
    if len(set(cards)) != len(cards):
        return said("A card can be played only once in a combination.")
    if top is None:
        return said("The first play of a round is one single card.")
    if len(cards) > 1 and any(c.rank == KING for c in cards):
        return said("A king is played on its own: kings never count in a 13.")
    if top.rank == KING:
        return said("%(cards)s cannot go on the %(top)s: play one %(suit)s, any king, or two or more cards "
                    "that add to 13 by themselves.", cards=named, top=str(top), suit=SUIT_ONE[top.suit])
    return said("%(cards)s cannot go on the %(top)s: play one %(suit)s, any king, or cards that make 13 "
                "with the %(top)s.", cards=named, top=str(top), suit=SUIT_ONE[top.suit])


def _play(state: State, seat: int, move: Move) -> State:
    if move.kind != "play":
        raise IllegalMove(said("It is your turn to play: lay one card or a combination (like 'play 4C 9D')."))
    cards = move.cards
    if not cards:
        raise IllegalMove(said("Name the card or cards you play."))
    hand = state.hands[seat]
    for c in cards:
        if c not in hand:
            raise IllegalMove(said("You do not hold %(card)s.", card=str(c)))
    table = state.table
    top = table[-1] if table else None
    if not is_legal_play(top, cards):
        raise IllegalMove(_why_not(top, cards))
    if len(cards) > 2:
        cards = canonical_play(cards)
    other = 1 - seat
    d = Draft(state)
    rest = tuple([c for c in hand if c not in cards])
    d.table = table + cards
    d.history = (*state.history, (seat, cards))
    made = state.plays[seat] + 1
    plays = d.plays = (made, state.plays[1]) if seat == 0 else (state.plays[0], made)
    named = " ".join([_TEXT[c] for c in cards])
    if not rest:
        d.hands = ((), state.hands[1]) if seat == 0 else (state.hands[0], ())
        d.ending, d.ender = "steal", seat
        d.last = sentences.stole(seat, named)
        final_discards(d, (other,))
        return d.freeze()
    drawn = draw(d)
    if drawn is None:
        d.last = sentences.played(seat, named)
    else:
        rest = sort_cards((*rest, drawn))
        d.last = sentences.played_and_drew(seat, named)
    d.hands = (rest, state.hands[1]) if seat == 0 else (state.hands[0], rest)
    if plays[0] >= PLAYS_EACH and plays[1] >= PLAYS_EACH:
        d.ending = "plays"
        d.last = then(d.last, said("Both have made five plays, so pegging ends."))
        final_discards(d, (d.leader, 1 - d.leader))
    else:
        d.turn = other
        if not _play_moves(cards[-1], d.hands[other]):
            stuck(d, other)
    return d.freeze()
