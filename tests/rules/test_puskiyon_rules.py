"""Every Puskiyon rule on hand-made positions, so a broken rule fails here by name.

Positions are built directly as `State` values (or through `from_json`), with only the cards a
rule needs; the engine never asks for the other cards of the deck.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.engine import puskiyon as P
from rules.engine import rng
from rules.engine.api import Match
from rules.engine.cards import FULL_DECK, card, parse_cards
from rules.engine.errors import ConfigError, IllegalMove
from rules.engine.moves import Move
from rules.engine.puskiyon.state import NO_LAST, State, Table

DRAW = Move("draw")
PASS = Move("pass")


def play(text: str) -> Move:
    return Move("play", (card(text),))


def position(
    hands: list[str],
    top: str,
    stock: str = "",
    turn: int = 0,
    passes: int = 0,
    drawn: str | None = None,
    totals: tuple[int, ...] | None = None,
    target: int = 200,
    under: str = "",
) -> State:
    """A position: hands by seat, the pile's top card (with `under` beneath it), the stock top first.

    With `drawn`, the player to act has just drawn that card (it must be in their hand).
    """
    players = len(hands)
    last = NO_LAST if drawn is None else (turn, "draw", card(drawn))
    return State(
        table=Table(
            players=players, target=target, seed="hand-made", dealer=players - 1, totals=totals or (0,) * players
        ),
        hands=tuple(parse_cards(h) for h in hands),
        stock=parse_cards(stock),
        pile=(*parse_cards(under), card(top)),
        turn=turn,
        passes=passes,
        last=last,
    )


def refused(state: State, seat: int, move: Move, words: str) -> None:
    before = P.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        P.apply(state, seat, move)
    assert words in caught.value.reason
    assert P.to_json(state) == before


# --- card values -------------------------------------------------------------------------------


def test_hand_points_counts_ace_one_pips_face_value_and_pictures_ten() -> None:
    assert P.hand_points(parse_cards("AS")) == 1
    assert P.hand_points(parse_cards("2C 5D 9H 10S")) == 26
    assert P.hand_points(parse_cards("JC QD KH")) == 30
    assert P.hand_points(parse_cards("AS 2S 10H JC QD KH")) == 43
    assert P.hand_points(()) == 0


def test_hand_points_of_the_whole_deck() -> None:
    assert P.hand_points(FULL_DECK) == 4 * (sum(range(1, 11)) + 30)


# --- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (5, 5), (6, 5)])
def test_deal_sizes_and_the_first_pile_card(players: int, size: int) -> None:
    state = P.new_round(P.SPEC.make_config(players), "deal-sizes")
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.pile) == 1
    assert len(state.stock) == 52 - players * size - 1
    assert state.passes == 0
    assert state.drawn is None


def test_without_a_match_the_last_seat_deals_and_seat_0_starts() -> None:
    state = P.new_round(P.SPEC.make_config(5), "no-match")
    assert state.dealer == 4
    assert P.to_act(state) == 0


def test_the_first_dealer_is_random_from_the_match_seed_and_the_deal_passes_clockwise() -> None:
    config = P.SPEC.make_config(4)
    match = P.start_match(config, "match-seed")
    assert match.dealer == rng.derive("match-seed", "dealer").randrange(4)
    assert match.totals == (0, 0, 0, 0)
    dealers = {P.start_match(config, f"m{i}").dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = P.new_round(config, "round-1", match)
    assert state.dealer == match.dealer
    assert P.to_act(state) == (match.dealer + 1) % 4
    finished = P.from_json({**P.to_json(state), "turn": None})
    following = P.next_match(config, match, finished)
    assert following.dealer == (match.dealer + 1) % 4
    assert following.number == 1


def test_target_option_default_and_limits() -> None:
    assert P.SPEC.make_config(4).get("target") == 200
    assert P.SPEC.make_config(4, {"target": 20}).get("target") == 20
    assert P.SPEC.make_config(4, {"target": "1000"}).get("target") == 1000
    for bad in (19, 1001, "lots"):
        with pytest.raises(ConfigError):
            P.SPEC.make_config(4, {"target": bad})
    for players in (1, 7):
        with pytest.raises(ConfigError):
            P.SPEC.make_config(players)


# --- playing a card ----------------------------------------------------------------------------


def test_a_card_of_the_same_rank_may_be_played() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="5C")
    assert play("10H") in P.legal_moves(state, 0)
    after = P.apply(state, 0, play("10H"))
    assert after.pile[-1] == card("10H")
    assert after.hands[0] == parse_cards("3D")
    assert P.to_act(after) == 1


def test_a_card_of_the_same_suit_may_be_played() -> None:
    state = position(["4S 3D", "2C", "4C"], top="10S", stock="5C")
    after = P.apply(state, 0, play("4S"))
    assert after.pile == parse_cards("10S 4S")
    assert after.hands[0] == parse_cards("3D")


def test_a_card_matching_neither_rank_nor_suit_is_refused() -> None:
    state = position(["4S 3D", "2C", "4C"], top="10S", stock="5C")
    assert play("3D") not in P.legal_moves(state, 0)
    refused(state, 0, play("3D"), "does not match 10S")


def test_legal_moves_are_the_matching_cards_then_draw() -> None:
    state = position(["10H 3D 4S KS", "2C", "4C"], top="10S", stock="5C")
    assert P.legal_moves(state, 0) == [play("10H"), play("4S"), play("KS"), DRAW]
    assert P.legal_moves(state, 1) == []


def test_wrong_seat_unknown_kinds_and_cards_not_held_are_refused() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="5C")
    refused(state, 1, DRAW, "not your turn")
    refused(state, 0, play("10D"), "do not hold 10D")
    refused(state, 0, Move("bury", (card("3D"),)), "no move 'bury'")
    refused(state, 0, Move("play", parse_cards("10H 3D")), "exactly one card")
    refused(state, 0, Move("play"), "exactly one card")
    refused(state, 0, Move("draw", (card("3D"),)), "names no cards")
    refused(state, 0, "draw", "not a move")  # type: ignore[arg-type]


def test_a_move_given_as_text_applies() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="5C")
    assert P.apply(state, 0, Move.parse("play 10h")) == P.apply(state, 0, play("10H"))


# --- drawing -----------------------------------------------------------------------------------


def test_drawing_is_allowed_while_holding_a_playable_card() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C")
    assert DRAW in P.legal_moves(state, 0)
    after = P.apply(state, 0, DRAW)
    assert after.hands[0] == parse_cards("10H 3D 5S")
    assert after.stock == parse_cards("6C")
    assert after.drawn == card("5S")
    assert P.to_act(after) == 0


def test_after_a_draw_only_the_drawn_card_may_be_played() -> None:
    state = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C"), 0, DRAW)
    assert P.legal_moves(state, 0) == [play("5S"), PASS]
    refused(state, 0, play("10H"), "only the card you drew (5S)")
    refused(state, 0, DRAW, "already drawn")
    after = P.apply(state, 0, play("5S"))
    assert after.pile[-1] == card("5S")
    assert after.hands[0] == parse_cards("10H 3D")
    assert P.to_act(after) == 1
    assert after.passes == 0


def test_a_drawn_card_that_does_not_match_can_only_be_kept() -> None:
    state = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="6C 5S"), 0, DRAW)
    assert P.legal_moves(state, 0) == [PASS]
    refused(state, 0, play("6C"), "does not match 10S")


def test_passing_after_a_draw_keeps_the_card_and_moves_the_turn_on() -> None:
    state = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C"), 0, DRAW)
    after = P.apply(state, 0, PASS)
    assert after.hands[0] == parse_cards("10H 3D 5S")
    assert after.pile == parse_cards("10S")
    assert after.drawn is None
    assert after.passes == 0  # a turn that drew never counts toward a block
    assert P.to_act(after) == 1


def test_no_pass_before_drawing_while_the_stock_has_cards() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="5S")
    assert PASS not in P.legal_moves(state, 0)
    refused(state, 0, PASS, "only after drawing")


def test_a_position_with_a_drawn_card_round_trips_through_json() -> None:
    state = P.from_json(P.to_json(position(["10H 5S", "2C"], top="10S", drawn="5S")))
    assert state.drawn == card("5S")
    assert P.legal_moves(state, 0) == [play("5S"), PASS]


# --- the empty stock ---------------------------------------------------------------------------


def test_with_the_stock_empty_there_is_no_drawing_play_or_pass() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S")
    assert P.legal_moves(state, 0) == [play("10H"), PASS]
    refused(state, 0, DRAW, "stock is empty")
    after = P.apply(state, 0, PASS)
    assert after.hands == state.hands
    assert P.to_act(after) == 1
    assert after.passes == 1


def test_nothing_is_reshuffled_when_the_last_card_is_drawn() -> None:
    state = position(["3D", "2C"], top="10S", stock="6C", under="4S 9S")
    state = P.apply(P.apply(state, 0, DRAW), 0, PASS)
    assert state.stock == ()
    assert state.pile == parse_cards("4S 9S 10S")
    assert P.legal_moves(state, 1) == [PASS]


# --- end of the hand ---------------------------------------------------------------------------


def test_playing_the_last_card_ends_the_hand_and_the_others_count_their_cards() -> None:
    state = position(["10H", "2C KD", "AS 4C 9H"], top="10S", stock="5C", turn=0)
    after = P.apply(state, 0, play("10H"))
    assert P.to_act(after) is None
    assert after.out == 0
    assert not P.blocked(after)
    assert P.legal_moves(after, 1) == []
    assert P.legal_moves(after, None) == []  # type: ignore[arg-type]
    refused(after, None, PASS, "hand is over")  # type: ignore[arg-type]
    refused(after, 1, play("2C"), "hand is over")
    outcome = P.result(after)
    assert outcome.deltas == (0, 12, 14)
    assert outcome.unit == "points"
    assert outcome.summary["ending"] == "out"
    assert outcome.summary["winner"] == 0


def test_result_is_refused_before_the_end() -> None:
    with pytest.raises(ValueError):
        P.result(position(["10H", "2C"], top="10S"))


def test_a_hand_is_blocked_when_every_player_passes_in_a_row_with_the_stock_empty() -> None:
    state = position(["3D QH", "2C", "4C 8D"], top="10S")
    for seat in (0, 1):
        state = P.apply(state, seat, PASS)
        assert P.to_act(state) == seat + 1
    state = P.apply(state, 2, PASS)
    assert P.to_act(state) is None
    assert P.blocked(state)
    assert state.out is None
    outcome = P.result(state)
    assert outcome.deltas == (13, 2, 12)
    assert outcome.summary["ending"] == "blocked"
    assert outcome.summary["winner"] is None


def test_a_card_played_starts_the_count_of_passes_again() -> None:
    state = position(["3D QH", "2C 5S", "4C 8D"], top="10S", passes=1)
    state = P.apply(state, 0, PASS)
    assert P.to_act(state) == 1
    state = P.apply(state, 1, play("5S"))
    assert state.passes == 0
    state = P.apply(P.apply(state, 2, PASS), 0, PASS)
    assert P.to_act(state) == 1


def test_draw_and_pass_turns_never_count_toward_a_block() -> None:
    state = position(["3D", "2C", "4C"], top="10S", stock="6C 7C 8C 9C")
    for seat in (0, 1, 2):
        state = P.apply(P.apply(state, seat, DRAW), seat, PASS)
        assert state.passes == 0
    assert P.to_act(state) == 0
    state = P.apply(P.apply(state, 0, DRAW), 0, PASS)  # the last card is drawn and kept
    assert state.stock == ()
    assert state.passes == 0
    assert P.to_act(state) == 1  # nobody has yet passed with the stock empty: the hand goes on


def test_a_hand_does_not_block_on_the_draw_of_the_last_card_while_players_hold_playable_cards() -> None:
    # Seats 1 and 2 drew and kept cards; seat 0 draws the last card and keeps it. All three still hold
    # a spade, which matches the 10S on top, so the hand must go on.
    state = position(["3S 4D", "5S 6D", "7S 8D"], top="10S", stock="2C 3C 4C", turn=1)
    state = P.apply(P.apply(state, 1, DRAW), 1, PASS)
    state = P.apply(P.apply(state, 2, DRAW), 2, PASS)
    state = P.apply(P.apply(state, 0, DRAW), 0, PASS)
    assert state.stock == ()
    assert not P.blocked(state)
    assert P.to_act(state) == 1
    assert P.legal_moves(state, 1) == [play("5S"), PASS]
    state = P.apply(state, 1, play("5S"))
    assert state.pile[-1] == card("5S")


def test_a_block_needs_every_player_to_pass_in_turn_with_the_stock_empty() -> None:
    state = position(["3D", "2C", "4C"], top="10S", stock="6C")
    state = P.apply(P.apply(state, 0, DRAW), 0, PASS)  # draws the last card: no pass toward a block
    for seat in (1, 2):
        state = P.apply(state, seat, PASS)
        assert state.passes == seat
        assert P.to_act(state) == (seat + 1) % 3
    state = P.apply(state, 0, PASS)  # the third pass in a row with the stock empty
    assert P.to_act(state) is None
    assert P.blocked(state)
    assert P.result(state).deltas == (3 + 6, 2, 4)
    assert "Everyone passed in turn with the stock empty: the hand is blocked." in P.view(state, 1)["last"]


def test_passes_made_with_the_stock_empty_start_again_after_a_draw() -> None:
    # A stored position may say two passes are counted while the stock still has a card (made by an
    # older engine); the draw of that card and a pass still count for nothing.
    state = position(["3D", "2C", "4C"], top="10S", stock="6C", passes=2)
    state = P.apply(P.apply(state, 0, DRAW), 0, PASS)
    assert state.passes == 0
    assert P.to_act(state) == 1


# --- totals and the end of the game ------------------------------------------------------------


def test_hand_values_are_added_to_the_totals() -> None:
    config = P.SPEC.make_config(3)
    match = Match(number=2, dealer=0, totals=(40, 7, 100), seed="m")
    state = position(["10H", "2C KD", "AS 4C 9H"], top="10S", totals=match.totals)
    after = P.apply(state, 0, play("10H"))
    following = P.next_match(config, match, after)
    assert following.totals == (40, 19, 114)
    assert following.number == 3
    assert following.dealer == 1
    assert not P.match_over(config, following)


def test_the_game_ends_when_a_total_reaches_200_and_a_tie_for_lowest_shares_the_win() -> None:
    config = P.SPEC.make_config(4)
    match = Match(number=9, dealer=3, totals=(150, 170, 160, 198), seed="m")
    state = position(["5S", "QH", "8C 2D", "JD"], top="5H", totals=match.totals)
    after = P.apply(state, 0, play("5S"))
    summary = P.result(after).summary
    assert summary["totals_after"] == [150, 180, 170, 208]
    following = P.next_match(config, match, after)
    assert following.totals == (150, 180, 170, 208)
    assert not P.match_over(config, match)
    assert P.match_over(config, following)
    assert P.match_winners(config, following) == [0]

    tied = Match(number=9, dealer=3, totals=(160, 170, 170, 190), seed="m")
    state = position(["5S", "QH", "8C 2D", "JD"], top="5H", totals=tied.totals)
    final = P.next_match(config, tied, P.apply(state, 0, play("5S")))
    assert final.totals == (160, 180, 180, 200)
    assert P.match_over(config, final)
    assert P.match_winners(config, final) == [0]
    shared = Match(number=9, dealer=3, totals=(170, 170, 160, 190), seed="m")
    state = position(["5S", "QH", "8C 2D", "JD"], top="5H", totals=shared.totals)
    final = P.next_match(config, shared, P.apply(state, 0, play("5S")))
    assert final.totals == (170, 180, 170, 200)
    assert P.match_over(config, final)
    assert P.match_winners(config, final) == [0, 2]


def test_the_target_option_decides_when_the_game_ends() -> None:
    config = P.SPEC.make_config(2, {"target": 50})
    assert not P.match_over(config, Match(number=1, dealer=0, totals=(49, 10)))
    assert P.match_over(config, Match(number=1, dealer=0, totals=(50, 10)))
    assert P.match_winners(config, Match(number=1, dealer=0, totals=(50, 10))) == [1]


# --- views -------------------------------------------------------------------------------------


def test_a_drawn_card_is_named_only_to_the_player_who_drew_it() -> None:
    state = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="6C 5S"), 0, DRAW)
    mine = P.view(state, 0)
    assert mine["drawn"] == "6C"
    assert "6C" in mine["last"]
    assert mine["phase"] == "drawn"
    assert mine["legal"] == ["pass"]
    for seat in (1, 2, None):
        other = P.view(state, seat)
        assert other["drawn"] is None
        assert "6C" not in str(other)
        assert other["hand_counts"] == [3, 1, 1]
    state = P.apply(state, 0, PASS)
    assert "6C" in P.view(state, 0)["last"]
    assert "6C" not in str(P.view(state, 1))


def test_the_view_shows_the_pile_stock_and_totals() -> None:
    state = position(["10H 3D", "2C", "4C"], top="10S", stock="6C 5S", under="2S", totals=(5, 60, 0))
    seen = P.view(state, 0)
    assert seen["game"] == "puskiyon"
    assert seen["top"] == "10S"
    assert seen["pile_recent"] == ["2S", "10S"]
    assert seen["stock_count"] == 2
    assert seen["totals"] == [5, 60, 0]
    assert seen["hand"] == ["3D", "10H"]
    assert seen["legal"] == ["play 10H", "draw"]
    assert seen["hand_points"] == 13
    assert "10S" in seen["prompt"]
    assert "seed" not in seen and "record" not in seen
    spectator = P.view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == []


def test_the_record_after_the_hand_shows_every_hand_and_the_seed() -> None:
    config = P.SPEC.make_config(3)
    state = P.new_round(config, "recorded")
    dealt = [list(map(str, h)) for h in state.hands]
    state = P.from_json({**P.to_json(state), "stock": [], "passes": 2, "turn": 2})
    state = P.apply(state, 2, PASS)
    seen = P.view(state, 1)
    assert seen["over"] and seen["phase"] == "over"
    assert seen["record"]["seed"] == "recorded"
    assert seen["record"]["dealt"] == dealt
    assert seen["record"]["hands_left"] == dealt
    assert seen["result"]["ending"] == "blocked"
    assert json.loads(json.dumps(seen))["record"]["starter"] == str(P.new_round(config, "recorded").pile[0])


def test_the_worked_example_on_the_rules_page() -> None:
    config = P.SPEC.make_config(4)
    hands = ["KS 7H AC", "5S", "10D 2D", "QC JH 9S 4D"]
    match = Match(number=7, dealer=0, totals=(162, 171, 158, 170), seed="page")
    state = position(hands, top="5H", turn=1, totals=match.totals)
    final = P.next_match(config, match, P.apply(state, 1, play("5S")))
    assert final.totals == (180, 171, 170, 203)
    assert P.match_over(config, final)
    assert P.match_winners(config, final) == [2]
    hands[2] = "10D 3D"
    state = position(hands, top="5H", turn=1, totals=match.totals)
    final = P.next_match(config, match, P.apply(state, 1, play("5S")))
    assert P.match_winners(config, final) == [1, 2]


def test_states_made_by_moves_are_ordinary_frozen_states() -> None:
    state = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S"), 0, DRAW)
    assert type(state) is State
    assert state == State(state.table, state.hands, state.stock, state.pile, state.turn, state.passes, state.last,
                          state.steps)
    assert hash(state) == hash(P.from_json(P.to_json(state)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turn = 1  # type: ignore[misc]
