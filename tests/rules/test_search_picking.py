"""Sheepshead's search levels pick lighter than the easy bot at every table size, from the view alone, by the
margins the arena's pick-worth measure found; from five players normal searches at a smaller budget."""

from __future__ import annotations

import argparse
import itertools
import math

import pytest

from rules.engine import arena, registry, search
from rules.engine.sheepshead import bot


def positions(players: int, deals: int, name: str, phase: str):
    """The decisions in `phase` of easy-bot deals, as (view, legal)."""
    game = registry.game("sheepshead")
    config = game.SPEC.make_config(players)
    for number in range(deals):
        state = game.new_round(config, f"{name}-{players}-{number}")
        turn = game.to_act(state)
        while turn is not None:
            view = game.view(state, turn)
            legal = game.legal_moves(state, turn)
            if view["phase"] == phase:
                yield view, legal
            state = game.apply(state, turn, bot.choose(view, legal))
            turn = game.to_act(state)


def pick_positions(players: int, deals: int = 200):
    """Every pick decision of easy-bot deals."""
    return positions(players, deals, "lighter", "pick")


def score(view) -> float:
    players = view["players"]
    position = ((view["seat"] - view["dealer"] - 1) % players) / (players - 1)
    return bot.pick_score(bot._cards(view["hand"]), players, position, bool(view.get("partner_rule")))


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_search_levels_pick_every_hand_within_the_lighter_margin_that_the_easy_bot_passes(
        players: int, level: str) -> None:
    lighter = bot.SEARCH_PICKS_LIGHTER[players]
    assert lighter > 0
    choose = bot.chooser(level, "lighter")
    between = 0
    for view, legal in pick_positions(players, deals=100):
        easy = bot.choose(view, legal).kind
        searched = choose(view, legal).kind
        value = score(view)
        assert searched == ("pick" if value + lighter > 0 else "pass"), (value, view["hand"])
        assert easy == ("pick" if value > 0 else "pass")
        between += -lighter < value <= 0
    assert between >= 10  # the deals held hands in the margin, where the two levels differ


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_each_level_searches_at_the_budget_of_the_tables_size(players: int, level: str) -> None:
    """From five players normal spends fewer play-outs (strong's gained little over normal's there); a level's
    move must be the search's at the budget of its table size, and at 5+ players normal's must differ somewhere
    from what the 3-4 player budget would play."""
    short = players >= bot.SHORT_HANDS
    budget = (bot.SHORT_HAND_BUDGETS if short else bot.BUDGETS)[level]
    choose = bot.chooser(level, "sizes")
    at_budget = search.pimc_chooser(bot.SEARCH, budget, f"{level}|sizes")
    at_60 = search.pimc_chooser(bot.SEARCH, bot.BUDGETS["normal"], f"{level}|sizes")
    differs = 0
    choices = ((view, legal) for view, legal in positions(players, 6, "budget", "play") if len(legal) > 2)
    for view, legal in itertools.islice(choices, 12):
        move = choose(view, legal)
        assert move == at_budget(view, legal)
        if level == "normal" and short:
            differs += move != at_60(view, legal)
    assert bot.SHORT_HAND_BUDGETS["normal"] < bot.BUDGETS["normal"] < bot.BUDGETS["strong"]
    assert bot.SHORT_HAND_BUDGETS["strong"] == bot.BUDGETS["strong"]
    if level == "normal" and short:
        assert differs > 0  # the budgets are not the same in effect


def test_the_arena_names_a_level_with_a_lighter_pick_and_refuses_nonsense() -> None:
    view, legal = next(v for v in pick_positions(3) if -100 < score(v[0]) <= 0)
    assert arena.make_chooser("sheepshead", "easy+100", "s")(view, legal).kind == "pick"
    assert arena.make_chooser("sheepshead", "easy", "s")(view, legal).kind == "pass"
    assert arena.make_chooser("sheepshead", "normal+0", "s")(view, legal).kind == "pass"
    for nonsense in ("normal+", "normal+lots", "random+10", "expert"):
        with pytest.raises(argparse.ArgumentTypeError):
            arena.bot_name(nonsense)
    assert arena.bot_name("strong+150") == "strong+150"
    assert arena.bot_name("normal+search") == "normal+search"
    with pytest.raises(ValueError, match="Sheepshead"):
        arena.make_chooser("hawk", "normal+10", "s")


@pytest.mark.parametrize("players", [3, 4, 7])
def test_a_level_plus_search_picks_as_the_plain_search_at_every_size(players: int) -> None:
    """`normal+search` (`picks_lighter={}`): the pick goes through the search like every other move, as it did at
    four, five and seven players before the levels picked by the pick score everywhere."""
    budgets = bot.SHORT_HAND_BUDGETS if players >= bot.SHORT_HANDS else bot.BUDGETS
    for view, legal in pick_positions(players, deals=8):
        plain = search.level_chooser(bot.SEARCH, bot.choose, budgets, "normal", "same")
        assert arena.make_chooser("sheepshead", "normal+search", "same")(view, legal) == plain(view, legal)


def test_pick_stats_count_leasters_and_what_picking_earns_a_deal() -> None:
    """Four deals, two picked (+100 and -50 cents to the picker), two leasters: a pick averages +25, and picking
    earns +12.5 a deal, the leasters counting nothing."""
    stats = arena.PickStats(players=3, bot="easy", deals=4, picker_cents=(100, -50), light=(False, True))
    assert stats.leaster_share == 0.5
    assert stats.light_cents == (-50,)
    assert stats.picker_mean == 25.0
    assert stats.picker_wins == 0.5
    mean, spread = stats.picking_per_deal
    assert mean == 12.5 and spread == pytest.approx(1.96 * math.sqrt(11875 / 3 / 4))
    assert "leasters 50.0%" in stats.line() and "picking earns +12.5" in stats.line()


def test_pick_stats_of_two_bots_are_of_the_same_deals_and_a_lighter_pick_leaves_fewer_leasters() -> None:
    """The deals depend on the seed alone, so two bots' figures compare hand for hand: at three players the easy
    bot picking 150 cents lighter leaves a leaster only where every hand is that much worse, a subset of easy's."""
    easy = arena.pick_stats(3, "easy", 200, "same")
    lighter = arena.pick_stats(3, "easy+150", 200, "same")
    assert easy == arena.pick_stats(3, "easy", 200, "same")
    assert lighter.leaster_share < easy.leaster_share - 0.2
    assert easy.deals == lighter.deals == 200
    assert len(lighter.picker_cents) == round((1 - lighter.leaster_share) * 200)
    # the easy bot would pass none of its own picks; of the lighter bot's, those in the margin, some but not all
    assert easy.light_cents == () and len(easy.light) == len(easy.picker_cents)
    assert 0 < len(lighter.light_cents) < len(lighter.picker_cents)


def test_pick_worth_plays_each_hand_near_the_line_both_ways_and_tells_good_hands_from_bad() -> None:
    """Under the easy bot's play (which its pick model was fitted to) a hand well above the line gains by picking
    and one well below loses; every hand measured is within the margin, and the table groups them by score."""
    found = arena.pick_worth(3, "easy", 300, "worth", margin=250.0)
    assert found and all(abs(value) <= 250.0 for value, _ in found)
    good = [gain for value, gain in found if value > 100]
    bad = [gain for value, gain in found if value < -150]
    assert len(good) >= 10 and len(bad) >= 10
    assert sum(good) / len(good) > 100 and sum(bad) / len(bad) < -100
    table = arena.worth_table(found)
    assert "| +100 to +150 |" in table and "| -200 to -150 |" in table
    assert sum(int(row.split("|")[2]) for row in table.splitlines()[2:] if row.startswith("| ")) == len(found)
    assert "breaks even at a pick score of" in table


def test_the_worth_line_breaks_even_where_the_gains_cross_zero() -> None:
    assert arena.worth_line([(0.0, -10.0), (10.0, 10.0), (20.0, 30.0)]) == pytest.approx((5.0, 2.0))
    assert arena.worth_line([(0.0, 10.0), (10.0, -10.0)]) is None  # better hands gaining less: no line to read
    assert arena.worth_line([(5.0, 1.0)]) is None
