"""What one seat (or a spectator) may see of a round, built fresh for each recipient.

Other hands, the stock order and the seed stay out until the round is over; the card a player
drew is named only in that player's own view, because to everybody else it went face down into a
hand. The pile is face up, so the cards on it are public.
"""

from __future__ import annotations

from typing import Any

from rules.engine.cards import Card
from rules.engine.puskiyon.deal import deal
from rules.engine.puskiyon.reading import declined
from rules.engine.puskiyon.scoring import MATCHES, SORT_KEY, hand_points, sort_hand, what_follows
from rules.engine.puskiyon.spec import KEY
from rules.engine.puskiyon.state import DREW, DREW_PASSED, DREW_PLAYED, PASSED, PLAYED, State
from rules.engine.puskiyon.turns import legal_moves, result
from rules.engine.text import Said, said, then
from rules.engine.text import seat as seat_said

RECENT = 5  # how many of the pile's top cards a view lists


def _who(seat: int, viewer: int | None) -> Said:
    return said("You") if seat == viewer else seat_said(seat, capital=True)


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def phase(state: State) -> str:
    if state.turn is None:
        return "over"
    return "drawn" if state.drawn is not None else "play"


def _sentence(kind: str, mine: bool, who: Said, card: str) -> Said | None:
    """One move in words, told as the mover's own (`mine`: "You drew 7H") or as the others read it."""
    if mine:
        sentences = {PLAYED: said("You played %(card)s.", card=card),
                     DREW_PLAYED: said("You drew and played %(card)s.", card=card),
                     DREW: said("You drew %(card)s.", card=card),
                     DREW_PASSED: said("You drew %(card)s and passed.", card=card),
                     PASSED: said("You passed.")}
    else:
        sentences = {PLAYED: said("%(player)s played %(card)s.", player=who, card=card),
                     DREW_PLAYED: said("%(player)s drew and played %(card)s.", player=who, card=card),
                     DREW: said("%(player)s drew a card.", player=who),
                     DREW_PASSED: said("%(player)s drew a card and passed.", player=who),
                     PASSED: said("%(player)s passed.", player=who)}
    return sentences.get(kind)


# A turn's second step as the move log tells it: the draw was told on the line before, so the line of what came of
# it tells only that ("Bob passed.", not "Bob drew a card and passed." after "Bob drew a card.").
_AFTER_THE_DRAW = {DREW_PASSED: PASSED, DREW_PLAYED: PLAYED}


def _last(state: State, viewer: int | None, *, draw_told: bool = False) -> Said | str:
    """The last step in words: as the board's last line, the whole turn; with `draw_told` (the move log, whose line
    before told the draw), only what the step itself did."""
    seat, kind, card = state.last
    if seat < 0:
        return ""
    if draw_told:
        kind = _AFTER_THE_DRAW.get(kind, kind)
    who = _who(seat, viewer)
    mine = seat == viewer
    sentence = _sentence(kind, mine, who, str(card))
    if sentence is None:
        return ""
    if state.out is not None:
        return then(sentence, said("That was the last card: the hand is over.") if mine else
                    said("%(player)s went out.", player=who))
    if state.turn is None:
        return then(sentence, said("Everyone passed in turn with the stock empty: the hand is blocked."))
    return sentence


def _prompt(state: State, viewer: int | None) -> Said:
    turn = state.turn
    if turn is None:
        if state.out is None:
            return said("The hand is blocked: everyone adds up the cards left in hand.")
        if state.out == viewer:
            return said("You went out: everyone else adds up the cards left in hand.")
        return said("%(player)s went out: everyone else adds up the cards left in hand.",
                    player=seat_said(state.out, capital=True))
    top = state.pile[-1]
    if turn != viewer:
        if state.drawn is not None:
            return said("Waiting for %(player)s to play the drawn card or pass.", player=seat_said(turn))
        return said("Waiting for %(player)s to play.", player=seat_said(turn))
    if state.drawn is not None:
        if state.drawn in MATCHES[top]:
            return said("You drew %(card)s: play it on %(top)s, or pass and keep it.", card=str(state.drawn),
                        top=str(top))
        return said("You drew %(card)s; it does not match %(top)s, so pass.", card=str(state.drawn), top=str(top))
    if state.stock:
        return said("Your turn: play a card on %(top)s (%(follows)s), or draw a card.", top=str(top),
                    follows=what_follows(top))
    return said("Your turn: play a card on %(top)s (%(follows)s), or pass (the stock is empty).", top=str(top),
                follows=what_follows(top))


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
        "pile_seen": _texts(state.pile),  # every card was played face up: a player may remember them all
        "stock_count": len(state.stock),
        "drawn": str(state.drawn) if mine and state.drawn is not None else None,
        "passes": state.passes,
        "steps": state.steps,  # the round's public record, one letter a step (`state.STEP_LETTER`)
        # Per seat, per card held (oldest first): the tops drawn or passed on since (public: everyone saw it).
        "declined": [[_texts(tuple(slot)) for slot in slots] for slots in declined(state)],
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


def bot_view(state: State, seat: int) -> dict[str, Any]:
    """The part of `view` the easy bot reads (its hand), without the sentences, counts and legal list it ignores.

    Search playouts ask for a view at every move and the full view's sentences were four fifths of a
    playout's time; a test checks the bot decides the same from this as from the full view.
    """
    return {"seat": seat, "hand": [str(c) for c in state.hands[seat]]}


def last_event(state: State, viewer: int | None) -> Said | str:
    """What the last move did, as `viewer` (None: a spectator) may read it: the table's move log, line by line
    (a card drawn is named only to the one who drew it). Each step is told once: a draw has its own line, so the
    pass or play that follows it says only that (issue 41)."""
    return _last(state, viewer, draw_told=True)
