"""The shared pieces of the search's guesses: dealing hidden cards into constrained places, and reading a view
once for all the guesses of a decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.engine.cards import FULL_DECK, Card
from rules.engine.sampling import OncePerView, Slot, deal_hidden


def test_a_view_is_read_once_while_it_is_the_one_asked_and_an_equal_copy_is_read_again() -> None:
    reads: list[dict[str, Any]] = []

    @OncePerView
    def facts(view: dict[str, Any]) -> int:
        reads.append(view)
        return int(view["n"]) * 10

    first, second = {"n": 1}, {"n": 2}
    assert [facts(first) for _ in range(5)] == [10] * 5
    assert len(reads) == 1
    assert facts(second) == 20 and facts(first) == 10 and facts(first) == 10
    assert len(reads) == 3
    copy = dict(first)
    assert facts(copy) == 10 and reads[-1] is copy
    facts.forget()
    facts(copy)
    assert len(reads) == 5


def test_hidden_cards_go_only_where_allowed_and_fill_every_place() -> None:
    pool = list(FULL_DECK[:20])
    no_hearts = Slot(6, lambda c: c.suit != "H")
    only_hearts = Slot(sum(1 for c in pool if c.suit == "H"), lambda c: c.suit == "H")
    rest = Slot(len(pool) - 6 - only_hearts.size)
    for seed in range(50):
        dealt = deal_hidden(pool, [no_hearts, only_hearts, rest], random.Random(seed))
        assert sorted(c for part in dealt for c in part) == sorted(pool)
        assert [len(part) for part in dealt] == [6, only_hearts.size, rest.size]
        assert all(c.suit != "H" for c in dealt[0]) and all(c.suit == "H" for c in dealt[1])


def test_places_that_cannot_be_filled_are_refused() -> None:
    pool: list[Card] = list(FULL_DECK[:8])
    with pytest.raises(ValueError):
        deal_hidden(pool, [Slot(3)], random.Random(0))
    with pytest.raises(ValueError):
        deal_hidden(pool, [Slot(8, lambda c: False)], random.Random(0))
