"""Dealing, picking, burying and trick play: the Sheepshead engine's moves.

`apply` checks a move directly against the state (seat, phase, card held, suit followed) rather
than building the legal list first: random play calls it tens of thousands of times a second.
"""

from __future__ import annotations

from rules.engine.api import Config, Match
from rules.engine.cards import Card
from rules.engine.errors import ConfigError, IllegalMove
from rules.engine.moves import Move
from rules.engine.rng import shuffled
from rules.engine.sheepshead.deck import (
    DEAL_SIZES,
    DECK,
    JACK_OF_DIAMONDS,
    SUIT,
    SUIT_SAID_WORDS,
    sort_hand,
    winning_index,
)
from rules.engine.sheepshead.spec import PARTNER_JD, SPEC
from rules.engine.sheepshead.state import BURY, OVER, PICK, PLAY, State, Table
from rules.engine.text import said
from rules.engine.text import seat as seat_said

PICK_MOVE = Move("pick")
PASS_MOVE = Move("pass")
PLAY_MOVES: dict[Card, Move] = {c: Move("play", (c,)) for c in DECK}
BURY_MOVES: dict[Card, Move] = {c: Move("bury", (c,)) for c in DECK}
_PICK_OR_PASS: tuple[Move, Move] = (PICK_MOVE, PASS_MOVE)


_SORTED_DECK: tuple[Card, ...] = sort_hand(DECK)
_POSITIONS: tuple[int, ...] = tuple(range(len(DECK)))


def deal(seed: str, players: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The hands (seat 0 first) and the blind dealt from `seed`; the record rebuilds them from it.

    The shuffle permutes positions in the display order, so sorting a hand is sorting small ints.
    """
    size, _blind = DEAL_SIZES[players]
    order = shuffled(seed, _POSITIONS, "deal")
    cards = _SORTED_DECK.__getitem__
    hands = tuple(
        tuple(map(cards, sorted(order[seat * size : (seat + 1) * size]))) for seat in range(players)
    )
    return hands, tuple(map(cards, sorted(order[players * size :])))


def new_round(config: Config, seed: str, match: Match | None = None) -> State:
    if config.game != SPEC.key:
        raise ConfigError(f"a {config.game} configuration cannot deal Sheepshead")
    players = config.players
    if players not in DEAL_SIZES:
        raise ConfigError(f"Sheepshead is played by 3 to 7 players, not {players}")
    dealer = players - 1 if match is None else match.dealer % players
    seed = str(seed)
    hands, blind = deal(seed, players)
    first = (dealer + 1) % players
    table = Table(
        players=players,
        dealer=dealer,
        seed=seed,
        jd_partner=config.get("partner") == PARTNER_JD,
        stake=int(config.get("stake_cents")),
        blind=blind,
    )
    return State(table, PICK, first, hands, None, (), None, first, (), ())


def to_act(state: State) -> int | None:
    return state.turn


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat != state.turn:
        return []
    phase = state.phase
    hand = state.hands[seat]
    if phase == PLAY:
        trick = state.trick
        if trick:
            led = SUIT[trick[0]]
            follow = [PLAY_MOVES[c] for c in hand if SUIT[c] == led]
            if follow:
                return follow
        return [PLAY_MOVES[c] for c in hand]
    if phase == PICK:
        return list(_PICK_OR_PASS)
    if phase == BURY:
        return [BURY_MOVES[c] for c in hand]
    return []


def _replace_hand(hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]) -> tuple:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _without(hand: tuple[Card, ...], gone: Card) -> tuple[Card, ...]:
    index = hand.index(gone)
    return hand[:index] + hand[index + 1 :]


def _one_card(move: Move, kind: str, example: str) -> Card:
    if not isinstance(move, Move):
        raise IllegalMove(said("That is not a move."))
    cards = move.cards
    if move.kind != kind or not isinstance(cards, tuple) or len(cards) != 1:
        if kind == "bury":
            raise IllegalMove(said("Bury one card now, like 'bury %(card)s'.", card=example))
        raise IllegalMove(said("Play one card now, like 'play %(card)s'.", card=example))
    return cards[0]


def apply(state: State, seat: int, move: Move) -> State:
    turn = state.turn
    if turn is None:
        raise IllegalMove(said("The hand is over."))
    if seat != turn:
        raise IllegalMove(said("It is not your turn: waiting for %(player)s.", player=seat_said(turn)))
    phase = state.phase
    if phase == PLAY:
        if type(move) is Move and move.kind == "play" and len(move.cards) == 1:  # the usual case, checked fast
            return _play(state, seat, move.cards[0])
        return _play(state, seat, _one_card(move, "play", "QC"))
    if phase == PICK:
        return _pick_or_pass(state, seat, move)
    return _bury(state, seat, _one_card(move, "bury", "7H"))


def _play(state: State, seat: int, played: Card) -> State:
    hand = state.hands[seat]
    try:
        index = hand.index(played)
    except ValueError:
        raise IllegalMove(said("You do not hold %(card)s.", card=str(played))) from None
    trick = state.trick
    if trick:
        led = SUIT[trick[0]]
        if SUIT[played] != led:
            for held in hand:
                if SUIT[held] == led:
                    raise IllegalMove(said("You must follow %(suit)s: you hold %(card)s.", suit=SUIT_SAID_WORDS[led],
                                                card=str(held)))
    rest = hand[:index] + hand[index + 1 :]
    hands = (*state.hands[:seat], rest, *state.hands[seat + 1 :])
    trick = (*trick, played)
    table = state.table
    players = table.players
    if len(trick) < players:
        return State(
            table, PLAY, (seat + 1) % players, hands, state.picker, state.buried, state.partner,
            state.leader, trick, state.tricks,
        )
    leader = state.leader
    winner = (leader + winning_index(trick)) % players
    tricks = (*state.tricks, (leader, winner, trick))
    phase, turn = (PLAY, winner) if rest else (OVER, None)
    return State(table, phase, turn, hands, state.picker, state.buried, state.partner, winner, (), tricks)


def _pick_or_pass(state: State, seat: int, move: Move) -> State:
    table = state.table
    if move == PICK_MOVE:
        hands = _replace_hand(state.hands, seat, sort_hand(state.hands[seat] + table.blind))
        return State(table, BURY, seat, hands, seat, (), None, state.leader, (), ())
    if move != PASS_MOVE:
        raise IllegalMove(said("Pick up the blind or pass."))
    first = (table.dealer + 1) % table.players
    if seat == table.dealer:  # everybody passed: a leaster, led from the dealer's left
        return State(table, PLAY, first, state.hands, None, (), None, first, (), ())
    return State(table, PICK, (seat + 1) % table.players, state.hands, None, (), None, first, (), ())


def _bury(state: State, seat: int, card: Card) -> State:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(said("You do not hold %(card)s.", card=str(card)))
    table = state.table
    hands = _replace_hand(state.hands, seat, _without(hand, card))
    buried = (*state.buried, card)
    if len(buried) < len(table.blind):
        return State(table, BURY, seat, hands, seat, buried, None, state.leader, (), ())
    first = (table.dealer + 1) % table.players
    return State(table, PLAY, first, hands, seat, buried, _find_partner(table, hands, seat), first, (), ())


def _find_partner(table: Table, hands: tuple[tuple[Card, ...], ...], picker: int) -> int | None:
    """Whoever holds the jack of diamonds after the bury; None when the picker holds or buried it."""
    if not table.jd_partner or table.players < 5:
        return None
    for seat, hand in enumerate(hands):
        if JACK_OF_DIAMONDS in hand:
            return None if seat == picker else seat
    return None
