"""The Puskiyon bot: it only ever makes legal moves, plays the way it says, and beats random play.

The bot sees nothing but its own seat's view, so these tests drive it only through `view` too.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import puskiyon as P
from rules.engine import registry, search
from rules.engine.cards import card, parse_cards
from rules.engine.moves import Move
from rules.engine.puskiyon import bot
from rules.engine.puskiyon.state import NO_LAST, State, Table
from tests.rules.test_search_bots import positions


def position(hands: list[str], top: str, stock: str = "", drawn: str | None = None) -> State:
    players = len(hands)
    return State(
        table=Table(players=players, target=200, seed="bot", dealer=players - 1, totals=(0,) * players),
        hands=tuple(parse_cards(h) for h in hands),
        stock=parse_cards(stock),
        pile=(card(top),),
        turn=0,
        passes=0,
        last=NO_LAST if drawn is None else (0, "draw", card(drawn)),
    )


def bot_move(state: State) -> str:
    seat = P.to_act(state)
    assert seat is not None
    legal = P.legal_moves(state, seat)
    move = bot.choose(P.view(state, seat), legal)
    assert move in legal
    return str(move)


def test_the_registry_finds_the_bot() -> None:
    assert registry.bot("puskiyon").choose is bot.choose


def test_it_sheds_the_highest_matching_card() -> None:
    assert bot_move(position(["3C KC 9D 7H", "2S"], top="7C", stock="5S")) == "play KC"


def test_between_equal_cards_it_plays_from_the_suit_it_holds_more_of() -> None:
    # QS would leave it without a spade; JH leaves two hearts to follow with.
    assert bot_move(position(["QS JH 2H 3H", "2S"], top="JS", stock="5S")) == "play JH"


def test_it_draws_only_when_it_has_nothing_to_play() -> None:
    assert bot_move(position(["3D 4D", "2S"], top="7C", stock="5S")) == "draw"
    assert bot_move(position(["3D 4C", "2S"], top="7C", stock="5S")) == "play 4C"


def test_it_plays_a_drawn_card_that_matches_and_otherwise_passes() -> None:
    assert bot_move(position(["3D 4D 5C", "2S"], top="7C", stock="9S", drawn="5C")) == "play 5C"
    assert bot_move(position(["3D 4D 5H", "2S"], top="7C", stock="9S", drawn="5H")) == "pass"


def test_with_the_stock_empty_and_nothing_to_play_it_passes() -> None:
    assert bot_move(position(["3D 4D", "2S"], top="7C")) == "pass"


@settings(max_examples=15, deadline=None)
@given(count=st.integers(min_value=2, max_value=6), seed=st.text(min_size=1, max_size=8))
def test_bots_alone_always_move_legally_and_finish(count: int, seed: str) -> None:
    state = P.new_round(P.SPEC.make_config(count), seed)
    moves = 0
    while (seat := P.to_act(state)) is not None:
        legal = P.legal_moves(state, seat)
        move = bot.choose(P.view(state, seat), legal)
        assert move in legal
        state = P.apply(state, seat, move)
        moves += 1
        assert moves < 2000
    P.result(state)


def average_points(hands: int) -> tuple[float, float]:
    """(the bot's average points a hand, the random players' average), one bot among 4, seat rotating."""
    config = P.SPEC.make_config(4)
    bot_points = random_points = 0
    for number in range(hands):
        pick = random.Random(number).choice
        smart = number % 4
        state = P.new_round(config, f"bot-vs-random-{number}")
        while (seat := P.to_act(state)) is not None:
            legal = P.legal_moves(state, seat)
            move: Move = bot.choose(P.view(state, seat), legal) if seat == smart else pick(legal)
            state = P.apply(state, seat, move)
        deltas = P.result(state).deltas
        bot_points += deltas[smart]
        random_points += sum(deltas) - deltas[smart]
    return bot_points / hands, random_points / (3 * hands)


def test_the_bot_scores_far_fewer_points_than_random_players() -> None:
    mine, theirs = average_points(300)
    # Measured: about 5 points a hand for the bot against about 27 for each random player.
    assert mine < theirs / 2, (mine, theirs)
    assert theirs - mine > 10, (mine, theirs)


def test_each_search_level_plays_at_its_budget_and_normal_below_where_the_search_saturates() -> None:
    """Past about 300 play-outs the search gains nothing (the engine's README), so normal searches fewer: its moves
    are the search's at its own budget and differ somewhere from the search's at 300; strong's are at its budget."""
    views = []
    for state, seat in positions("puskiyon", 4, rounds=6, every=1):
        legal = P.legal_moves(state, seat)
        if sum(m.kind == "play" for m in legal) > 1:
            views.append((P.view(state, seat), legal))
    assert len(views) > 40
    assert bot.BUDGETS["normal"] < 300 < bot.BUDGETS["strong"]
    for level, cases in (("normal", views[:40]), ("strong", views[:6])):
        choose = bot.chooser(level, "budget")
        at_budget = search.pimc_chooser(bot.SEARCH, bot.BUDGETS[level], f"{level}|budget", width=2)
        at_300 = search.pimc_chooser(bot.SEARCH, 300, f"{level}|budget", width=2)
        differs = 0
        for view, legal in cases:
            move = choose(view, legal)
            assert move == at_budget(view, legal)
            if level == "normal":
                differs += move != at_300(view, legal)
        if level == "normal":
            assert differs > 0  # the lower budget changes moves: the levels are not the same search
