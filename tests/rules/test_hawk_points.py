"""The points alone, as Hawk's look-ahead and search score their endings (`scoring.tally_deltas`, `lafh_deltas`):
exactly the points of the round's full result; and the guesses' reading of a view once a decision."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections import Counter

import pytest

import rules.engine.hawk as hawk
from rules.engine.cards import Card
from rules.engine.hawk.deck import PIPS, RANKS
from rules.engine.hawk.scoring import tally_deltas, tally_tricks
from rules.engine.puskiyon import state as puskiyon_state
from tests.rules.contract import play_out

SUIT_LETTERS = "CDHS"


def _bonus_cards(rng: random.Random) -> list[Card]:
    """Four cards that show a bonus together: one number in all four suits, or four in a row of one suit."""
    if rng.random() < 0.5:
        rank = rng.choice(RANKS)
        return [Card(rank, suit) for suit in SUIT_LETTERS]
    start = rng.randrange(len(RANKS) - 3)
    suit = rng.choice(SUIT_LETTERS)
    return [Card(rank, suit) for rank in RANKS[start:start + 4]]


def _tricks_showing_bonuses(rng: random.Random, players: int) -> list[tuple[int, tuple[Card, ...]]]:
    """A round's tricks (each card once), many made to show a bonus, taken by random seats."""
    pool = list(PIPS)
    rng.shuffle(pool)
    tricks = []
    for _trick in range(hawk.deal_size(players)):
        cards: list[Card] = []
        wanted = _bonus_cards(rng)
        if rng.random() < 0.5 and all(c in pool for c in wanted):
            cards = wanted
        cards += [c for c in pool if c not in cards][: players - len(cards)]
        pool = [c for c in pool if c not in cards]
        rng.shuffle(cards)
        tricks.append((rng.randrange(players), tuple(cards)))
    return tricks


@pytest.mark.parametrize("per_trick", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_search_points_equal_the_full_results_points_on_played_rounds(players: int, per_trick: bool) -> None:
    rng = random.Random(f"searched-{players}-{per_trick}")
    config = hawk.SPEC.make_config(players, {"bonus_per_trick": per_trick})
    for number in range(150):
        end, _moves = play_out(hawk, hawk.new_round(config, f"searched-{number}"), rng)
        tricks = [(t.winner, t.cards) for t in end.tricks]
        assert tally_deltas(players, tricks, per_trick) == hawk.result(end).deltas


@pytest.mark.parametrize("per_trick", [False, True])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_search_points_count_bonuses_on_either_side_as_the_scorer_does(players: int, per_trick: bool) -> None:
    """Random play rarely shows four suits or a straight; these trick lists show them often, on both sides,
    some kinds twice (counted once a side unless per trick)."""
    rng = random.Random(f"bonuses-{players}-{per_trick}")
    shown: Counter[tuple[str, str]] = Counter()
    for _ in range(600):
        tricks = _tricks_showing_bonuses(rng, players)
        score, events, _pips = tally_tricks(players, tricks, per_trick)
        shown.update((e["kind"], e["side"]) for e in events)
        assert tally_deltas(players, tricks, per_trick) == score.deltas
    assert min(shown[kind, side] for kind in ("four_suits", "straight") for side in ("LAFH", "NOB")) > 50


def test_puskiyons_built_state_takes_exactly_its_dataclass_fields() -> None:
    """Puskiyon's `build` restates a frozen dataclass's `__init__` (its play is the hot path of its guesses): it must
    take exactly the class's fields, in order, and give an equal value."""
    cls = puskiyon_state.State
    names = [f.name for f in dataclasses.fields(cls)]
    assert list(inspect.signature(puskiyon_state.build).parameters) == names
    import rules.engine.puskiyon as puskiyon

    start = puskiyon.new_round(puskiyon.SPEC.make_config(4), "built")
    values = {name: getattr(start, name) for name in names}
    assert puskiyon_state.build(**values) == cls(**values)


def test_guesses_from_views_in_turn_are_the_guesses_each_view_gives_alone() -> None:
    """The guess keeps the facts of the view it last read (by the view object's identity); views asked in
    turn, and a view equal to but not the same object as another, each get their own guesses."""
    from rules.engine.hawk import determinize as guessing

    state = hawk.new_round(hawk.SPEC.make_config(4), "guess-cache")
    rng = random.Random(5)
    views = []
    while (seat := hawk.to_act(state)) is not None and len(views) < 12:
        views.append(hawk.view(state, seat))
        state = hawk.apply(state, seat, rng.choice(hawk.legal_moves(state, seat)))
    alone = []
    for view in views:
        guessing._facts.forget()
        alone.append(guessing.determinize(view, random.Random(1)))
    for index in (3, 0, 7, 7, 11, 3):
        assert guessing.determinize(views[index], random.Random(1)) == alone[index]
        assert guessing.determinize(dict(views[index]), random.Random(1)) == alone[index]
