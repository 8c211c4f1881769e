"""A full Sheepshead state that agrees with one seat's view: the search's guess at the hidden cards.

Everything the seat has seen is kept exactly: its hand, every trick (rebuilt from the played cards,
since the first leader and each trick's winner follow from the rules), the trick on the table, its
own bury, the partner where the view names one. The rest is dealt at random with what the view
implies: a player who did not follow a suit holds none of it; a known partner holds the jack of
diamonds (or played it); the blind or the bury is a blind-sized packet of the unseen cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.cards import Card, card
from rules.engine.sampling import Slot, deal_hidden
from rules.engine.sheepshead.deck import DEAL_SIZES, DECK, JACK_OF_DIAMONDS, SUIT, sort_hand, winning_index
from rules.engine.sheepshead.state import BURY, PICK, PLAY, State, Table


def _tricks(view: Mapping[str, Any]) -> tuple[tuple[int, int, tuple[Card, ...]], ...]:
    players = int(view["players"])
    played = [card(t) for t in view["played"]]
    leader = (int(view["dealer"]) + 1) % players
    tricks = []
    for start in range(0, len(played), players):
        cards = tuple(played[start : start + players])
        winner = (leader + winning_index(cards)) % players
        tricks.append((leader, winner, cards))
        leader = winner
    return tuple(tricks)


def _voids(view: Mapping[str, Any], tricks: tuple[tuple[int, int, tuple[Card, ...]], ...]) -> list[set[str]]:
    """The effective suits (trump counts as one) each seat has shown it lacks."""
    players = int(view["players"])
    voids: list[set[str]] = [set() for _ in range(players)]
    sequences = [[((lead + i) % players, c) for i, c in enumerate(cards)] for lead, _w, cards in tricks]
    sequences.append([(int(e["seat"]), card(e["card"])) for e in view["trick"]])
    for seq in sequences:
        if seq:
            led = SUIT[seq[0][1]]
            for seat, c in seq[1:]:
                if SUIT[c] != led:
                    voids[seat].add(led)
    return voids


def _allows(void: set[str], without_jd: bool) -> Any:
    if not void and not without_jd:
        return None
    return lambda c: SUIT[c] not in void and not (without_jd and c == JACK_OF_DIAMONDS)


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    players = int(view["players"])
    me = int(view["seat"])
    phase = str(view["phase"])
    dealer = int(view["dealer"])
    hand_size, blind_size = DEAL_SIZES[players]
    picker = view["picker"]
    tricks = _tricks(view)
    trick = tuple(card(e["card"]) for e in view["trick"])
    hand = tuple(card(t) for t in view["hand"])
    mine_buried = tuple(card(t) for t in view["buried"])
    played = {c for _l, _w, cards in tricks for c in cards} | set(trick)
    pool = [c for c in DECK if c not in played and c not in hand and c not in mine_buried]
    voids = _voids(view, tricks)
    counts = list(view["hand_counts"])

    # Where the jack of diamonds must or must not be, when the view says.
    partner = view["partner"] if view["partner_status"] == "known" else None
    jd_hidden = JACK_OF_DIAMONDS in pool
    forced_jd = jd_hidden and partner is not None and partner != me

    # The hidden places: every other hand, then the blind (pick, leaster) or the picker's bury.
    seats = [s for s in range(players) if s != me]
    slots = [Slot(counts[s], _allows(voids[s], forced_jd)) for s in seats]
    packet = 0
    if phase == PICK or (picker is None and phase != PICK):
        packet = blind_size
    elif picker != me:
        packet = hand_size + blind_size - counts[picker] if phase == BURY else blind_size
    slots.append(Slot(packet, (lambda c: c != JACK_OF_DIAMONDS) if forced_jd else None))
    if forced_jd:
        pool.remove(JACK_OF_DIAMONDS)
        slots[seats.index(partner)] = Slot(counts[partner] - 1, slots[seats.index(partner)].allows)
    dealt = deal_hidden(pool, slots, rng)
    if forced_jd:
        dealt[seats.index(partner)].append(JACK_OF_DIAMONDS)
    hands: list[tuple[Card, ...]] = [()] * players
    hands[me] = hand
    for seat, cards in zip(seats, dealt, strict=False):
        hands[seat] = sort_hand(cards)
    packet_cards = tuple(dealt[-1])

    buried = mine_buried if picker == me else packet_cards if picker is not None else ()
    blind = packet_cards if picker is None else (buried + hand)[:blind_size] if picker == me else buried
    if len(blind) != blind_size:  # the picker is still burying: the blind's exact cards no longer matter
        blind = (blind + tuple(hands[picker]))[:blind_size]
    table = Table(
        players=players, dealer=dealer, seed=f"guess-{rng.random()}", jd_partner=bool(view["partner_rule"]),
        stake=int(view["stake_cents"]), blind=blind,
    )
    turn = view["to_act"]
    first = (dealer + 1) % players
    if phase == PICK:
        return State(table, PICK, turn, tuple(hands), None, (), None, first, (), ())
    if phase == BURY:
        return State(table, BURY, turn, tuple(hands), picker, buried, None, first, (), ())
    return State(
        table, PLAY, turn, tuple(hands), picker, buried, _partner(table, picker, hands, tricks, trick, view),
        int(view["leader"]), trick, tricks,
    )


def _partner(
    table: Table, picker: int | None, hands: list[tuple[Card, ...]], tricks: Any, trick: tuple[Card, ...],
    view: Mapping[str, Any],
) -> int | None:
    """Whoever holds (or played) the jack of diamonds, unless it is the picker or buried."""
    if picker is None or not table.jd_partner or table.players < 5:
        return None
    holder = next((s for s, h in enumerate(hands) if JACK_OF_DIAMONDS in h), None)
    if holder is None:
        for leader, _w, cards in (*tricks, (view["leader"], None, trick)):
            if JACK_OF_DIAMONDS in cards:
                holder = (int(leader) + cards.index(JACK_OF_DIAMONDS)) % table.players
    return None if holder is None or holder == picker else holder
