"""The Puskiyon bot: it only ever makes legal moves, plays the way it says, and beats random play.

The bot sees nothing but its own seat's view, so these tests drive it only through `view` too.
"""

from __future__ import annotations

import random

import pytest
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
        game = bot.STRONG_SEARCH if level == "strong" else bot.SEARCH  # strong weighs `stopping`'s best two
        at_budget = search.pimc_chooser(game, bot.BUDGETS[level], f"{level}|budget", width=2)
        at_300 = search.pimc_chooser(bot.SEARCH, 300, f"{level}|budget", width=2)
        differs = 0
        for view, legal in cases:
            move = choose(view, legal)
            assert move == at_budget(view, legal)
            if level == "normal":
                differs += move != at_300(view, legal)
        if level == "normal":
            assert differs > 0  # the lower budget changes moves: the levels are not the same search


def stop_view(declined_next: list[list[str]], hand: str = "2H 3S KC", pile: str = "9H") -> dict:
    """A view of seat 0 at four players whose next player (seat 1) holds cards read from `declined_next` (the tops
    declined are on the pile, below `pile`)."""
    tops = sorted({top for slot in declined_next for top in slot})
    return {"players": 4, "seat": 0, "hand": hand.split(), "pile_seen": tops + pile.split(),
            "declined": [[], declined_next, [["AD"]] * 5, [["AD"]] * 5]}


def test_the_stop_chance_reads_the_next_players_declined_tops() -> None:
    chance = bot._stop_chance(stop_view([["7H", "5C"], ["7H", "5C"]], hand="5H 3S KC"))
    assert chance(card("5H")) == 1.0  # neither card can be a heart or a five: both were declined
    assert chance(card("3S")) < chance(card("KC")) < 1.0  # nor a club: a king of clubs is followed by kings alone
    unseen = 52 - 5  # three in hand, two on the pile
    hearts_out, sevens_out = 13 - 3, 4 - 1  # 2H in hand, 7H and 9H on the pile
    allowed = unseen - hearts_out - sevens_out  # the one card read: no heart, no seven
    spades = 13 - 2  # 3S in hand, 7S ruled out (a seven); and the threes 3C 3D (3H is a heart)
    assert bot._stop_chance(stop_view([["7H"]]))(card("3S")) == pytest.approx(1 - (spades + 2) / allowed)


def test_strong_ranks_a_play_the_next_player_cannot_follow_first_when_the_weights_are_close() -> None:
    legal = [Move("play", (card("2H"),)), Move("play", (card("3S"),)), Move("draw")]
    view = stop_view([["7H", "2C"], ["7H", "2C"]], hand="2H 3S QD", pile="3H")
    assert bot.ranked(view, legal)[0] == legal[1]  # easy sheds the three
    assert bot.stopping(view, legal) == [legal[0], legal[1], legal[2]]  # the next player surely draws on 2H
    far = stop_view([["7H", "2C"]], hand="2H KS QD", pile="2S")  # a king (ten points) against a sure stop
    heavy = [Move("play", (card("2H"),)), Move("play", (card("KS"),)), Move("draw")]
    assert bot.stopping(far, heavy)[0] == bot.ranked(far, heavy)[0] == heavy[1]


def test_stopping_lists_every_legal_move_once() -> None:
    for state, seat in positions("puskiyon", 4, rounds=4, every=3):
        legal = P.legal_moves(state, seat)
        view = P.view(state, seat)
        assert sorted(map(str, bot.stopping(view, legal))) == sorted(map(str, legal))
