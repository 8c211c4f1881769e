"""Suits in words and symbols on the table, and each game's card order one tap away.

The facts line above the trick says the led suit and the trump as people say them ("led ♠ spades ·
♣ clubs may trump"), never as the engine's letters. Every board carries a short card-order key
(`details.card-order`), and it says exactly what the game's rules page says: both are read from the
rendered HTML and compared line by line. The key's orders are also checked against the engine's own
tables, so the one source the two pages share is right about the game, not only consistent.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rules.engine import registry
from rules.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, card
from rules.engine.hawk import deck as hawk_deck
from rules.engine.sheepshead import deck as sheepshead_deck
from tables.models import Table
from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import face
from tests.tables.helpers import PLAYERS, current_round, full_table, play_one

pytestmark = pytest.mark.django_db

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_CARD_TEXT = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b")  # the engine's card text: 7H, 10D
_LONE_SUIT_LETTER = re.compile(r"(?<![\w♣♦♥♠])[CDHS](?![\w♣♦♥♠])")  # "led: S"


class _Within(HTMLParser):
    """The text inside every element with class `wanted`, and the (dt, dd) pairs of the lists inside it."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.texts: list[list[str]] = []
        self.pairs: list[list[tuple[str, str]]] = []
        self._open: list[tuple[str, bool]] = []
        self._depth = 0  # open elements with the class
        self._cell: list[str] | None = None
        self._term = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        marked = self.wanted in (dict(attrs).get("class") or "").split()
        if marked and not self._depth:
            self.texts.append([])
            self.pairs.append([])
        self._depth += marked
        self._open.append((tag, marked))
        if self._depth and tag in ("dt", "dd"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, marked = self._open.pop()
            if self._depth and opened in ("dt", "dd") and self._cell is not None:
                text = " ".join("".join(self._cell).split())
                if opened == "dt":
                    self._term = text
                else:
                    self.pairs[-1].append((self._term, text))
                self._cell = None
            self._depth -= marked
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.texts[-1].append(data)
            if self._cell is not None:
                self._cell.append(data)


def within(html: str, wanted: str) -> _Within:
    parser = _Within(wanted)
    parser.feed(html)
    return parser


def texts_of(html: str, wanted: str) -> list[str]:
    return [" ".join("".join(parts).split()) for parts in within(html, wanted).texts]


def key_lines(html: str) -> list[tuple[str, str]]:
    found = within(html, "card-order")
    assert len(found.pairs) == 1, f"expected one card-order key, found {len(found.pairs)}"
    assert found.pairs[0], "the card-order key lists nothing"
    return found.pairs[0]


def rules_page(game: str) -> str:
    response = Client().get(reverse("rules_game", args=[game]))
    assert response.status_code == 200
    return response.content.decode()


def board(table: Table, viewer: User) -> str:
    forget_boards()
    return render_board(table, viewer)


def said(suit: str) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def play_until(table: Table, members: dict[int, User], rng: random.Random, done) -> None:
    for _ in range(200):
        if done():
            return
        assert play_one(table, members, rng), "no member was to act"
    raise AssertionError("the round never got there")


def state_of(table: Table):
    game = registry.game(table.game)
    return game.from_json(current_round(table).state)


# The facts line says suits in words and symbols


def test_hawk_facts_say_the_led_suit_and_the_trump_in_words_and_symbols(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    watcher = make_member("watcher")
    table = full_table("hawk", [alice, bob])
    play_one(table, {0: alice, 1: bob}, random.Random(2))  # the lead: one card on the table
    led = state_of(table).table[0].suit
    trump = hawk_deck.TRUMPED_BY[led]

    for viewer in (alice, bob, watcher):
        facts = " ".join(texts_of(board(table, viewer), "game-facts"))
        assert f"led {said(led)}" in facts
        assert f"{said(trump)} may trump" in facts
        assert not _LONE_SUIT_LETTER.search(facts), facts
        assert "led:" not in facts and "may trump with:" not in facts


def test_the_suit_symbol_in_a_facts_line_is_for_the_eye_and_the_word_for_the_ear(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawk", [alice, bob])
    play_one(table, {0: alice, 1: bob}, random.Random(2))
    led = state_of(table).table[0].suit
    html = board(table, alice)
    facts_html = html[html.index('class="game-facts"'):html.index("</div>", html.index('class="game-facts"'))]
    # The word is read out; the symbol beside it is hidden from screen readers (no "black spade suit spades").
    assert re.search(rf'<span class="suit-mark[^"]*" aria-hidden="true">{SUIT_SYMBOLS[led]}</span>\s*{SUIT_NAMES[led]}',
                     facts_html), facts_html


def test_sheepshead_facts_say_the_led_suit_in_words_and_symbols(make_member) -> None:
    members = [make_member(name, display_name=name.title()) for name in ("alice", "bob", "carla")]
    table = full_table("sheepshead", members)
    by_seat = dict(enumerate(members))
    play_until(table, by_seat, random.Random(4), lambda: bool(state_of(table).trick))
    first = state_of(table).trick[0]
    led = sheepshead_deck.SUIT[first]
    facts = " ".join(texts_of(board(table, members[0]), "game-facts"))
    if led == sheepshead_deck.TRUMP:
        assert "led trump" in facts
    else:
        assert f"led {said(led)}" in facts
    assert not _LONE_SUIT_LETTER.search(facts) and not _CARD_TEXT.search(facts), facts


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_no_facts_line_speaks_in_suit_letters_nor_the_felt_in_card_codes(make_member, game) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    others = [make_member(f"m{n}", display_name=f"Member {n}") for n in range(PLAYERS[game] - 2)]
    members = dict(enumerate([alice, bob, *others]))
    table = full_table(game, list(members.values()))
    rng = random.Random(7)
    for _ in range(12):
        html = board(table, alice)
        facts = " ".join(texts_of(html, "game-facts"))
        assert facts
        assert not _LONE_SUIT_LETTER.search(facts), facts
        # Nor anything else on the felt but the engine's own prompt (tables.play.selectors passes it on as it is).
        [felt] = texts_of(html, "felt")
        for prompt in texts_of(html, "prompt"):
            felt = felt.replace(prompt, "")
        assert not _CARD_TEXT.search(felt), felt
        table.refresh_from_db()
        if current_round(table).over or not play_one(table, members, rng):
            break


def test_the_last_trick_line_names_its_cards_in_words_for_screen_readers(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawk", [alice, bob])
    play_until(table, {0: alice, 1: bob}, random.Random(5),
               lambda: bool(state_of(table).tricks) and bool(state_of(table).table))  # a trick taken, the next led
    taken = state_of(table).tricks[-1].cards
    html = board(table, bob)
    line = html[html.index('class="small last-trick-line"'):]
    line = line[: line.index("</p>")]
    for played in taken:
        c = face(str(played))
        assert f'<span aria-hidden="true">{c.rank}{c.symbol}</span><span class="sr-only">{c.name}</span>' in line
    assert not _CARD_TEXT.search(line)


# The card-order key: on every board, the same as the rules page, true to the engine


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_every_board_carries_the_card_order_of_its_rules_page(make_member, game) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table(game, [alice, bob], bots=PLAYERS[game] - 2)
    on_the_rules_page = key_lines(rules_page(game))
    for viewer in (alice, make_member("watcher")):
        html = board(table, viewer)
        assert key_lines(html) == on_the_rules_page
        details = re.search(r'<details class="card-order"[^>]*>\s*<summary>([^<]*)</summary>', html)
        assert details and details.group(1).strip() == "Card order"  # folded: one tap opens it
        assert within(html, "game-facts").pairs == [on_the_rules_page]  # it sits with the game's facts


def _line(lines: list[tuple[str, str]], start: str) -> str:
    found = [text for label, text in lines if label.lower().startswith(start)]
    assert len(found) == 1, (start, lines)
    return found[0]


def test_hawks_key_says_the_ace_is_high_and_which_suit_trumps_which() -> None:
    lines = key_lines(rules_page("hawk"))
    ranks = _line(lines, "each suit")
    strongest_first = sorted(hawk_deck.RANKS, key=lambda rank: hawk_deck.PIPS[card(rank + "S")])
    assert ranks.split()[: len(strongest_first)] == strongest_first  # A 2 3 … 10, as the engine ranks them
    assert "ace" in ranks and "high" in ranks
    trumps = _line(lines, "trump")
    for led, trump in hawk_deck.TRUMPED_BY.items():
        assert f"{said(trump)} beat {said(led)}" in trumps


_RANK_WORDS = {"queens": "Q", "jacks": "J"}
_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def trump_named(text: str) -> list[str]:
    """The cards a key's trump line names, in its order: "queens ♣ ♠ · ♦ diamonds A 10" is QC QS AD 10D."""
    named = []
    for group in text.split("·"):
        words = group.split()
        symbols = [_SUIT_BY_SYMBOL[w] for w in words if w in _SUIT_BY_SYMBOL]
        if words[0] in _RANK_WORDS:
            named += [_RANK_WORDS[words[0]] + suit for suit in symbols]
        else:
            assert len(symbols) == 1, group
            named += [w + symbols[0] for w in words if w in sheepshead_deck.RANKS]
    return named


def test_sheepsheads_key_ranks_trump_and_the_other_suits_as_the_engine_does() -> None:
    lines = key_lines(rules_page("sheepshead"))
    by_power = sorted(sheepshead_deck.TRUMP_ORDER, key=lambda c: -sheepshead_deck.POWER[c])
    assert trump_named(_line(lines, "trump")) == [str(c) for c in by_power]
    fail = [text for label, text in lines if all(SUIT_NAMES[s] in label for s in sheepshead_deck.FAIL_SUITS)]
    assert len(fail) == 1
    for suit in sheepshead_deck.FAIL_SUITS:
        ranked = sorted((c for c in sheepshead_deck.DECK if sheepshead_deck.SUIT[c] == suit),
                        key=lambda c: -sheepshead_deck.POWER[c])
        assert fail[0].split()[: len(ranked)] == [c.rank for c in ranked]
    points = _line(lines, "points")
    for rank, count in sheepshead_deck.CARD_POINTS.items():
        assert (f"{rank} {count}" in points) if count else re.search(rf"\b{rank}\b[^·]*none", points)


def test_the_shedding_games_keys_give_the_values_the_engine_counts() -> None:
    from rules.engine.hawsker.scoring import RANK_VALUE
    from rules.engine.puskiyon.scoring import RANK_POINTS

    hawsker = _line(key_lines(rules_page("hawsker")), "values")
    for rank in ("A", "J", "Q", "K"):
        assert f"{rank} {RANK_VALUE[rank]}" in hawsker
    puskiyon = _line(key_lines(rules_page("puskiyon")), "points")
    assert f"A {RANK_POINTS['A']}" in puskiyon
    assert f"J, Q, K {RANK_POINTS['J']}" in puskiyon and RANK_POINTS["J"] == RANK_POINTS["Q"] == RANK_POINTS["K"]
