"""The Sheepshead bot: legal, blind to what its seat cannot see, and better than chance.

The tactics are checked on deals built to need them (bury the unprotected ten, smear the
partner's sure trick, keep the queen when the trick is lost, take a leaster trick cheaply), and
the whole bot against random players over 500 seeded hands, so a change that makes it play worse
shows up as a smaller margin.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest

from rules.engine import sheepshead as game
from rules.engine.cards import parse_cards
from rules.engine.moves import Move
from rules.engine.sheepshead import bot
from rules.engine.sheepshead.deck import sort_hand
from rules.engine.sheepshead.state import State


def dealt(players: int, hands: list[str], blind: str, **options: object) -> State:
    state = game.new_round(game.SPEC.make_config(players, options), "bot-fixed")
    cards = tuple(sort_hand(parse_cards(h)) for h in hands)
    return replace(state, hands=cards, table=replace(state.table, blind=sort_hand(parse_cards(blind))))


def go(state: State, *moves: str) -> State:
    for text in moves:
        state = game.apply(state, game.to_act(state), Move.parse(text))
    return state


def bot_move(state: State) -> str:
    seat = game.to_act(state)
    return str(bot.choose(game.view(state, seat), game.legal_moves(state, seat)))


# Seat 0 strong in trump, seat 3 holds the jack of diamonds, blind 8H 7H.
FIVE = [
    "QC QS QH JC AC 7C",
    "QD JS 10C KC 9C 8C",
    "JH AD 10D AS 10S KS",
    "JD KD 9D 9S 8S 7S",
    "8D 7D AH 10H KH 9H",
]


def play_with_one_bot(players: int, seed: str, bot_seat: int, rng: random.Random) -> tuple[int, ...]:
    state = game.new_round(game.SPEC.make_config(players), seed)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_moves(state, seat)
        move = bot.choose(game.view(state, seat), legal) if seat == bot_seat else rng.choice(legal)
        assert move in legal
        state = game.apply(state, seat, move)
    return game.result(state).deltas


def test_bot_beats_random_players_over_500_hands() -> None:
    rng = random.Random(2024)
    rounds = 500
    bot_total = 0
    random_total = 0
    for number in range(rounds):
        seat = number % 5
        deltas = play_with_one_bot(5, f"bot-vs-random-{number}", seat, rng)
        bot_total += deltas[seat]
        random_total += sum(deltas) - deltas[seat]
    bot_average = bot_total / rounds
    random_average = random_total / (rounds * 4)
    margin = bot_average - random_average
    print(f"\nsheepshead bot vs random (5 players, {rounds} hands): bot {bot_average:+.1f} c/hand, "
          f"random seats {random_average:+.1f} c/hand, margin {margin:+.1f} c/hand")
    assert bot_average > random_average
    assert bot_average > 0


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("partner", ["jack_of_diamonds", "none"])
def test_bots_only_make_legal_moves_and_finish(players: int, partner: str) -> None:
    cfg = game.SPEC.make_config(players, {"partner": partner})
    for number in range(15):
        state = game.new_round(cfg, f"all-bots-{number}")
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_moves(state, seat)
            view = game.view(state, seat)
            move = bot.choose(view, legal)
            assert move in legal
            # the bot reads nothing but the view's JSON data, and leaves the view as it was
            assert bot.choose(json.loads(json.dumps(view)), legal) == move
            assert view == game.view(state, seat)
            state = game.apply(state, seat, move)
        assert sum(game.result(state).deltas) == 0


def test_bot_picks_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = dealt(5, ["QC QS QH QD JC AC", "JS JH 10C KC 9C 8C", "JD AD 10D AS 10S KS",
                       "7C KD 9D 9S 8S 7S", "8D 7D AH 10H KH 9H"], "8H 7H")
    assert bot_move(strong) == "pick"
    weak = go(strong, "pass")  # seat 1: two jacks and clubs
    weak = replace(weak, hands=(weak.hands[0], sort_hand(parse_cards("7C 8C 9S 8S 7H 9H")), *weak.hands[2:]))
    assert bot_move(weak) == "pass"


def test_bot_buries_points_it_cannot_protect_and_keeps_trump() -> None:
    hands = ["QC QS QH QD JC 10S", "JS JH AC 10C KC 9C", "JD AD 10D AS KS 9S",
             "7C KD 9D 8S 7S 8C", "8D 7D 10H KH 9H 8H"]
    state = go(dealt(5, hands, "AH 7H"), "pick")
    assert bot_move(state) == "bury 10S"  # a ten without its ace, and burying it voids spades
    state = go(state, "bury 10S")
    assert bot_move(state) == "bury 7H"  # a low heart rather than the ace or any trump


def test_bot_never_buries_the_jack_of_diamonds() -> None:
    hands = ["QC QS QH JD JC JS", "AC 10C KC 9C 8C 7C", "AS 10S KS 9S 8S 7S",
             "AH 10H KH 9H 8H 7H", "JH AD 10D KD 9D 8D"]
    state = go(dealt(5, hands, "QD 7D"), "pick")  # all eight cards are trump
    first = bot_move(state)
    state = go(state, first)
    second = bot_move(state)
    assert {first, second} == {"bury 7D", "bury JS"}  # the two lowest trump but the jack of diamonds


def test_picker_leads_trump() -> None:
    state = go(dealt(5, FIVE, "8H 7H"), "pick", "bury 7C", "bury 8H")
    assert bot_move(state) == "play QC"


def test_bot_keeps_its_queen_when_the_trick_is_lost() -> None:
    hands = ["QC QH JC AC 7C 8H", "QS 7D 10C KC 9C 8C", "JH AD 10D AS 10S KS",
             "JD KD 9D 9S 8S 7S", "QD 8D AH 10H KH 9H"]
    state = go(dealt(5, hands, "JS 7H"), "pick", "bury 7C", "bury 8H", "play QC")
    assert bot_move(state) == "play 7D"  # QS cannot beat QC: keep it


def test_partner_smears_points_on_the_pickers_sure_trick() -> None:
    hands = ["QC QS QH JC AC 7C", "QD JS 10C KC 9C 8C", "JH KD 10D AS 10S KS",
             "JD AD 9D 9S 8S 7S", "8D 7D AH 10H KH 9H"]
    state = go(dealt(5, hands, "8H 7H"), "pick", "bury 7C", "bury 8H", "play QC", "play JS", "play JH")
    view = game.view(state, 3)
    assert view["you_are_partner"] is True
    assert bot_move(state) == "play AD"  # the ace of diamonds: eleven points onto a trick QC holds


def test_opponent_plays_low_under_the_pickers_ace() -> None:
    state = go(dealt(5, FIVE, "8H 7H"), "pick", "bury 7C", "bury 8H", "play AC")
    # seat 1 must follow clubs: the picker's ace is winning, so the lowest club goes
    assert bot_move(state) == "play 8C"


def test_last_seat_takes_a_trick_with_its_cheapest_sure_winner() -> None:
    hands = ["QC QH JC AC 7C 8H", "QS 7D 10C KC 9C 8C", "JH AD 10D AS 10S KS",
             "JD KD 9D 9S 8S 7S", "QD 8D AH 10H KH 9H"]
    state = go(dealt(5, hands, "JS 7H"), "pick", "bury 7C", "bury 8H", "play AC", "play 10C", "play 10S",
               "play 9S")
    # 31 points on the table, the picker's ace winning; seat 4 has no club and is last to play
    assert bot_move(state) == "play 8D"


LEASTER = [
    "8S AC 10C KC 9C 8C",
    "9S QC QS QH QD JC",
    "7C JS JH JD KD 9D",
    "7D 8D AH 10H KH 9H",
    "KS 7S 10S AD 10D 8H",
]


def test_leaster_bot_takes_one_cheap_trick_then_ducks() -> None:
    state = go(dealt(5, LEASTER, "AS 7H"), "pass", "pass", "pass", "pass", "pass",
               "play 8S", "play 9S", "play 7C", "play 9H")
    assert state.picker is None
    assert bot_move(state) == "play KS"  # no trick yet: take this pointless one with the king
    view = game.view(state, 4)
    ducking = copy.deepcopy(view)
    ducking["tricks_taken"][4] = 1
    assert str(bot.choose(ducking, game.legal_moves(state, 4))) == "play 7S"
