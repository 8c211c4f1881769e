"""What one seat (or a spectator) may see of a Hawk round, as JSON-able data.

Played tricks are public in Hawk: everyone watched them fall, so the history of finished tricks,
each seat's tricks and pips, and who took the first trick (and so is LAFH already) are shown to
all. Other hands, the out-of-play cards and the seed appear only in the end-of-round record.
"""

from __future__ import annotations

from typing import Any

from rules.engine.cards import SUIT_ONE, SUIT_SAID
from rules.engine.hawk.deck import PIPS
from rules.engine.hawk.play import led_and_trump, legal_moves, result
from rules.engine.hawk.spec import SPEC
from rules.engine.hawk.state import State
from rules.engine.text import Said, said
from rules.engine.text import seat as seat_said


def _seat_cards(leader: int, cards: tuple, players: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % players, "card": str(c)} for i, c in enumerate(cards)]


def _played(seat: int, viewer: int | None, card: object) -> Said:
    if seat == viewer:
        return said("You played %(card)s.", card=str(card))
    return said("%(player)s played %(card)s.", player=seat_said(seat, capital=True), card=str(card))


def _last(state: State, viewer: int | None) -> Said | str:
    players = state.players
    if state.table:
        seat = (state.leader + len(state.table) - 1) % players
        return _played(seat, viewer, state.table[-1])
    if state.tricks:
        trick = state.tricks[-1]
        pips = sum(PIPS[c] for c in trick.cards)
        card = str(trick.cards[(trick.winner - trick.leader) % players])
        if trick.winner == viewer:
            return said("You take trick %(number)s with %(card)s (%(pips)s pips).",
                        number=len(state.tricks), card=card, pips=pips)
        return said("%(player)s takes trick %(number)s with %(card)s (%(pips)s pips).",
                    player=seat_said(trick.winner, capital=True), number=len(state.tricks), card=card, pips=pips)
    return ""


def _prompt(state: State, viewer: int | None) -> Said:
    turn = state.turn
    if turn is None:
        return said("The round is over.")
    if turn != viewer:
        return said("Waiting for %(player)s to play.", player=seat_said(turn))
    led, trump = led_and_trump(state.table)
    if led is None:
        return said("Your lead: play any card.")
    if any(c[1] == led for c in state.hands[viewer]):
        return said("Your turn: follow suit with a %(suit)s.", suit=SUIT_ONE[led])
    return said("Your turn: you have no %(led)s, so play any card (%(trump)s would trump).",
                led=SUIT_SAID[led], trump=SUIT_SAID[trump])


def view(state: State, seat: int | None) -> dict[str, Any]:
    players = state.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
        raise ValueError(f"no seat {seat!r} at this {players}-player table")
    over = state.turn is None
    in_round = len(state.dealt[0])
    led, trump = led_and_trump(state.table)
    tricks_won = [0] * players
    pips_won = [0] * players
    history = []
    for number, trick in enumerate(state.tricks, start=1):
        pips = sum(PIPS[c] for c in trick.cards)
        tricks_won[trick.winner] += 1
        pips_won[trick.winner] += pips
        history.append(
            {
                "number": number,
                "leader": trick.leader,
                "winner": trick.winner,
                "cards": _seat_cards(trick.leader, trick.cards, players),
                "pips": pips,
            }
        )
    data: dict[str, Any] = {
        "game": SPEC.key,
        "players": players,
        "seat": seat,
        "dealer": state.dealer,
        "to_act": state.turn,
        "phase": "over" if over else "play",
        "hand": [] if seat is None else [str(c) for c in state.hands[seat]],
        "hand_counts": [len(h) for h in state.hands],
        "legal": [] if seat is None else [str(m) for m in legal_moves(state, seat)],
        "prompt": _prompt(state, seat),
        "last": _last(state, seat),
        "over": over,
        "result": dict(result(state).summary) if over else None,
        "leader": state.leader,
        "trick": _seat_cards(state.leader, state.table, players),
        "led_suit": led,
        "trump_suit": trump,
        "trick_number": min(len(state.tricks) + 1, in_round),
        "tricks_in_round": in_round,
        "tricks_won": tricks_won,
        "pips_won": pips_won,
        "first_trick_taker": state.tricks[0].winner if state.tricks else None,
        "history": history,
        "out_of_play": len(state.out),
        "bonus_per_trick": bool(state.config.get("bonus_per_trick")),
    }
    if over:
        data["record"] = {
            "seed": state.seed,
            "dealer": state.dealer,
            "dealt": [[str(c) for c in hand] for hand in state.dealt],
            "out_of_play": [str(c) for c in state.out],
            "tricks": history,
        }
    return data


def last_event(state: State, viewer: int | None) -> Said | str:
    """What the last move did, as `viewer` (None: a spectator) may read it: the table's move log, line by line.
    A move that closed a trick says who played its last card, then who took it."""
    if not state.table and state.tricks:
        trick = state.tricks[-1]
        seat = (trick.leader + len(trick.cards) - 1) % state.players
        return said("%(played)s %(took)s", played=_played(seat, viewer, trick.cards[-1]), took=_last(state, viewer))
    return _last(state, viewer)


def tricks_done(state: State) -> int:
    """Tricks finished so far: a move that raises it closed a trick (the table pauses on it a moment)."""
    return len(state.tricks)
