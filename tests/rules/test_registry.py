"""The registry and the facts each game's spec carries for the web layer (which never names a game)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from rules.engine import registry
from rules.engine.api import Band, GameSpec, OptionSpec
from tests.tables import fifth_game


def test_the_four_games_stay_registered_in_the_clubs_order() -> None:
    assert registry.GAME_KEYS == ("sheepshead", "hawk", "hawsker", "puskiyon")
    assert registry.game_keys() == registry.GAME_KEYS
    assert [s.key for s in registry.all_specs()] == list(registry.GAME_KEYS)
    assert registry.default_key() == "sheepshead"


def test_each_spec_carries_unit_ranking_and_quick_play_bands() -> None:
    facts = {
        s.key: (s.unit, s.lower_is_better, s.default_players, s.band_option, s.band_name,
                [(b.key, b.label, b.value) for b in s.bands])
        for s in registry.all_specs()
    }
    assert facts == {
        "sheepshead": ("cents", False, 5, "stake_cents", "stake", [
            ("standard", "Club stakes: $1.00", 100), ("low", "Low stakes: 10¢", 10),
            ("high", "High stakes: $5.00", 500)]),
        "hawk": ("points", False, 4, "", "length", []),
        "hawsker": ("points", False, 2, "short", "length", [
            ("standard", "To 100 points", False), ("short", "Short game: to 50 points", True)]),
        "puskiyon": ("points", True, 4, "target", "length", [
            ("standard", "Game ends at 200", 200), ("short", "Short: ends at 100", 100),
            ("long", "Long: ends at 400", 400)]),
    }


def test_options_describe_their_values_for_people() -> None:
    sheepshead = registry.spec("sheepshead")
    assert sheepshead.option("stake_cents").describe(250) == "$2.50"
    assert sheepshead.option("rounds").describe(0) == "once round the table"
    assert sheepshead.option("rounds").describe(3) == "3"
    assert sheepshead.option("partner").describe("none") == "None: the picker always plays alone"
    assert registry.spec("hawsker").option("short").describe(True) == "yes"


def test_a_spec_refuses_bands_that_its_option_would_refuse() -> None:
    spec = registry.spec("puskiyon")
    with pytest.raises(ValueError, match="band"):
        replace(spec, bands=(Band("tiny", "Ends at 5", 5),))  # below the target's minimum of 20
    with pytest.raises(ValueError, match="no option"):
        replace(spec, band_option="stake_cents")
    with pytest.raises(ValueError, match="band option"):
        replace(spec, band_option="")
    with pytest.raises(ValueError, match="unit"):
        replace(spec, unit="euros")
    with pytest.raises(ValueError, match="default"):
        GameSpec(key="x", title="X", min_players=2, max_players=3, default_players=4, unit="points",
                 options=(OptionSpec(name="n", label="N", default=1, help=""),))


def test_a_game_is_registered_for_a_while_and_removed_again() -> None:
    registry.register(fifth_game, bot=fifth_game)
    try:
        assert registry.game_keys() == (*registry.GAME_KEYS, fifth_game.KEY)
        assert registry.known(fifth_game.KEY) and registry.spec(fifth_game.KEY) is fifth_game.SPEC
        assert registry.game(fifth_game.KEY) is fifth_game and registry.bot(fifth_game.KEY).choose
        with pytest.raises(ValueError, match="already"):
            registry.register(fifth_game, bot=fifth_game)
    finally:
        registry.unregister(fifth_game.KEY)
    assert registry.game_keys() == registry.GAME_KEYS and not registry.known(fifth_game.KEY)
    with pytest.raises(KeyError):
        registry.game(fifth_game.KEY)


def test_registering_refuses_a_module_missing_part_of_the_api_and_the_clubs_own_games_stay() -> None:
    partial = SimpleNamespace(SPEC=replace(fifth_game.SPEC, key="partial"), new_round=fifth_game.new_round)
    with pytest.raises(ValueError, match="to_act"):
        registry.register(partial, bot=fifth_game)
    with pytest.raises(ValueError, match="choose"):
        registry.register(fifth_game, bot=SimpleNamespace())
    with pytest.raises(ValueError, match="built in"):
        registry.unregister("hawk")
    assert registry.game_keys() == registry.GAME_KEYS
