"""Dealing and playing a Hawk round: whose turn, what is legal, what a card does.

This is the random-play hot path (the bench asks for thousands of rounds a second), so the
legality check in `apply` is the same few comparisons `legal_moves` makes, and new states are
built directly rather than through `dataclasses.replace`.
"""

from __future__ import annotations

from functools import cache

from rules.engine.api import Config, Match, RoundResult
from rules.engine.cards import SUIT_ONE, Card
from rules.engine.errors import ConfigError, IllegalMove
from rules.engine.hawk.deck import DEAL_PACKETS, DECK, TRUMPED_BY, winning_index
from rules.engine.hawk.scoring import BONUS_KINDS, tally_tricks
from rules.engine.hawk.spec import SPEC
from rules.engine.hawk.state import Deal, State, Trick
from rules.engine.moves import Move
from rules.engine.rng import shuffled
from rules.engine.text import Said, joined, said
from rules.engine.text import seat as seat_said

PLAY: dict[Card, Move] = {c: Move("play", (c,)) for c in DECK}

_POSITIONS: tuple[int, ...] = tuple(range(len(DECK)))
"""The deck is shuffled as positions; DECK order is also hand order (suit, then strength)."""


@cache
def _deal_plan(players: int, dealer: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the places in the shuffled deck its cards come from, packet by packet."""
    spots: list[list[int]] = [[] for _ in range(players)]
    position = 0
    for packet in DEAL_PACKETS[players]:
        for offset in range(1, players + 1):
            spots[(dealer + offset) % players].extend(range(position, position + packet))
            position += packet
    return tuple(tuple(s) for s in spots)


def new_round(config: Config, seed: str, match: Match | None = None) -> State:
    """Shuffle from the seed and deal in the original packets from the dealer's left."""
    if config.game != SPEC.key:
        raise ConfigError(f"this is a {config.game} configuration, not a Hawk one")
    players = config.players
    dealer = players - 1 if match is None else match.dealer
    if not 0 <= dealer < players:
        raise ConfigError(f"seat {dealer} cannot deal at a {players}-player table")
    order = shuffled(str(seed), _POSITIONS, "deal")
    dealt = tuple(tuple(DECK[i] for i in sorted(order[p] for p in spots)) for spots in _deal_plan(players, dealer))
    out = tuple(DECK[i] for i in sorted(order[players * len(dealt[0]) :]))
    leader = (dealer + 1) % players
    return State(
        deal=Deal(config=config, seed=str(seed), dealer=dealer, dealt=dealt, out=out),
        hands=dealt,
        leader=leader,
        table=(),
        tricks=(),
        turn=leader,
    )


def to_act(state: State) -> int | None:
    return state.turn


def legal_moves(state: State, seat: int) -> list[Move]:
    """Follow suit if you can; otherwise any card (trumping is allowed, never required)."""
    if seat != state.turn:
        return []
    hand = state.hands[seat]
    if state.table:
        led = state.table[0][1]
        follow = [PLAY[c] for c in hand if c[1] == led]
        if follow:
            return follow
    return [PLAY[c] for c in hand]


def apply(state: State, seat: int, move: Move) -> State:
    turn = state.turn
    if turn is None:
        raise IllegalMove(said("The round is over."))
    if seat != turn:
        raise IllegalMove(said("It is %(turn)s's turn, not %(seat)s's.", turn=seat_said(turn), seat=seat_said(seat)))
    if not isinstance(move, Move) or move.kind != "play" or len(move.cards) != 1:
        raise IllegalMove(said("In Hawk you play one card at a time, like 'play 7H'."))
    played = move.cards[0]
    hand = state.hands[seat]
    try:
        index = hand.index(played)
    except ValueError:
        raise IllegalMove(said("You do not hold %(card)s.", card=str(played))) from None
    table = state.table
    if table:
        led = table[0][1]
        if played[1] != led:
            for held in hand:
                if held[1] == led:
                    raise IllegalMove(said("You must follow suit: play a %(suit)s.", suit=SUIT_ONE[led]))
    left = hand[:index] + hand[index + 1 :]
    hands = (*state.hands[:seat], left, *state.hands[seat + 1 :])
    table = (*table, played)
    players = len(hands)
    if len(table) < players:
        return State(state.deal, hands, state.leader, table, state.tricks, (seat + 1) % players)
    winner = (state.leader + winning_index(table)) % players
    tricks = (*state.tricks, Trick(state.leader, winner, table))
    return State(state.deal, hands, winner, (), tricks, winner if left else None)


def _seats_text(seats: tuple[int, ...]) -> Said | str:
    return joined(seat_said(s) for s in seats)


def result(state: State) -> RoundResult:
    if state.turn is not None:
        raise ValueError("the round is not over yet")
    per_trick = bool(state.config.get("bonus_per_trick"))
    score, events, pips_won = tally_tricks(state.players, [(t.winner, t.cards) for t in state.tricks], per_trick)
    tricks_won = [0] * state.players
    for trick in state.tricks:
        tricks_won[trick.winner] += 1
    facts = {"seats": _seats_text(score.lafh), "pips": score.lafh_pips, "nob_pips": score.nob_pips, "k": score.k,
             "points": f"{score.points:+d}"}
    each = len(score.lafh) != 1
    if score.solo:
        headline = (said("LAFH solo (%(seats)s) won with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points.",
                         **facts) if score.won else
                    said("LAFH solo (%(seats)s) lost with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points.",
                         **facts))
    elif score.won:
        headline = (said("LAFH (%(seats)s) won with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points each.",
                         **facts) if each else
                    said("LAFH (%(seats)s) won with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points.",
                         **facts))
    else:
        headline = (said("LAFH (%(seats)s) lost with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points each.",
                         **facts) if each else
                    said("LAFH (%(seats)s) lost with %(pips)s pips to %(nob_pips)s: k %(k)s, %(points)s points.",
                         **facts))
    for event in events:
        event["label"] = BONUS_KINDS[event["kind"]]
    summary = score.as_dict()
    summary.update(
        first_trick_taker=state.tricks[0].winner,
        last_trick_taker=state.tricks[-1].winner,
        bonus_per_trick=per_trick,
        bonuses=events,
        pips_won=pips_won,
        tricks_won=tricks_won,
        headline=headline,
    )
    return RoundResult(deltas=score.deltas, unit=SPEC.unit, summary=summary)


def led_and_trump(table: tuple[Card, ...]) -> tuple[str | None, str | None]:
    if not table:
        return None, None
    led = table[0][1]
    return led, TRUMPED_BY[led]
