"""The search bots: guessed states agree with the view, choices repeat and are legal, nothing but the view
decides them, and the arena's duplicate rotation and interval arithmetic are right."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from rules.engine import arena, registry, search
from rules.engine.moves import Move
from rules.engine.search import view_key

TABLES = [("sheepshead", 3), ("sheepshead", 4), ("sheepshead", 5), ("sheepshead", 6), ("sheepshead", 7),
          ("hawk", 2), ("hawk", 4), ("hawk", 6), ("hawsker", 2), ("puskiyon", 2), ("puskiyon", 4)]

# View entries a guessed state may word differently without the seat having seen anything else: the `last`
# line of the move log (Hawsker's is copied as text; Puskiyon's is rebuilt only for the seat's own draw, the
# one last step that changes what may be played).
LOOSE = {"hawsker": {"last"}, "puskiyon": {"last"}}


def _json(view: dict) -> dict:
    return json.loads(json.dumps(view))  # exactly what a browser-side seat (or a bot) gets


def positions(key: str, players: int, rounds: int = 4, every: int = 3):
    """(state, seat) at many points of easy-bot rounds, including Hawsker's later rounds of a match."""
    game = registry.game(key)
    bot = registry.bot(key)
    config = game.SPEC.make_config(players)
    match = game.start_match(config, "m")
    for number in range(rounds):
        state = game.new_round(config, f"pos-{key}-{players}-{number}", match)
        step = 0
        turn = game.to_act(state)
        while turn is not None:
            if step % every == 0:
                yield state, turn
            state = game.apply(state, turn, bot.choose(game.view(state, turn), game.legal_moves(state, turn)))
            turn = game.to_act(state)
            step += 1
        match = game.next_match(config, match, state)


def check_ranked(key: str, positions_of) -> None:
    """A bot's `ranked` (the search's shortlist) puts its `choose` move first and lists every legal move once."""
    game = registry.game(key)
    bot = importlib.import_module(f"rules.engine.{key}.bot")
    checked = 0
    for state, seat in positions_of:
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        order = bot.ranked(view, legal)
        assert order[0] == bot.choose(view, legal)
        assert sorted(map(str, order)) == sorted(map(str, legal))
        checked += 1
    assert checked > 10


def determinizer(key: str):
    return importlib.import_module(f"rules.engine.{key}.determinize").determinize


@pytest.mark.parametrize(("key", "players"), TABLES)
def test_a_guessed_state_shows_the_seat_exactly_its_view(key: str, players: int) -> None:
    """Same hand, played cards, trick, counts, legal moves: the seat could not tell the guess from the truth."""
    game = registry.game(key)
    determinize = determinizer(key)
    loose = LOOSE.get(key, set())
    checked = 0
    for state, seat in positions(key, players):
        view = _json(game.view(state, seat))
        for sample in range(3):
            guess = determinize(view, random.Random(sample))
            again = _json(game.view(guess, seat))
            assert {k: v for k, v in again.items() if k not in loose} == {
                k: v for k, v in view.items() if k not in loose
            }
            # the same moves (Puskiyon lists plays in hand order, and a guessed hand is in display order)
            assert sorted(map(str, game.legal_moves(guess, seat))) == sorted(map(str, game.legal_moves(state, seat)))
            checked += 1
    assert checked > 20


def test_a_puskiyon_guess_deals_nobody_a_card_the_seat_saw_played() -> None:
    """Every card on the pile was played face up: the guess keeps the whole pile, not only the top cards the
    board shows, so no guessed hand or stock holds a card the seat has seen go down."""
    from rules.engine.puskiyon.view import RECENT

    game = registry.game("puskiyon")
    deep = 0
    for state, seat in positions("puskiyon", 4, rounds=3, every=1):
        guess = determinizer("puskiyon")(_json(game.view(state, seat)), random.Random(seat))
        assert guess.pile == state.pile
        hidden = [c for s, hand in enumerate(guess.hands) if s != seat for c in hand] + list(guess.stock)
        assert not set(hidden) & set(state.pile)
        deep += len(state.pile) > RECENT
    assert deep > 20


def _voids(key: str, view: dict) -> list[tuple[int, str]]:
    """(seat, suit) pairs the view shows: a card not of the led suit (Sheepshead: effective suit)."""
    players = view["players"]
    found = []
    if key == "hawk":
        tricks = [[(e["seat"], e["card"]) for e in t["cards"]] for t in view["history"]]
        suit = lambda text: text[-1]  # noqa: E731
    else:
        from rules.engine.cards import card
        from rules.engine.sheepshead.deck import SUIT
        from rules.engine.sheepshead.determinize import _tricks

        tricks = [[((lead + i) % players, str(c)) for i, c in enumerate(cards)] for lead, _w, cards in _tricks(view)]
        suit = lambda text: SUIT[card(text)]  # noqa: E731
    tricks.append([(e["seat"], e["card"]) for e in view["trick"]])
    for trick in tricks:
        for seat, text in trick[1:]:
            if suit(text) != suit(trick[0][1]):
                found.append((seat, suit(trick[0][1])))
    return found


@pytest.mark.parametrize(("key", "players"), [("sheepshead", 3), ("sheepshead", 5), ("hawk", 4), ("hawk", 3)])
def test_a_guessed_hand_holds_no_suit_its_player_has_shown_it_lacks(key: str, players: int) -> None:
    from rules.engine.cards import card
    from rules.engine.sheepshead.deck import SUIT

    game = registry.game(key)
    determinize = determinizer(key)
    shown = 0
    for state, seat in positions(key, players, rounds=6, every=2):
        view = _json(game.view(state, seat))
        voids = _voids(key, view)
        shown += len(voids)
        for sample in range(4):
            guess = determinize(view, random.Random(sample))
            for other, lacking in voids:
                if other == seat:
                    continue
                suits = [c[1] if key == "hawk" else SUIT[card(str(c))] for c in guess.hands[other]]
                assert lacking not in suits
    assert shown > 0


def test_the_pickers_guess_gives_the_jack_of_diamonds_to_a_partner_until_it_falls() -> None:
    """The picker who does not hold the jack of diamonds knows someone else does: every guess seats it in
    another hand, and that hand is the guess's partner (so the guessed round settles like the real one)."""
    from rules.engine.sheepshead.deck import JACK_OF_DIAMONDS

    game = registry.game("sheepshead")
    determinize = determinizer("sheepshead")
    found = 0
    for state, seat in positions("sheepshead", 5, rounds=12, every=1):
        view = _json(game.view(state, seat))
        if state.phase == "play" and seat == state.picker and view["partner_status"] == "unknown":
            found += 1
            for sample in range(3):
                guess = determinize(view, random.Random(sample))
                holder = next(s for s, h in enumerate(guess.hands) if JACK_OF_DIAMONDS in h)
                assert holder != seat and guess.partner == holder
    assert found > 0


@pytest.mark.parametrize("key", registry.GAME_KEYS)
def test_every_level_is_legal_and_repeats_for_a_seed(key: str) -> None:
    game = registry.game(key)
    bot = importlib.import_module(f"rules.engine.{key}.bot")
    players = 2 if key == "hawsker" else 4
    for level in ("easy", "normal", "strong"):
        first = bot.chooser(level, "seed-1")
        again = bot.chooser(level, "seed-1")
        for number, (state, seat) in enumerate(positions(key, players, rounds=1, every=4)):
            if number > 6:
                break
            legal = game.legal_moves(state, seat)
            view = _json(game.view(state, seat))
            move = first(view, legal)
            assert move in legal
            assert again(_json(game.view(state, seat)), legal) == move
    with pytest.raises(ValueError):
        bot.chooser("grandmaster", "s")


@pytest.mark.parametrize(("key", "players"), [("sheepshead", 5), ("hawk", 4), ("hawsker", 2), ("puskiyon", 4)])
def test_two_true_states_with_one_view_get_one_decision(key: str, players: int) -> None:
    """No cheating: the chooser gets (view, legal) only. Two different deals of the hidden cards that give the
    seat the same view (the second is a guess made from the first's view) get the same move from the search."""
    game = registry.game(key)
    determinize = determinizer(key)
    bot = importlib.import_module(f"rules.engine.{key}.bot")
    compared = 0
    for state, seat in positions(key, players, rounds=2, every=5):
        legal = game.legal_moves(state, seat)
        if len(legal) < 2:
            continue
        view = _json(game.view(state, seat))
        other = determinize(view, random.Random(99))
        if key != "puskiyon":  # Puskiyon's hands may happen to match; the others' hidden cards are many
            assert [tuple(h) for h in other.hands] != [tuple(h) for h in state.hands] or key == "hawsker"
        other_view = _json(game.view(other, seat))
        loose = LOOSE.get(key, set())
        assert {k: v for k, v in other_view.items() if k not in loose} == {
            k: v for k, v in view.items() if k not in loose
        }
        other_view.update({k: view[k] for k in loose})
        choose = bot.chooser("normal", "same")
        assert choose(view, legal) == choose(other_view, game.legal_moves(other, seat))
        compared += 1
        if compared >= 3:
            break
    assert compared > 0


def test_the_view_key_ignores_dict_order_but_not_content() -> None:
    assert view_key({"a": 1, "b": [1, 2]}) == view_key({"b": [1, 2], "a": 1})
    assert view_key({"a": 1}) != view_key({"a": 2})


def test_the_arena_puts_bot_a_in_every_seat_once_per_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    tables: list[list[str]] = []
    real = arena.make_chooser
    current: list[str] = []

    def recording(game: str, bot: str, seed: str):
        current.append(bot)
        if len(current) == 4:
            tables.append(list(current))
            current.clear()
        return real(game, "easy", seed)

    monkeypatch.setattr(arena, "make_chooser", recording)
    arena.duplicate_deal("hawk", 4, "strong", "random", "rot")
    assert tables == [["strong", "random", "random", "random"], ["random", "strong", "random", "random"],
                      ["random", "random", "strong", "random"], ["random", "random", "random", "strong"]]


def test_a_bot_against_itself_scores_exactly_zero_on_duplicate_deals() -> None:
    outcome = arena.run("sheepshead", 3, "easy", "easy", 3, "zero")
    assert outcome.results == (0.0, 0.0, 0.0)
    assert outcome.interval == (0.0, 0.0)


def test_the_interval_is_the_mean_plus_or_minus_1_96_standard_errors() -> None:
    outcome = arena.Outcome("hawk", 4, "a", "b", (1.0, 2.0, 3.0, 4.0), 0.0)
    assert outcome.mean == 2.5
    # sample standard deviation sqrt(5/3); standard error sqrt(5/3)/2
    assert outcome.half_width == pytest.approx(1.96 * (5 / 3) ** 0.5 / 2)
    assert "| hawk | 4 | a | b | 4 | +2.500 |" in outcome.row()


def test_the_arena_prints_a_table_for_a_tiny_run(capsys: pytest.CaptureFixture[str]) -> None:
    arena.main(["--all", "--deals", "1", "--games", "puskiyon:2", "--pairings", "easy:random"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| game |") and out[2].startswith("| puskiyon | 2 | easy | random | 1 |")


def test_the_random_bot_is_legal_and_repeats() -> None:
    choose = arena.random_chooser("r")
    legal = [Move("pick"), Move("pass")]
    assert choose({"x": 1}, legal) == choose({"x": 1}, legal) in legal


def test_the_sheepshead_bot_decides_the_same_from_its_short_view() -> None:
    """Playouts give the easy bot `bot_view`, the fields it reads; its choices must not change."""
    from rules.engine.sheepshead import bot
    from rules.engine.sheepshead.views import bot_view

    game = registry.game("sheepshead")
    for players in (3, 5, 6):
        for state, seat in positions("sheepshead", players, rounds=3, every=1):
            legal = game.legal_moves(state, seat)
            assert bot.choose(bot_view(state, seat), legal) == bot.choose(game.view(state, seat), legal)


@pytest.mark.parametrize(("key", "players"), [("puskiyon", 2), ("puskiyon", 4), ("hawsker", 2)])
def test_the_bot_decides_the_same_from_its_short_view(key: str, players: int) -> None:
    """Puskiyon's and Hawsker's playouts give the easy bot `bot_view` too: its choices must not change."""
    bot = registry.bot(key)
    game = registry.game(key)
    views = importlib.import_module(f"rules.engine.{key}.{'view' if key == 'puskiyon' else 'views'}")
    checked = 0
    for state, seat in positions(key, players, rounds=4, every=1):
        legal = game.legal_moves(state, seat)
        assert bot.choose(views.bot_view(state, seat), legal) == bot.choose(game.view(state, seat), legal)
        checked += len(legal) > 1
    assert checked > 40


def test_a_guessed_hawsker_state_holds_every_card_once_after_reshuffles_too() -> None:
    """After a reshuffle a seat's own discard can come back into its hand or onto the pile; the guess dealt it into
    the stock as well, and a playout drawing the copy played one card twice (the arena's search raised IllegalMove
    1 guess in 100, always after a restock)."""
    from collections import Counter

    from rules.engine.hawsker.determinize import determinize

    restocked = 0
    for state, seat in positions("hawsker", 2, rounds=60, every=2):
        guess = determinize(game_view("hawsker", state, seat), random.Random(len(state.history)))
        cards = Counter([*guess.hands[0], *guess.hands[1], *guess.stock, *guess.table, *guess.waste])
        assert max(cards.values()) == 1, f"dealt twice: {[c for c, n in cards.items() if n > 1]}"
        restocked += state.restocks > 0
    assert restocked > 50


def game_view(key: str, state, seat: int):
    return registry.game(key).view(state, seat)


def test_hawskers_stuck_chance_agrees_with_can_play_on_every_top_card() -> None:
    """The bot's quick count of unanswerable top cards is `can_play`'s answer for each of them."""
    from rules.engine.cards import FULL_DECK
    from rules.engine.hawsker import bot
    from rules.engine.hawsker.scoring import can_play, sort_cards

    rng = random.Random(13)
    for _hand in range(3000):
        hand = rng.sample(FULL_DECK, rng.randint(0, 8))
        unseen = [c for c in FULL_DECK if c not in hand]
        slow = sum(1 for top in unseen if not can_play(top, sort_cards(hand))) / len(unseen)
        assert bot._stuck_chance(hand, unseen) == slow


def test_hawskers_best_kept_five_is_the_best_score_of_any_five_of_the_cards() -> None:
    """The bot's value-keyed best five agrees with scoring every five, flushes included (half the hands
    are drawn from two suits, so five of a suit come up often)."""
    from itertools import combinations

    from rules.engine.cards import FULL_DECK
    from rules.engine.hawsker import bot
    from rules.engine.hawsker.scoring import score_hand

    rng = random.Random(5)
    flushes = 0
    for number in range(2000):
        pool = FULL_DECK if number % 2 else [c for c in FULL_DECK if c.suit in {"H", "S"}]
        hand = rng.sample(pool, rng.randint(6, 9))
        slow = max(score_hand(five) for five in combinations(hand, 5))
        assert bot._best_score(hand) == slow, hand
        flushes += any(len({c.suit for c in five}) == 1 for five in combinations(hand, 5))
    assert flushes > 300


def test_the_arena_gives_the_same_results_in_two_processes_as_in_one() -> None:
    one = arena.run("sheepshead", 3, "easy", "random", 6, "jobs")
    two = arena.run("sheepshead", 3, "easy", "random", 6, "jobs", jobs=2)
    assert one.results == two.results
    assert len(set(one.results)) > 1  # different deals, so an order mix-up would show


def test_the_paired_gain_is_the_mean_difference_and_its_standard_error() -> None:
    gain, error = search.paired_gain([3.0, 5.0, 4.0], [1.0, 4.0, 1.0])  # differences 2, 1, 3
    assert gain == pytest.approx(2.0)
    assert error == pytest.approx((1.0 / 3) ** 0.5)  # sample variance 1, three guesses
    assert search.paired_gain([1.0], [0.0]) == (1.0, float("inf"))  # one guess is no evidence


@pytest.mark.parametrize("key", ["sheepshead", "puskiyon"])
def test_the_search_leaves_the_policys_move_only_on_evidence(key: str) -> None:
    """Without a margin the search plays the best mean of its play-outs; with an unreachable margin it plays
    exactly its policy's move; with the club's margin it departs from the policy only where the best move's
    paired gain clears the margin, and then plays that move."""
    game = registry.game(key)
    bot = importlib.import_module(f"rules.engine.{key}.bot")
    budget = 60
    departed = 0
    for state, seat in list(positions(key, 4, rounds=2, every=2))[:14]:
        legal = game.legal_moves(state, seat)
        if len(legal) < 2:
            continue
        view = _json(game.view(state, seat))
        policy = bot.choose(view, legal)
        assert search.pimc_chooser(bot.SEARCH, budget, "m", margin=float("inf"))(view, legal) == policy
        values = search.evaluate(bot.SEARCH, view, legal, max(1, budget // len(legal)),
                                 random.Random(f"club|{view_key(view)}"))
        gains = {move: search.paired_gain(values[i], values[legal.index(policy)])
                 for i, move in enumerate(legal) if move != policy}
        clear = {move: gain for move, (gain, error) in gains.items() if gain > search.MARGIN * error + 1e-9}
        expected = max(clear, key=clear.__getitem__) if clear else policy
        assert search.pimc_chooser(bot.SEARCH, budget, "club")(view, legal) == expected
        departed += expected != policy
        best = max(range(len(legal)), key=lambda i: (sum(values[i]), legal[i] == policy))
        if max(sum(v) for v in values) > sum(values[legal.index(policy)]) + 1e-9:
            assert search.pimc_chooser(bot.SEARCH, budget, "club", margin=0.0)(view, legal) == legal[best]
    if key == "sheepshead":  # Puskiyon's play-outs seldom clear the margin: there it guards, here it also acts
        assert departed > 0, "no position where the search found a clear gain: the test shows nothing"
