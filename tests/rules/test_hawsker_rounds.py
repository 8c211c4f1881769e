"""Hawsker rounds and matches in arranged situations: stealing, being stuck, the stock running out,
the end of pegging, who leads, and how a match ends.

Each test sets the cards up by hand so the rule it checks is the only thing that can happen.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.engine import hawsker as game
from rules.engine.api import Match
from rules.engine.cards import FULL_DECK, card, parse_cards
from rules.engine.errors import IllegalMove
from rules.engine.hawsker.scoring import sort_cards
from rules.engine.hawsker.state import State
from rules.engine.moves import Move
from rules.engine.rng import derive, shuffled
from tests.rules.contract import cards_in

CONFIG = game.SPEC.make_config(2)
SHORT = game.SPEC.make_config(2, {"short": True})


def arranged(
    hand0: str,
    hand1: str,
    *,
    table: str = "",
    stock: str | None = None,
    turn: int = 0,
    leader: int = 0,
    plays: tuple[int, int] = (0, 0),
) -> State:
    """A pegging position with these hands and table; unnamed cards fill the stock, or the waste
    when the stock is given."""
    base = game.new_round(CONFIG, "arranged")
    first, second = sort_cards(parse_cards(hand0)), sort_cards(parse_cards(hand1))
    laid = parse_cards(table)
    used = {*first, *second, *laid}
    if stock is None:
        pile = tuple(c for c in FULL_DECK if c not in used)
        waste: tuple = ()
    else:
        pile = parse_cards(stock)
        used |= set(pile)
        waste = tuple(c for c in FULL_DECK if c not in used)
    return replace(
        base, phase="play", turn=turn, pending=(), leader=leader, hands=(first, second), stock=pile,
        table=laid, waste=waste, plays=plays, history=(), dealt=(first, second), discards=((), ()),
    )


def conserved(state: State) -> bool:
    every = [*state.hands[0], *state.hands[1], *state.stock, *state.table, *state.waste]
    return len(every) == 52 and set(every) == set(FULL_DECK)


def play(state: State, seat: int, text: str) -> State:
    return game.apply(state, seat, Move.parse(text))


def test_a_round_starts_with_eight_each_and_the_leader_discards_first() -> None:
    state = game.new_round(CONFIG, "start")
    assert [len(h) for h in state.hands] == [8, 8]
    assert len(state.stock) == 36
    assert state.cut
    assert state.leader == derive("start", "cut", 1).randrange(2)
    leader, other = state.leader, 1 - state.leader
    order = []
    while state.phase == "discard":
        seat = game.to_act(state)
        order.append(seat)
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert order == [leader, leader, other, other]
    assert state.phase == "play"
    assert game.to_act(state) == leader
    assert [len(h) for h in state.hands] == [6, 6]
    assert [len(d) for d in state.discards] == [2, 2]
    assert conserved(state)


def test_the_player_behind_leads() -> None:
    behind = game.new_round(CONFIG, "lead", Match(number=3, dealer=1, totals=(40, 25)))
    assert (behind.leader, behind.cut) == (1, False)
    behind = game.new_round(CONFIG, "lead", Match(number=3, dealer=1, totals=(10, 25)))
    assert (behind.leader, behind.cut) == (0, False)
    level = game.new_round(CONFIG, "lead", Match(number=3, dealer=1, totals=(30, 30)))
    assert level.cut
    assert level.leader == derive("lead", "cut", 4).randrange(2)


def test_the_first_play_is_one_card() -> None:
    state = arranged("6C 7D 9H", "2S 3S 4S")
    assert {str(m) for m in game.legal_moves(state, 0)} == {"play 6C", "play 7D", "play 9H"}
    with pytest.raises(IllegalMove):
        play(state, 0, "play 6C 7D")


def test_legal_moves_on_a_top_card() -> None:
    state = arranged("AC 2D 5H 6C 7D KS", "9S 10S JS", table="5S")
    assert {str(m) for m in game.legal_moves(state, 0)} == {
        "play KS", "play AC 7D", "play 7D AC", "play 2D 6C", "play 6C 2D",
        "play 2D 5H AC", "play AC 5H 2D", "play AC 2D 5H",
    }
    assert game.legal_moves(state, 1) == []


def test_a_combination_may_name_its_leading_cards_in_any_order() -> None:
    state = arranged("AC 2D 5H 6C", "9S 10S JS", table="5S")
    after = play(state, 0, "play 5H AC 2D")
    assert after.table[-3:] == parse_cards("AC 5H 2D")
    assert after.history == ((0, parse_cards("AC 5H 2D")),)
    assert after == play(state, 0, "play AC 5H 2D")


def test_a_play_draws_one_card_however_many_were_laid() -> None:
    state = arranged("AC 2D 5H 6C", "9S 10C JS", table="5S", stock="QD 3C")
    after = play(state, 0, "play 2D 6C")
    assert after.hands[0] == parse_cards("AC 5H QD")
    assert after.stock == parse_cards("3C")
    assert after.plays == (1, 0)
    assert game.to_act(after) == 1
    assert conserved(after)


def test_stealing() -> None:
    state = arranged("4C 4D", "6H 7H 7S 9D QC", table="5S", stock="AC 2C")
    state = play(state, 0, "play 4C 4D")
    assert (state.ending, state.ender, state.phase) == ("steal", 0, "final")
    assert state.hands[0] == ()
    assert state.stock == parse_cards("AC 2C")  # no draw after emptying the hand
    assert game.to_act(state) == 1
    assert all(m.kind == "discard" for m in game.legal_moves(state, 1))
    assert "steal" in game.view(state, 1)["prompt"] or "stole" in game.view(state, 1)["prompt"]
    state = play(state, 1, "discard QC")
    assert game.to_act(state) is None
    outcome = game.result(state)
    assert outcome.deltas == (6, 0)  # 6+7 twice, the pair of sevens
    assert outcome.summary["scored"] == [["6H", "7H", "7S", "9D"], []]
    assert state.hands == (parse_cards("6H 7H 7S 9D"), ())  # the stealer keeps the stolen cards
    assert conserved(state)


def test_a_player_who_cannot_play_ends_pegging_and_scores_nothing() -> None:
    state = arranged("5H 9C 10D", "2C 3C JD", table="", stock="4S AD")
    state = play(state, 0, "play 5H")
    # Nothing of 2C 3C JD goes on the 5H: no heart, no king, no 8, 2+3 is only 5.
    assert (state.ending, state.ender, state.phase) == ("stuck", 1, "final")
    assert state.hands[1] == ()
    assert set(state.discards[1]) == set(parse_cards("2C 3C JD"))
    assert game.to_act(state) == 0
    assert "cannot play" in state.last
    state = play(state, 0, "discard 10D")
    assert game.result(state).deltas == (2, 0)  # 4+9
    assert state.scored == (parse_cards("4S 9C"), ())
    assert conserved(state)


def test_being_stuck_on_a_king() -> None:
    state = arranged("KH 9C", "5C 6D 9S", table="3H", stock="AD 4S")
    state = play(state, 0, "play KH")
    # On a king: a heart, a king, or two or more cards making 13 themselves; 5+6 is 11.
    assert (state.ending, state.ender) == ("stuck", 1)


def test_the_stock_running_out_reshuffles_all_but_the_top_card() -> None:
    state = arranged("5H 9C", "KS 2S 3S", table="2H 7H 8H", stock="")
    assert state.stock == ()
    pool = state.waste + state.table  # after the play the 8H is no longer the top card
    after = play(state, 0, "play 5H")
    assert after.restocks == 1
    assert after.table == parse_cards("5H")
    assert after.waste == ()
    fresh = shuffled(state.seed, pool, "restock", 0)
    assert after.hands[0] == sort_cards((card("9C"), fresh[0]))
    assert after.stock == fresh[1:]
    assert conserved(after)
    # The next reshuffle uses the next label.
    emptied = replace(after, stock=())
    again = play(emptied, 1, "play KS")
    assert again.restocks == 2


def test_five_plays_each_end_pegging_and_the_leader_discards_first() -> None:
    state = arranged("KC 2D 3D", "KD 4H 5H", table="8C", leader=1, turn=0, plays=(4, 4))
    state = play(state, 0, "play KC")
    assert state.phase == "play"
    state = play(state, 1, "play KD")
    assert (state.phase, state.ending) == ("final", "plays")
    assert state.pending == (1, 0)
    state = play(state, 1, str(game.legal_moves(state, 1)[0]))
    state = play(state, 0, str(game.legal_moves(state, 0)[0]))
    assert state.phase == "over"
    assert game.result(state).deltas == tuple(game.score_hand(h) for h in state.hands)
    assert [len(h) for h in state.hands] == [2, 2]


@pytest.mark.parametrize(
    ("move", "seat"),
    [
        ("play 9S", 1),  # not their turn
        ("discard 2D", 0),  # wrong kind while pegging
        ("play 3C", 0),  # not held
        ("play 2D", 0),  # not a diamond on a spade, and 2+5 is not 13
        ("play KS 8D", 0),  # kings play alone
        ("play 2D 2D", 0),
        ("play", 0),
    ],
)
def test_illegal_moves_are_refused_and_change_nothing(move: str, seat: int) -> None:
    state = arranged("2D 6C 8D KS", "9S 10S JS", table="5S")
    before = json.dumps(game.to_json(state))
    with pytest.raises(IllegalMove) as error:
        game.apply(state, seat, Move.parse(move))
    assert error.value.reason
    assert json.dumps(game.to_json(state)) == before


def test_discarding_rules() -> None:
    state = game.new_round(CONFIG, "discards")
    seat = game.to_act(state)
    held = state.hands[seat]
    absent = next(c for c in FULL_DECK if c not in held)
    for bad in (Move("play", (held[0],)), Move("discard", held[:2]), Move("discard", (absent,)), Move("discard")):
        with pytest.raises(IllegalMove):
            game.apply(state, seat, bad)
    with pytest.raises(IllegalMove):
        game.apply(state, 1 - seat, Move("discard", (state.hands[1 - seat][0],)))


def test_nothing_is_played_after_the_end() -> None:
    state = arranged("4C 4D", "6H 7H", table="5S")
    state = play(play(state, 0, "play 4C 4D"), 1, "discard 6H")
    assert game.to_act(state) is None
    assert game.legal_moves(state, 0) == game.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove):
        play(state, 1, "discard 7H")


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError):
        game.result(game.new_round(CONFIG, "early"))


def test_views_show_the_viewer_what_they_may_see() -> None:
    state = arranged("2D 6C 8D KS", "9S 10S JS", table="5S")
    state = replace(state, discards=(parse_cards("3H"), parse_cards("QH")))
    mine = game.view(state, 0)
    assert mine["hand"] == ["2D", "6C", "8D", "KS"]
    assert mine["discards"] == ["3H"]
    assert mine["top"] == "5S"
    assert mine["hand_counts"] == [4, 3]
    assert "play KS" in mine["legal"]
    seen = cards_in(mine)
    assert not seen & set(parse_cards("9S 10S JS QH"))
    spectator = game.view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["discards"] == []
    assert cards_in(spectator) == {card("5S")}
    assert "record" not in mine
    assert state.seed not in json.dumps(mine)


def test_the_end_record_shows_everything() -> None:
    state = arranged("4C 4D", "6H 7H 7S 9D QC", table="5S")
    state = play(play(state, 0, "play 4C 4D"), 1, "discard QC")
    seen = game.view(state, None)
    assert seen["over"] and seen["result"]["scores"] == [6, 0]
    record = seen["record"]
    assert record["seed"] == state.seed
    assert record["scored"] == [["6H", "7H", "7S", "9D"], []]
    assert record["breakdowns"][0]["total"] == 6
    assert record["discards"][1] == ["QC"]


def test_matches_end_when_someone_reaches_the_target_ahead() -> None:
    def over(totals: tuple[int, int], config=CONFIG) -> tuple[bool, list[int]]:
        match = Match(number=5, dealer=1, totals=totals)
        return game.match_over(config, match), game.match_winners(config, match)

    assert over((99, 60)) == (False, [])
    assert over((100, 60)) == (True, [0])
    assert over((105, 103)) == (True, [0])
    assert over((103, 120)) == (True, [1])
    assert over((104, 104)) == (False, [])
    assert over((50, 49), SHORT) == (True, [0])
    assert over((50, 49)) == (False, [])


def finished(seed: str, match: Match | None = None) -> State:
    state = game.new_round(CONFIG, seed, match)
    while (seat := game.to_act(state)) is not None:
        state = game.apply(state, seat, game.legal_moves(state, seat)[-1])
    return state


def test_both_past_the_target_in_one_round() -> None:
    match = Match(number=9, dealer=1, totals=(95, 98))
    state = replace(finished("late", match), scores=(10, 6))
    after = game.next_match(CONFIG, match, state)
    assert after.totals == (105, 104)
    assert game.match_over(CONFIG, after)
    assert game.match_winners(CONFIG, after) == [0]


def test_a_tie_past_the_target_plays_another_round_led_by_a_cut() -> None:
    match = Match(number=9, dealer=1, totals=(95, 98))
    state = replace(finished("late", match), scores=(9, 6))
    after = game.next_match(CONFIG, match, state)
    assert after.totals == (104, 104)
    assert not game.match_over(CONFIG, after)
    assert game.match_winners(CONFIG, after) == []
    extra = game.new_round(CONFIG, "extra", after)
    assert extra.cut
    assert extra.leader == derive("extra", "cut", 11).randrange(2)


def test_the_deal_continues_from_round_to_round() -> None:
    config = CONFIG
    match = game.start_match(config, "match")
    assert (match.number, match.dealer, match.totals, match.carry) == (0, 1, (0, 0), None)
    state = finished("one", match)
    match = game.next_match(config, match, state)
    assert match.number == 1 and match.dealer == 1
    assert match.totals == state.scores
    json.dumps(match.to_json())
    kept = [parse_cards(h) for h in match.carry["hands"]]
    assert kept == [state.hands[0], state.hands[1]]
    following = game.new_round(config, "two", match)
    assert following.number == 2
    for seat in (0, 1):
        assert set(kept[seat]) <= set(following.hands[seat])
        assert len(following.hands[seat]) == 8
    assert conserved(following)
    assert following.restocks == state.restocks
    # The new cards come from the old stock (reshuffled with the new seed); nothing else moved.
    dealt = set(following.hands[0]) - set(kept[0]) | set(following.hands[1]) - set(kept[1])
    assert dealt | set(following.stock) == set(state.stock)
    assert set(following.waste) == set(state.waste) | set(state.table)


def test_short_of_cards_the_deal_gives_what_there_is() -> None:
    carry = {"hands": [[], []], "stock": ["2C", "3D", "4H", "5S", "6C"], "waste": [], "restocks": 0}
    state = game.new_round(CONFIG, "short", Match(number=1, dealer=1, totals=(0, 0), carry=carry))
    assert [len(h) for h in state.hands] == [3, 2]
    assert state.stock == ()
    while (seat := game.to_act(state)) is not None:
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert game.result(state).deltas == state.scores
