"""Sheepshead hands played move by move: picking, burying, the partner, leasters, views, matches.

Hands are dealt from seeds and, where a test needs particular cards, rearranged before the first
move (the engine only ever reads the hands and the blind from the state), so each rule is shown on
a deal that makes it matter.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.engine import registry
from rules.engine import sheepshead as game
from rules.engine.api import Config, replay
from rules.engine.cards import parse_cards
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move
from rules.engine.sheepshead.deck import POINTS, sort_hand
from rules.engine.sheepshead.state import State
from tests.rules.contract import cards_in

JD = parse_cards("JD")[0]


def config(players: int = 5, **options: object) -> Config:
    return game.SPEC.make_config(players, options)


def dealt(players: int, hands: list[str], blind: str, **options: object) -> State:
    """A fresh hand (dealer: the last seat) with the given cards instead of the seed's deal."""
    state = game.new_round(config(players, **options), "fixed")
    cards = [sort_hand(parse_cards(h)) for h in hands]
    return replace(state, hands=tuple(cards), table=replace(state.table, blind=sort_hand(parse_cards(blind))))


def go(state: State, *moves: str) -> State:
    for text in moves:
        state = game.apply(state, game.to_act(state), Move.parse(text))
    return state


def finish_lowest(state: State) -> State:
    """Play out with each seat's first legal move (deterministic)."""
    while (seat := game.to_act(state)) is not None:
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    return state


# Five hands of six, blind 2: seat 0 has strong trump, seat 3 holds the jack of diamonds.
FIVE = [
    "QC QS QH JC AC 7C",
    "QD JS 10C KC 9C 8C",
    "JH AD 10D AS 10S KS",
    "JD KD 9D 9S 8S 7S",
    "8D 7D AH 10H KH 9H",
]
FIVE_BLIND = "8H 7H"


# --- registry and spec ----------------------------------------------------------------------


def test_registry_finds_the_game_and_its_bot() -> None:
    assert registry.game("sheepshead") is game
    assert callable(registry.bot("sheepshead").choose)


def test_spec_options_and_defaults() -> None:
    spec = game.SPEC
    assert (spec.min_players, spec.max_players, spec.default_players, spec.unit) == (3, 7, 5, "cents")
    cfg = spec.make_config()
    assert cfg.get("partner") == "jack_of_diamonds"
    assert cfg.get("no_pick") == "leaster"
    assert cfg.get("stake_cents") == 100
    assert cfg.get("rounds") == 0
    assert [v for v, _ in spec.option("partner").choices] == ["jack_of_diamonds", "none"]
    assert [v for v, _ in spec.option("no_pick").choices] == ["leaster"]
    with pytest.raises(ValueError):
        spec.make_config(5, {"stake_cents": 4})
    with pytest.raises(ValueError):
        spec.make_config(5, {"stake_cents": 10001})
    with pytest.raises(ValueError):
        spec.make_config(8)


# --- dealing and picking --------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_deal_gives_every_card_once(players: int) -> None:
    state = game.new_round(config(players), "deal-check")
    hand, blind = game.deal_sizes(players)
    assert all(len(h) == hand for h in state.hands)
    assert len(state.blind) == blind
    cards = [c for h in state.hands for c in h] + list(state.blind)
    assert len(cards) == len(set(cards)) == 32
    assert sum(POINTS[c] for c in cards) == 120


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    a = game.new_round(config(), "one")
    assert a == game.new_round(config(), "one")
    assert a.hands != game.new_round(config(), "two").hands


def test_picking_goes_round_from_the_dealers_left() -> None:
    state = game.new_round(config(5), "s")
    assert state.dealer == 4
    assert game.to_act(state) == 0
    assert game.legal_moves(state, 0) == [Move("pick"), Move("pass")]
    assert game.legal_moves(state, 1) == []
    state = go(state, "pass", "pass")
    assert game.to_act(state) == 2
    match = game.next_match(config(5), game.start_match(config(5), "m"), finish_lowest(state))
    assert match.dealer == 0
    later = game.new_round(config(5), "s2", match)
    assert later.dealer == 0 and game.to_act(later) == 1


def test_pick_bury_then_the_dealers_left_leads() -> None:
    state = dealt(5, FIVE, FIVE_BLIND)
    state = go(state, "pass", "pick")
    assert state.phase == "bury" and state.picker == 1
    assert set(parse_cards("8H 7H")) <= set(state.hands[1])
    assert len(state.hands[1]) == 8
    assert [str(m) for m in game.legal_moves(state, 1)] == [f"bury {c}" for c in state.hands[1]]
    state = go(state, "bury 8H")
    assert state.phase == "bury" and game.to_act(state) == 1
    state = go(state, "bury 7H")
    assert state.phase == "play"
    assert state.buried == parse_cards("8H 7H")
    assert game.to_act(state) == 0
    assert all(len(h) == 6 for h in state.hands)


def test_dealer_passing_last_starts_a_leaster() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pass", "pass", "pass", "pass", "pass")
    assert state.phase == "play" and state.picker is None
    assert game.to_act(state) == 0
    view = game.view(state, 2)
    assert view["leaster"] is True
    assert "leaster" in view["last"].lower()


# --- trick play -----------------------------------------------------------------------------


def test_must_follow_the_suit_led_and_trump_is_a_suit() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    # seat 0 (the picker) leads QC: trump is led, every seat holding trump must play trump
    state = go(state, "play QC")
    assert {str(m) for m in game.legal_moves(state, 1)} == {"play QD", "play JS"}
    with pytest.raises(IllegalMove):
        game.apply(state, 1, Move.parse("play 10C"))
    state = go(state, "play JS", "play JH", "play JD")
    # seat 4 holds trump 8D 7D: must play one
    assert {str(m) for m in game.legal_moves(state, 4)} == {"play 8D", "play 7D"}
    state = go(state, "play 7D")
    assert state.tricks[-1][1] == 0 and game.to_act(state) == 0


def test_a_player_who_cannot_follow_may_play_anything() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    state = go(state, "play AC")  # clubs led; seat 1 has clubs, seats 2, 3, 4 have none
    assert {str(m) for m in game.legal_moves(state, 1)} == {"play 10C", "play KC", "play 9C", "play 8C"}
    state = go(state, "play 8C")
    assert len(game.legal_moves(state, 2)) == 6
    state = go(state, "play AD", "play 9S", "play AH")
    assert state.tricks[-1][1] == 2  # the ace of diamonds is trump and takes the clubs


def test_queen_of_clubs_is_not_a_club() -> None:
    hands = ["AC 10C KC 9C 8C 8S", "QC 7C AS 10S KS 9S", "QS QH QD JC JS JH",
             "JD AD 10D KD 9D 8D", "7D AH 10H KH 9H 8H"]
    state = go(dealt(5, hands, "7H 7S"), "pass", "pass", "pass", "pass", "pick", "bury 7H", "bury 7S")
    state = go(state, "play AC")
    # clubs led: seat 1 must follow with 7C; its QC is trump, not a club
    assert [str(m) for m in game.legal_moves(state, 1)] == ["play 7C"]
    with pytest.raises(IllegalMove):
        game.apply(state, 1, Move.parse("play QC"))


# --- the partner ----------------------------------------------------------------------------


def test_jack_of_diamonds_holder_is_the_secret_partner() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    assert state.partner == 3
    for seat in (None, 0, 1, 2, 4):
        view = game.view(state, seat)
        assert view["partner"] is None and view["partner_status"] == "unknown"
        assert view["you_are_partner"] is False
    own = game.view(state, 3)
    assert own["you_are_partner"] is True and own["partner"] == 3 and own["partner_status"] == "known"
    # the jack of diamonds reaches the table: everybody knows
    state = go(state, "play QC", "play JS", "play JH", "play JD")
    for seat in (None, 0, 1, 2, 3, 4):
        view = game.view(state, seat)
        assert view["partner"] == 3 and view["partner_status"] == "known"
    assert "partner" in game.view(state, 1)["last"]


def test_picker_holding_the_jack_plays_alone() -> None:
    hands = ["QC QS JD JC AC 7C", *FIVE[1:3], "QH KD 9D 9S 8S 7S", FIVE[4]]
    state = go(dealt(5, hands, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    assert state.partner is None
    assert game.view(state, 0)["partner_status"] == "alone"  # the picker knows
    assert game.view(state, 2)["partner_status"] == "unknown"  # the others do not, yet
    state = finish_lowest(state)
    summary = game.result(state).summary
    assert summary["alone"] is True and summary["partner"] is None
    assert sum(1 for d in game.result(state).deltas if d == game.result(state).deltas[1]) == 4


def test_jack_in_the_blind_means_the_picker_plays_alone() -> None:
    hands = ["QC QS QH JC AC 7C", FIVE[1], FIVE[2], "8H KD 9D 9S 8S 7S", FIVE[4]]
    state = go(dealt(5, hands, "JD 7H"), "pick", "bury 7C", "bury 7H")
    assert JD in state.hands[0] and state.partner is None


def test_burying_the_jack_hides_that_the_picker_is_alone() -> None:
    hands = list(FIVE)
    hands[3] = "8H KD 9D 9S 8S 7S"
    state = go(dealt(5, hands, "JD 7H"), "pick", "bury JD", "bury 7H")
    assert state.partner is None
    assert game.view(state, 0)["partner_status"] == "alone"
    assert game.view(state, 0)["buried"] == ["JD", "7H"]
    for seat in (None, 1, 2, 3, 4):
        view = game.view(state, seat)
        assert view["partner_status"] == "unknown" and view["buried"] == []
        assert JD not in cards_in(view)
    over = finish_lowest(state)
    assert game.view(over, 2)["partner_status"] == "alone"
    assert game.view(over, 2)["record"]["bury"] == ["JD", "7H"]


def test_partner_option_none_means_always_alone() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND, partner="none"), "pick", "bury 7C", "bury 8H")
    assert state.partner is None
    assert game.view(state, 3)["partner_status"] == "alone"
    assert game.view(state, 3)["you_are_partner"] is False
    assert game.result(finish_lowest(state)).summary["alone"] is True


@pytest.mark.parametrize("players", [3, 4])
def test_no_partner_with_three_or_four_players(players: int) -> None:
    for n in range(20):
        state = game.new_round(config(players), f"small-{n}")
        state = go(state, "pick")
        while state.phase == "bury":
            state = go(state, str(game.legal_moves(state, state.picker)[-1]))
        assert state.partner is None
        assert game.view(state, (state.picker + 1) % players)["partner_status"] == "alone"


# --- scoring through play -------------------------------------------------------------------


def test_picker_points_are_side_tricks_plus_the_bury() -> None:
    state = finish_lowest(go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury AC"))
    summary = game.result(state).summary
    side = {0, 3}
    taken = sum(sum(POINTS[c] for c in cards) for _l, w, cards in state.tricks if w in side)
    assert summary["picker_points"] == taken + 11
    assert summary["picker_points"] + summary["opponent_points"] == 120
    expected = game.settle(players=5, picker=0, partner=3, picker_points=summary["picker_points"])
    assert list(game.result(state).deltas) == expected
    assert summary["money"] == expected


def test_stake_option_scales_the_money() -> None:
    base = finish_lowest(go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H"))
    odd = finish_lowest(go(dealt(5, FIVE, FIVE_BLIND, stake_cents=101), "pick", "bury 7C", "bury 8H"))
    rate = game.result(base).summary["rate"]
    assert game.result(odd).deltas[1] == -rate * 101
    assert sum(game.result(odd).deltas) == 0


def test_leaster_blind_goes_to_the_last_trick() -> None:
    hands = list(FIVE)
    hands[4] = "8D 7D 8H 7H KH 9H"
    state = finish_lowest(go(dealt(5, hands, "AH 10H"), "pass", "pass", "pass", "pass", "pass"))
    summary = game.result(state).summary
    last_winner = state.tricks[-1][1]
    by_tricks = [0] * 5
    for _l, w, cards in state.tricks:
        by_tricks[w] += sum(POINTS[c] for c in cards)
    by_tricks[last_winner] += 21
    assert summary["points"] == by_tricks
    assert sum(summary["points"]) == 120
    assert summary["kind"] == "leaster"
    winner = summary["leaster_winner"]
    assert winner == game.leaster_winner(points=summary["points"], tricks=summary["tricks"])
    assert list(game.result(state).deltas) == game.settle_leaster(players=5, winner=winner)


def test_result_refuses_an_unfinished_hand() -> None:
    with pytest.raises(ValueError):
        game.result(game.new_round(config(), "x"))


# --- illegal moves --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "seat", "bad"),
    [
        ((), 1, "pick"),  # not seat 1's turn
        ((), 0, "play QC"),  # picking, not playing
        ((), 0, "bury QC"),
        ((), 0, "pick QC"),
        (("pick",), 0, "bury 7D"),  # seat 0 does not hold 7D
        (("pick",), 0, "bury QC QS"),  # one card per move
        (("pick",), 0, "pass"),
        (("pick", "bury 7C", "bury 8H"), 0, "play 9H"),  # not held
        (("pick", "bury 7C", "bury 8H", "play QC"), 1, "play 10C"),  # must follow trump
        (("pick", "bury 7C", "bury 8H", "play QC"), 2, "play JH"),  # not seat 2's turn
        (("pick", "bury 7C", "bury 8H"), 0, "pick"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(moves: tuple[str, ...], seat: int, bad: str) -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), *moves)
    before = game.to_json(state)
    with pytest.raises(IllegalMove) as raised:
        game.apply(state, seat, Move.parse(bad))
    assert raised.value.reason
    assert game.to_json(state) == before


def test_no_move_after_the_end() -> None:
    state = finish_lowest(dealt(5, FIVE, FIVE_BLIND))
    assert game.to_act(state) is None
    assert game.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove):
        game.apply(state, 0, Move.parse("play QC"))


def test_garbage_is_refused_as_an_illegal_move() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    for bad in ("play QC", ("play", "QC"), Move("play", ("QC",)), Move("play", ()), None):
        with pytest.raises(IllegalMove):
            game.apply(state, 0, bad)  # type: ignore[arg-type]


# --- views ----------------------------------------------------------------------------------


def test_view_has_the_common_keys_and_is_json() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H", "play QC")
    for seat in (None, 0, 1, 2, 3, 4):
        view = game.view(state, seat)
        for key in ("game", "players", "seat", "dealer", "to_act", "phase", "hand", "hand_counts",
                    "legal", "prompt", "last", "over", "result"):
            assert key in view
        json.dumps(view)
        assert view["trick"] == [{"seat": 0, "card": "QC"}]
        assert view["tricks_taken"] == [0, 0, 0, 0, 0]
        assert view["picker"] == 0 and view["blind_size"] == 2
        assert view["hand_counts"] == [5, 6, 6, 6, 6]
        assert "seed" not in view and "record" not in view
    assert game.view(state, 1)["legal"] == ["play QD", "play JS"]
    assert game.view(state, 2)["legal"] == []
    assert game.view(state, None)["hand"] == []
    assert game.view(state, 1)["prompt"] == "Follow trump."


def test_only_the_picker_sees_the_bury() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C")
    assert game.view(state, 0)["buried"] == ["7C"]
    assert "7C" in game.view(state, 0)["last"]
    for seat in (None, 1, 2, 3, 4):
        view = game.view(state, seat)
        assert view["buried"] == [] and parse_cards("7C")[0] not in cards_in(view)


def test_before_picking_nobody_sees_the_blind() -> None:
    state = dealt(5, FIVE, FIVE_BLIND)
    for seat in (None, 0, 1, 2, 3, 4):
        assert not cards_in(game.view(state, seat)) & set(parse_cards(FIVE_BLIND))


def test_record_at_the_end_replays_the_hand() -> None:
    cfg = config(5)
    state = game.new_round(cfg, "record-me")
    state = finish_lowest(state)
    view = game.view(state, 2)
    record = view["record"]
    assert record["seed"] == "record-me"
    assert len(record["hands"]) == 5 and len(record["blind"]) == 2
    assert len(record["tricks"]) == 6
    assert record["result"] == view["result"]
    assert replay(game, cfg, "record-me", [(s, m) for s, m in record["moves"]]) == state


def test_view_refuses_a_seat_that_does_not_exist() -> None:
    with pytest.raises(ValueError):
        game.view(game.new_round(config(), "x"), 5)


# --- matches --------------------------------------------------------------------------------


def test_match_runs_once_round_the_table_and_highest_total_wins() -> None:
    cfg = config(3)
    match = game.start_match(cfg, "match")
    assert match.dealer == 2 and match.totals == (0, 0, 0)
    dealers = []
    while not game.match_over(cfg, match):
        state = finish_lowest(game.new_round(cfg, f"match-{match.number}", match))
        dealers.append(state.dealer)
        before = match.totals
        match = game.next_match(cfg, match, state)
        assert [t - b for t, b in zip(match.totals, before, strict=True)] == list(game.result(state).deltas)
    assert dealers == [2, 0, 1]
    assert sum(match.totals) == 0
    best = max(match.totals)
    assert game.match_winners(cfg, match) == [s for s, t in enumerate(match.totals) if t == best]


def test_rounds_option_sets_the_match_length() -> None:
    cfg = config(5, rounds=2)
    match = game.start_match(cfg, "m")
    for number in range(2):
        assert not game.match_over(cfg, match)
        match = game.next_match(cfg, match, finish_lowest(game.new_round(cfg, f"m{number}", match)))
    assert game.match_over(cfg, match)
