"""Dealing the cards a seat cannot see, consistently with what it has seen.

A determinized search needs many guesses at the hidden hands; each guess must agree with the seat's
view (how many cards each place holds, the suits a player has shown it lacks). The cards are shuffled
and the places filled most constrained first, which is cheap and almost always succeeds; when it does
not, a slower exact matching finds an assignment if one exists.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.engine.cards import Card

Facts = TypeVar("Facts")


@dataclass(frozen=True, slots=True)
class Slot:
    """A place hidden cards go (a hand, the blind, the stock): how many, and which cards may go there."""

    size: int
    allows: Callable[[Card], bool] | None = None  # None: any card

    def takes(self, c: Card) -> bool:
        return self.allows is None or self.allows(c)


def deal_hidden(pool: Sequence[Card], slots: Sequence[Slot], rng: random.Random) -> list[list[Card]]:
    """The pool dealt into the slots (sizes must add up to the pool), each slot only getting cards it allows.

    Raises ValueError when the sizes do not add up, or when no assignment satisfies the slots (a view
    that contradicts itself, which the engine never produces).
    """
    if sum(s.size for s in slots) != len(pool):
        raise ValueError(f"{len(pool)} hidden cards cannot fill places for {sum(s.size for s in slots)}")
    cards = list(pool)
    for _attempt in range(8):
        rng.shuffle(cards)
        dealt = _greedy(cards, slots)
        if dealt is not None:
            return dealt
    dealt = _matching(cards, slots)
    if dealt is None:
        raise ValueError("no deal of the hidden cards agrees with the view")
    return dealt


def _greedy(cards: list[Card], slots: Sequence[Slot]) -> list[list[Card]] | None:
    freedom = [sum(1 for c in cards if s.takes(c)) - s.size for s in slots]
    order = sorted(range(len(slots)), key=lambda i: (slots[i].allows is None, freedom[i]))
    dealt: list[list[Card]] = [[] for _ in slots]
    left = cards
    for index in order:
        slot = slots[index]
        taken: list[Card] = []
        rest: list[Card] = []
        for c in left:
            if len(taken) < slot.size and slot.takes(c):
                taken.append(c)
            else:
                rest.append(c)
        if len(taken) < slot.size:
            return None
        dealt[index] = taken
        left = rest
    return dealt


def _matching(cards: list[Card], slots: Sequence[Slot]) -> list[list[Card]] | None:
    """Exact bipartite matching of cards to slot places (Kuhn's augmenting paths)."""
    places = [i for i, s in enumerate(slots) for _ in range(s.size)]
    holder: list[int | None] = [None] * len(places)  # place -> card index

    def augment(ci: int, seen: set[int]) -> bool:
        for p, slot_index in enumerate(places):
            if p in seen or not slots[slot_index].takes(cards[ci]):
                continue
            seen.add(p)
            if holder[p] is None or augment(holder[p], seen):  # type: ignore[arg-type]
                holder[p] = ci
                return True
        return False

    for ci in range(len(cards)):
        if not augment(ci, set()):
            return None
    dealt: list[list[Card]] = [[] for _ in slots]
    for p, ci in enumerate(holder):
        dealt[places[p]].append(cards[ci])  # type: ignore[index]
    return dealt


class OncePerView(Generic[Facts]):
    """`read(view)` kept for the view last asked: a search guesses hundreds of times in a row from one view
    object and never changes it, so what every guess shares is read once a decision instead of once a guess.

    The view is held with its facts and compared by identity, never by equality: a held object's address
    cannot be another view's, and an equal copy is read afresh. One (view, facts) pair is read and written as
    a whole, so threads asking for different views only cost each other a read.
    """

    def __init__(self, read: Callable[[Mapping[str, Any]], Facts]) -> None:
        self._read = read
        self._last: tuple[Mapping[str, Any], Facts] | None = None

    def __call__(self, view: Mapping[str, Any]) -> Facts:
        last = self._last
        if last is not None and last[0] is view:
            return last[1]
        facts = self._read(view)
        self._last = (view, facts)
        return facts

    def forget(self) -> None:
        self._last = None
