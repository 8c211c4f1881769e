"""What one seat (or a spectator) may see of a Sheepshead hand, and the record shown at the end.

The partnership is the game's secret: until the jack of diamonds is played only the partner's own
view names the partner, and only the picker's own view shows the bury (and so whether the picker
buried the jack and plays alone). Before the end no view carries another hand, the blind or the seed.
"""

from __future__ import annotations

from typing import Any

from rules.engine.cards import Card
from rules.engine.sheepshead.deck import DEAL_SIZES, JACK_OF_DIAMONDS, SUIT, SUIT_SAID_WORDS, SUIT_WORDS, points_of
from rules.engine.sheepshead.play import deal, legal_moves
from rules.engine.sheepshead.results import jd_played, result, tricks_taken
from rules.engine.sheepshead.spec import SPEC
from rules.engine.sheepshead.state import BURY, OVER, PICK, PLAY, State
from rules.engine.text import Said, said
from rules.engine.text import seat as seat_said

UNKNOWN = "unknown"
KNOWN = "known"
ALONE = "alone"


def _who(seat: int, viewer: int | None) -> Said:
    return said("You") if seat == viewer else seat_said(seat, capital=True)


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _trick_cards(leader: int, cards: tuple[Card, ...], players: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % players, "card": str(c)} for i, c in enumerate(cards)]


def partner_can_exist(state: State) -> bool:
    return state.table.jd_partner and state.table.players >= 5


def partner_knowledge(state: State, viewer: int | None) -> tuple[str | None, int | None]:
    """(status, partner seat) as this viewer knows them: status None before the bury is done or in
    a leaster, else 'alone', 'known' or 'unknown'."""
    if state.picker is None or state.phase in (PICK, BURY):
        return None, None
    if not partner_can_exist(state):
        return ALONE, None
    revealed = state.phase == OVER or jd_played(state)
    if state.partner is None:
        return (ALONE, None) if revealed or viewer == state.picker else (UNKNOWN, None)
    if revealed or viewer == state.partner:
        return KNOWN, state.partner
    return UNKNOWN, None


def _reveal(state: State, seat: int, viewer: int | None) -> Said | str:
    """The sentence that goes with the jack of diamonds reaching the table."""
    if not partner_can_exist(state) or state.picker is None:
        return ""
    if seat == state.picker:
        return said("The picker holds the jack of diamonds and plays alone.")
    if seat == viewer:
        return said("You are the picker's partner.")
    return said("%(player)s is the picker's partner.", player=seat_said(seat, capital=True))


def _and_reveal(text: Said, reveal: Said | str) -> Said:
    return said("%(text)s %(reveal)s", text=text, reveal=reveal) if reveal else text


def _last(state: State, viewer: int | None) -> Said | str:
    players = state.players
    first = (state.dealer + 1) % players
    if state.phase == PICK:
        if state.turn == first:
            if state.dealer == viewer:
                return said("You dealt; %(count)s cards are in the blind.", count=len(state.blind))
            return said("%(player)s dealt; %(count)s cards are in the blind.",
                        player=seat_said(state.dealer, capital=True), count=len(state.blind))
        passer = (state.turn - 1) % players
        if passer == viewer:
            return said("You passed.")
        return said("%(player)s passed.", player=seat_said(passer, capital=True))
    if state.phase == BURY:
        picker = state.picker
        if not state.buried:
            if picker == viewer:
                return said("You picked up the blind.")
            return said("%(player)s picked up the blind.", player=seat_said(picker, capital=True))
        if viewer == picker:
            return said("You buried %(card)s.", card=str(state.buried[-1]))
        return said("%(player)s buried a card.", player=seat_said(picker, capital=True))
    if state.trick:
        seat = (state.leader + len(state.trick) - 1) % players
        played = state.trick[-1]
        if seat == viewer:
            text = said("You played %(card)s.", card=str(played))
        else:
            text = said("%(player)s played %(card)s.", player=seat_said(seat, capital=True), card=str(played))
        return _and_reveal(text, _reveal(state, seat, viewer) if played == JACK_OF_DIAMONDS else "")
    if state.tricks:
        leader, winner, cards = state.tricks[-1]
        seat = (leader + len(cards) - 1) % players
        facts = {"card": str(cards[-1]), "points": points_of(cards)}
        if seat == viewer:
            played = said("You played %(card)s;", card=facts["card"])
        else:
            played = said("%(player)s played %(card)s;", player=seat_said(seat, capital=True), card=facts["card"])
        if winner == viewer:
            took = said("you took the trick (%(points)s points).", points=facts["points"])
        else:
            took = said("%(player)s took the trick (%(points)s points).", player=seat_said(winner),
                        points=facts["points"])
        text = said("%(played)s %(took)s", played=played, took=took)
        # The partner is told once, as the jack of diamonds is played: when it closed the trick, here; when it was
        # played earlier in the trick, that line told it already (issue 41).
        return _and_reveal(text, _reveal(state, seat, viewer) if cards[-1] == JACK_OF_DIAMONDS else "")
    if state.picker is None:
        return said("Everybody passed: a leaster. The blind goes to whoever takes the last trick.")
    leads = _leads(state, viewer)
    if viewer == state.picker:
        return said("You buried %(cards)s; %(leads)s.", cards=" ".join(_texts(state.buried)), leads=leads)
    return said("%(player)s buried %(count)s cards; %(leads)s.", player=seat_said(state.picker, capital=True),
                count=len(state.buried), leads=leads)


def _leads(state: State, viewer: int | None) -> Said:
    """Who leads the first trick (seat 0, left of the dealer), said to `viewer`."""
    first = (state.dealer + 1) % state.players
    return said("you lead") if first == viewer else said("%(player)s leads", player=seat_said(first))


def _prompt(state: State, viewer: int | None, hand: tuple[Card, ...], summary: dict[str, Any] | None) -> Said:
    turn = state.turn
    if summary is not None:
        return summary["text"]
    mine = turn == viewer
    if state.phase == PICK:
        if not mine:
            return said("Waiting for %(player)s to pick or pass.", player=seat_said(turn))
        if turn == state.dealer:
            return said("Pick up the blind (%(count)s cards) or pass; if you pass too, a leaster is played.",
                        count=len(state.blind))
        return said("Pick up the blind (%(count)s cards) or pass.", count=len(state.blind))
    if state.phase == BURY:
        left = len(state.blind) - len(state.buried)
        if not mine:
            if left == 1:
                return said("Waiting for %(player)s to bury 1 more card.", player=seat_said(turn))
            return said("Waiting for %(player)s to bury %(count)s more cards.", player=seat_said(turn), count=left)
        if left == 1:
            return said("Bury 1 more card, one at a time.")
        return said("Bury %(count)s more cards, one at a time.", count=left)
    if not mine:
        if state.trick:
            return said("Waiting for %(player)s to play.", player=seat_said(turn))
        return said("Waiting for %(player)s to lead.", player=seat_said(turn))
    if not state.trick:
        return said("Your lead: play any card.")
    led = SUIT[state.trick[0]]
    if any(SUIT[c] == led for c in hand):
        return said("Follow %(suit)s.", suit=SUIT_SAID_WORDS[led])
    return said("You cannot follow %(suit)s: play any card.", suit=SUIT_SAID_WORDS[led])


def record_moves(state: State) -> list[list[Any]]:
    """The moves of the hand as (seat, text) pairs, rebuilt from the state, ready for replay."""
    players = state.players
    first = (state.dealer + 1) % players
    moves: list[list[Any]] = []
    if state.phase == PICK:
        passes = (state.turn - first) % players
    elif state.picker is None:
        passes = players
    else:
        passes = (state.picker - first) % players
    moves.extend([(first + i) % players, "pass"] for i in range(passes))
    if state.picker is not None:
        moves.append([state.picker, "pick"])
        moves.extend([state.picker, f"bury {c}"] for c in state.buried)
    for leader, _winner, cards in state.tricks:
        moves.extend([(leader + i) % players, f"play {c}"] for i, c in enumerate(cards))
    moves.extend([(state.leader + i) % players, f"play {c}"] for i, c in enumerate(state.trick))
    return moves


def record(state: State, summary: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything about a finished hand: the deal, the bury, every trick, the seed and the money."""
    if state.phase != OVER:
        raise ValueError("the record is shown only when the hand is over")
    if summary is None:
        summary = dict(result(state).summary)
    hands, blind = deal(state.seed, state.players)
    return {
        "seed": state.seed,
        "dealer": state.dealer,
        "hands": [_texts(h) for h in hands],
        "blind": _texts(blind),
        "picker": state.picker,
        "partner": state.partner,
        "bury": _texts(state.buried),
        "tricks": [
            {
                "number": number,
                "leader": leader,
                "winner": winner,
                "points": points_of(cards),
                "cards": _trick_cards(leader, cards, state.players),
            }
            for number, (leader, winner, cards) in enumerate(state.tricks, start=1)
        ],
        "moves": record_moves(state),
        "result": dict(summary),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    players = state.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
        raise ValueError(f"no seat {seat!r} at a table of {players}")
    over = state.phase == OVER
    hand = state.hands[seat] if seat is not None else ()
    status, partner = partner_knowledge(state, seat)
    summary = dict(result(state).summary) if over else None
    last_trick = None
    if state.tricks:
        leader, winner, cards = state.tricks[-1]
        last_trick = {
            "leader": leader,
            "winner": winner,
            "points": points_of(cards),
            "cards": _trick_cards(leader, cards, players),
        }
    in_play = state.phase == PLAY
    data: dict[str, Any] = {
        "game": SPEC.key,
        "players": players,
        "seat": seat,
        "dealer": state.dealer,
        "to_act": state.turn,
        "phase": state.phase,
        "hand": _texts(hand),
        "hand_counts": [len(h) for h in state.hands],
        "legal": [str(m) for m in legal_moves(state, seat)] if seat is not None else [],
        "prompt": _prompt(state, seat, hand, summary),
        "last": _last(state, seat),
        "over": over,
        "result": summary,
        "stake_cents": state.table.stake,
        "blind_size": len(state.blind),
        "hand_size": DEAL_SIZES[players][0],
        "picker": state.picker,
        "leaster": state.picker is None and state.phase in (PLAY, OVER),
        "partner_rule": partner_can_exist(state),
        "partner_status": status,
        "partner": partner,
        "you_are_partner": seat is not None and partner == seat and state.partner == seat,
        "buried": _texts(state.buried) if seat is not None and seat == state.picker else [],
        "leader": state.leader if in_play else None,
        "led": SUIT_WORDS[SUIT[state.trick[0]]] if state.trick else None,
        "trick": _trick_cards(state.leader, state.trick, players),
        "trick_number": len(state.tricks) + 1 if in_play else None,
        "last_trick": last_trick,
        "played": [str(c) for _l, _w, cards in state.tricks for c in cards],
        "tricks_taken": tricks_taken(state),
    }
    if over:
        data["record"] = record(state, summary)
    return data


def last_event(state: State, viewer: int | None) -> Said | str:
    """What the last move did, as `viewer` (None: a spectator) may read it: the table's move log, line by line.

    Each move is told once: the board's last line sums the bury up once it is done ("Bot 4 buried 2 cards"), but
    in the log each card buried before the last has had its line, so the last one's line tells that card only."""
    if _bury_just_done(state):
        leads = _leads(state, viewer)
        if viewer == state.picker:
            return said("You buried %(card)s; %(leads)s.", card=str(state.buried[-1]), leads=leads)
        return said("%(player)s buried a card; %(leads)s.", player=seat_said(state.picker, capital=True),
                    leads=leads)
    return _last(state, viewer)


def _bury_just_done(state: State) -> bool:
    """The last move buried the last card of the bury: play starts and nobody has played yet."""
    return state.phase == PLAY and state.picker is not None and not state.trick and not state.tricks


def tricks_done(state: State) -> int:
    """Tricks finished so far: a move that raises it closed a trick (the table pauses on it a moment)."""
    return len(state.tricks)


def bot_view(state: State, seat: int) -> dict[str, Any]:
    """The part of `view` the easy bot reads, built without the sentences and lists it ignores.

    Search playouts ask for a view at every move, so this is the cheap way to let the bot play
    guessed states: its cards are the cards themselves, not their text (the bot reads either); a test checks
    the bot decides the same from it as from the full view.
    """
    status, partner = partner_knowledge(state, seat)
    players = state.players
    leader = state.leader
    return {
        "players": players,
        "seat": seat,
        "dealer": state.dealer,
        "phase": state.phase,
        "hand": state.hands[seat],
        "picker": state.picker,
        "leaster": state.picker is None and state.phase in (PLAY, OVER),
        "partner_rule": partner_can_exist(state),
        "partner_status": status,
        "partner": partner,
        "buried": state.buried if seat == state.picker else (),
        "trick": [{"seat": (leader + i) % players, "card": c} for i, c in enumerate(state.trick)],
        "played": [c for _l, _w, cards in state.tricks for c in cards],
        "tricks_taken": tricks_taken(state),
    }
