"""What one seat (or a spectator) may see of a round, built fresh for each recipient.

Other hands, the stock order and the seed stay out until the round is over; the card a player
drew is named only in that player's own view, because to everybody else it went face down into a
hand. The pile is face up, so the cards on it are public.
"""

from __future__ import annotations

from typing import Any

from rules.engine.cards import Card
from rules.engine.puskiyon.deal import deal
from rules.engine.puskiyon.scoring import MATCHES, SORT_KEY, hand_points, sort_hand, what_follows
from rules.engine.puskiyon.spec import KEY
from rules.engine.puskiyon.state import DREW, DREW_PASSED, DREW_PLAYED, PASSED, PLAYED, State
from rules.engine.puskiyon.turns import legal_moves, result

RECENT = 5  # how many of the pile's top cards a view lists


def _who(seat: int, viewer: int | None) -> str:
    return "You" if seat == viewer else f"Seat {seat}"


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def phase(state: State) -> str:
    if state.turn is None:
        return "over"
    return "drawn" if state.drawn is not None else "play"


def _last(state: State, viewer: int | None) -> str:
    seat, kind, card = state.last
    if seat < 0:
        return ""
    who = _who(seat, viewer)
    mine = seat == viewer
    if kind == PLAYED:
        sentence = f"{who} played {card}."
    elif kind == DREW_PLAYED:
        sentence = f"{who} drew and played {card}."
    elif kind == DREW:
        sentence = f"{who} drew {card}." if mine else f"{who} drew a card."
    elif kind == DREW_PASSED:
        sentence = f"{who} drew {card} and passed." if mine else f"{who} drew a card and passed."
    elif kind == PASSED:
        sentence = f"{who} passed."
    else:
        return ""
    if state.out is not None:
        sentence += " That was the last card: the hand is over." if mine else f" {who} went out."
    elif state.turn is None:
        sentence += " Everyone passed in turn with the stock empty: the hand is blocked."
    return sentence


def _prompt(state: State, viewer: int | None) -> str:
    turn = state.turn
    if turn is None:
        if state.out is None:
            return "The hand is blocked: everyone adds up the cards left in hand."
        return f"{_who(state.out, viewer)} went out: everyone else adds up the cards left in hand."
    top = state.pile[-1]
    if turn != viewer:
        waiting = "to play the drawn card or pass" if state.drawn is not None else "to play"
        return f"Waiting for seat {turn} {waiting}."
    if state.drawn is not None:
        if state.drawn in MATCHES[top]:
            return f"You drew {state.drawn}: play it on {top}, or pass and keep it."
        return f"You drew {state.drawn}; it does not match {top}, so pass."
    then = "draw a card" if state.stock else "pass (the stock is empty)"
    return f"Your turn: play a card on {top} ({what_follows(top)}), or {then}."


def _legal_texts(state: State, seat: int | None) -> list[str]:
    """The viewer's legal moves, plays in the hand's display order, then draw or pass."""
    if seat is None:
        return []
    moves = legal_moves(state, seat)
    moves.sort(key=lambda m: SORT_KEY[m.cards[0]] if m.cards else len(SORT_KEY))
    return [str(m) for m in moves]


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.turn is None
    own = state.hands[seat] if seat is not None else ()
    mine = seat is not None and seat == state.turn
    data: dict[str, Any] = {
        "game": KEY,
        "players": state.players,
        "seat": seat,
        "dealer": state.dealer,
        "to_act": state.turn,
        "phase": phase(state),
        "hand": _texts(sort_hand(own)),
        "hand_counts": [len(h) for h in state.hands],
        "legal": _legal_texts(state, seat),
        "prompt": _prompt(state, seat),
        "last": _last(state, seat),
        "over": over,
        "result": dict(result(state).summary) if over else None,
        "top": str(state.pile[-1]),
        "pile_recent": _texts(state.pile[-RECENT:]),
        "pile_count": len(state.pile),
        "stock_count": len(state.stock),
        "drawn": str(state.drawn) if mine and state.drawn is not None else None,
        "passes": state.passes,
        "hand_points": hand_points(own),
        "totals": list(state.totals),
        "target": state.target,
    }
    if over:
        dealt, starter, _stock = deal(state.seed, state.players, state.dealer)
        data["record"] = {
            "seed": state.seed,
            "dealt": [_texts(h) for h in dealt],
            "starter": str(starter),
            "hands_left": [_texts(h) for h in state.hands],
            "stock_left": _texts(state.stock),
            "pile": _texts(state.pile),
        }
    return data


def last_event(state: State, viewer: int | None) -> str:
    """What the last move did, as `viewer` (None: a spectator) may read it: the table's move log, line by line
    (a card drawn is named only to the one who drew it)."""
    return _last(state, viewer)
