"""What each seat may see of a Hawsker round, and what a finished round pays.

Before the end a view holds the viewer's own hand and own discards, the played cards (public), the hands
both players carried into the round (public: both were scored face up at the end of the last one) and
counts of everything else; never the rest of the other hand, the other's discards, the stock order or
the seed.
"""

from __future__ import annotations

from typing import Any

from rules.engine.api import RoundResult
from rules.engine.cards import SUIT_ONE
from rules.engine.hawsker import sentences
from rules.engine.hawsker.scoring import KING, score_breakdown
from rules.engine.hawsker.spec import PLAYERS, PLAYS_EACH, SPEC
from rules.engine.hawsker.state import Cards, State
from rules.engine.hawsker.turns import legal_moves, top_card
from rules.engine.text import THEN_MSGID, Said, said, seat_of, then
from rules.engine.text import seat as seat_said


def _texts(cards: Cards) -> list[str]:
    return [str(c) for c in cards]


def _ending_text(state: State) -> Said:
    if state.ending == "steal":
        return said("%(player)s emptied the hand and stole %(other)s's hand.",
                    player=seat_said(state.ender, capital=True), other=seat_said(1 - state.ender))  # type: ignore[arg-type,operator]
    if state.ending == "stuck":
        return said("%(player)s could not play and scored nothing.", player=seat_said(state.ender, capital=True))  # type: ignore[arg-type]
    return said("Both players made five plays.")


def _summary(state: State) -> dict[str, Any]:
    after = [t + s for t, s in zip(state.totals, state.scores, strict=True)]
    return {
        "ending": state.ending,
        "ender": state.ender,
        "scores": list(state.scores),
        "scored": [_texts(h) for h in state.scored],
        "breakdowns": [score_breakdown(h) for h in state.scored],
        "totals_before": list(state.totals),
        "totals": after,
        "text": said(
            "%(ending)s %(first)s scores %(first_score)s, %(second)s scores %(second_score)s; "
            "the match stands at %(first_total)s to %(second_total)s.", ending=_ending_text(state),
            first=seat_said(0, capital=True), first_score=state.scores[0], second=seat_said(1),
            second_score=state.scores[1], first_total=after[0], second_total=after[1]),
    }


def result(state: State) -> RoundResult:
    if state.phase != "over":
        raise ValueError("The round is not over yet.")
    return RoundResult(deltas=state.scores, unit=SPEC.unit, summary=_summary(state))


def _prompt(state: State, seat: int | None) -> Said:
    turn = state.turn
    if turn is None:
        return said("The round is over: %(first)s scores %(first_score)s, %(second)s scores %(second_score)s.",
                    first=seat_said(0), first_score=state.scores[0], second=seat_said(1),
                    second_score=state.scores[1])
    if seat != turn:
        if state.phase == "play":
            return said("Waiting for %(player)s to play.", player=seat_said(turn))
        return said("Waiting for %(player)s to discard.", player=seat_said(turn))
    if state.phase == "discard":
        left = state.pending.count(seat)
        return said("Discard a card face down (%(count)s to go).", count=left)
    if state.phase == "final":
        if state.ending == "steal":
            return said("%(player)s stole: discard one card; %(same)s scores the rest of your hand.",
                        player=seat_said(state.ender, capital=True), same=seat_said(state.ender))  # type: ignore[arg-type]
        return said("Pegging is over: discard one more card; the rest of your hand is scored.")
    top = top_card(state)
    if top is None:
        return said("Lead any one card.")
    if top.rank == KING:
        return said("Play on the %(top)s: one %(suit)s, any king, or two or more cards adding to 13.",
                    top=str(top), suit=SUIT_ONE[top.suit])
    return said("Play on the %(top)s: one %(suit)s, any king, or cards making 13 with it.",
                top=str(top), suit=SUIT_ONE[top.suit])


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    mine = seat is not None and 0 <= seat < PLAYERS
    top = top_card(state)
    data: dict[str, Any] = {
        "game": SPEC.key,
        "players": PLAYERS,
        "seat": seat,
        "dealer": state.dealer,
        "to_act": state.turn,
        "phase": state.phase,
        "hand": _texts(state.hands[seat]) if mine else [],  # type: ignore[index]
        "hand_counts": [len(h) for h in state.hands],
        "legal": [str(m) for m in legal_moves(state, seat)] if mine else [],  # type: ignore[arg-type]
        "prompt": _prompt(state, seat),
        "last": last_event(state, seat),
        "over": over,
        "result": _summary(state) if over else None,
        "round": state.number,
        "target": state.target,
        "totals": list(state.totals),
        "round_scores": list(state.scores) if over else None,
        "leader": state.leader,
        "cut": state.cut,
        "top": None if top is None else str(top),
        "pile": _texts(state.table),
        "plays": [{"seat": s, "cards": _texts(cards)} for s, cards in state.history],
        "plays_made": list(state.plays),
        "plays_each": PLAYS_EACH,
        "stock": len(state.stock),
        "waste": len(state.waste),
        "discards": _texts(state.discards[seat]) if mine else [],  # type: ignore[index]
        "discard_counts": [len(h) for h in state.discards],
        "kept": [_texts(h) for h in state.kept],
        "ending": state.ending,
        "ender": state.ender,
    }
    if over:
        data["record"] = {
            "seed": state.seed,
            "dealt": [_texts(h) for h in state.dealt],
            "discards": [_texts(h) for h in state.discards],
            "scored": [_texts(h) for h in state.scored],
            "breakdowns": [score_breakdown(h) for h in state.scored],
            "hands": [_texts(h) for h in state.hands],
        }
    return data


def bot_view(state: State, seat: int) -> dict[str, Any]:
    """The part of `view` the easy bot reads, without the sentences, counts and record it ignores.

    Search playouts ask for a view at every move; a test checks the bot decides the same from this as
    from the full view.
    """
    return {
        "seat": seat,
        "phase": state.phase,
        "hand": _texts(state.hands[seat]),
        "plays": [{"seat": s, "cards": _texts(cards)} for s, cards in state.history],
        "plays_made": list(state.plays),
        "discards": _texts(state.discards[seat]),
        "ending": state.ending,
        "ender": state.ender,
    }


def last_event(state: State, viewer: int | None) -> Said | str:
    """What the last move did, as `viewer` (None: a spectator) may read it: the table's move log, line by line.

    The engine keeps one public account of a move (`State.last`, which a spectator and the other player read);
    the player it speaks of reads it as their own ("You played 4C"), as in the other games, and only the one who
    discarded reads which card went face down."""
    if viewer is None or not 0 <= viewer < PLAYERS:
        return state.last
    return _told_to(state.last, viewer, state)


def _told_to(text: Said | str, viewer: int, state: State) -> Said | str:
    """`text` with each sentence about `viewer` told to them: a sentence of `then` is told part by part."""
    if not isinstance(text, Said):
        return text
    if text.msgid == THEN_MSGID:
        return then(_told_to(text.params["before"], viewer, state), _told_to(text.params["then"], viewer, state))
    if seat_of(text.params.get("player")) == viewer:
        if text.msgid == sentences.DISCARDED:
            return sentences.you_discarded(state.discards[viewer][-1])
        own = sentences.TOLD_TO_THE_PLAYER.get(text.msgid)
        return text if own is None else Said(own, text.params)
    if text.msgid == sentences.STOLE and seat_of(text.params.get("other")) == viewer:
        return sentences.stole_yours(text)
    return text
