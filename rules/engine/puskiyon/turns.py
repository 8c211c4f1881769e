"""A turn of Puskiyon: play a matching card, or draw one and then play that card or pass.

This is the hot path of random play and of the bots, so legal moves come from per-card tables,
moves are interned, and `apply` builds the next state directly; every refusal still says in words
why the move is not allowed.
"""

from __future__ import annotations

from rules.engine.api import RoundResult
from rules.engine.cards import FULL_DECK, Card
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move
from rules.engine.puskiyon.scoring import MATCHES, hand_points, what_follows
from rules.engine.puskiyon.spec import SPEC
from rules.engine.puskiyon.state import DREW, DREW_PASSED, DREW_PLAYED, PASSED, PLAYED, STEP_LETTER, State, build
from rules.engine.text import said
from rules.engine.text import seat as seat_said

DRAW = Move("draw")
PASS = Move("pass")
PLAY: dict[Card, Move] = {c: Move("play", (c,)) for c in FULL_DECK}


def to_act(state: State) -> int | None:
    return state.turn


def legal_moves(state: State, seat: int) -> list[Move]:
    """Plays in hand order, then `draw` (stock not empty) or `pass`; after a draw: the drawn card or pass."""
    turn = state.turn
    if seat != turn or turn is None:
        return []
    _seat, kind, drawn = state.last
    fits = MATCHES[state.pile[-1]]
    if kind == DREW:
        return [PLAY[drawn], PASS] if drawn in fits else [PASS]
    moves = [PLAY[c] for c in state.hands[seat] if c in fits]
    moves.append(DRAW if state.stock else PASS)
    return moves


def _cards_named(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


def apply(state: State, seat: int, move: Move) -> State:
    """The state after `seat` makes `move`; the checks are ordered so a legal move passes them cheaply."""
    turn = state.turn
    if seat != turn or turn is None:
        if turn is None:
            raise IllegalMove(said("The hand is over; nobody can move."))
        raise IllegalMove(said("It is not your turn: %(player)s is to play.", player=seat_said(turn)))
    try:
        kind, cards = move
    except (TypeError, ValueError):
        raise IllegalMove(said("%(move)s is not a move.", move=repr(move))) from None
    _seat, last_kind, drawn = state.last
    if last_kind != DREW:
        drawn = None
    hands = state.hands
    stock = state.stock
    if kind == "play":
        if len(cards) != 1:
            raise IllegalMove(said("Play exactly one card, like 'play 10D'."))
        card = cards[0]
        hand = hands[seat]
        if card not in hand:
            raise IllegalMove(said("You do not hold %(card)s.", card=str(card)))
        if drawn is not None and card != drawn:
            raise IllegalMove(said("After drawing you may play only the card you drew (%(card)s), or pass.",
                                        card=str(drawn)))
        pile = state.pile
        top = pile[-1]
        if card not in MATCHES[top]:
            raise IllegalMove(said("%(card)s does not match %(top)s: play %(follows)s.", card=str(card), top=str(top),
                                        follows=what_follows(top)))
        index = hand.index(card)
        left = hand[:index] + hand[index + 1 :]
        return build(
            state.table,
            (*hands[:seat], left, *hands[seat + 1 :]),
            stock,
            (*pile, card),
            (seat + 1) % state.table.players if left else None,  # playing the last card ends the hand
            0,
            (seat, PLAYED if drawn is None else DREW_PLAYED, card),
            state.steps + STEP_LETTER[PLAYED if drawn is None else DREW_PLAYED],
        )
    if kind != "draw" and kind != "pass":
        raise IllegalMove(said("Puskiyon has no move '%(kind)s': play a card, draw, or pass.", kind=kind))
    if cards:
        raise IllegalMove(said("'%(kind)s' names no cards; you wrote '%(kind)s %(cards)s'.", kind=kind,
                                    cards=_cards_named(cards)))
    if kind == "draw":
        if drawn is not None:
            raise IllegalMove(said("You have already drawn this turn: play the card you drew, or pass."))
        if not stock:
            raise IllegalMove(said("The stock is empty: play a matching card or pass."))
        card = stock[0]
        return build(
            state.table,
            (*hands[:seat], (*hands[seat], card), *hands[seat + 1 :]),
            stock[1:],
            state.pile,
            seat,
            state.passes,
            (seat, DREW, card),
            state.steps + STEP_LETTER[DREW],
        )
    # kind is "pass"
    if drawn is None and stock:
        raise IllegalMove(said("You may pass only after drawing, or when the stock is empty: play or draw."))
    players = state.table.players
    # Only a pass made with the stock empty counts toward a block; a turn that drew (even the last
    # card) and kept it starts the count again, so a hand never blocks on the draw of the last card.
    passes = state.passes + 1 if drawn is None else 0
    stuck = passes >= players
    return build(
        state.table,
        hands,
        stock,
        state.pile,
        None if stuck else (seat + 1) % players,
        passes,
        (seat, PASSED if drawn is None else DREW_PASSED, drawn),
        state.steps + STEP_LETTER[PASSED if drawn is None else DREW_PASSED],
    )


def blocked(state: State) -> bool:
    """True when the round ended because everybody passed with the stock empty."""
    return state.turn is None and all(state.hands)


def result(state: State) -> RoundResult:
    if state.turn is not None:
        raise ValueError("the round is not over")
    points = tuple(hand_points(h) for h in state.hands)
    return RoundResult(deltas=points, unit=SPEC.unit, summary=summary(state, points))


def summary(state: State, points: tuple[int, ...]) -> dict:
    """What a results screen shows: how the hand ended, what each seat was left holding and scores."""
    out = state.out
    after = [t + p for t, p in zip(state.totals, points, strict=True)]
    return {
        "ending": "blocked" if out is None else "out",
        "winner": out,
        "points": list(points),
        "hands": [[str(c) for c in h] for h in state.hands],
        "totals_before": list(state.totals),
        "totals_after": after,
        "target": state.target,
        "game_over": max(after) >= state.target,
    }
