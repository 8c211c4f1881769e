"""The board in German: every game's board, on the member's turn in mid-round and after the round, speaks German
(the engine's prompts and facts, the board's own words, money in German number format) and none of the English
the board says in English. Refusals (an illegal card, a move out of turn) come back in German too.

Only what a person reads is scanned: the text between tags and the aria-label and title attributes. The moves'
own texts in data-move and hx-vals ("play 7H") are the protocol, not words for people, and stay as they are.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from rules.engine import registry
from tables.play.rendering import forget_boards, render_board
from tables.play.templatetags import dollars, money
from tests.tables.helpers import PLAYERS, current_round, full_table, legal_for, play_one, seat_to_act

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_restored():
    """A German request leaves German active in this thread (LocaleMiddleware activates, nothing deactivates):
    put back what was active, so the tests after these read English as before."""
    with translation.override(translation.get_language()):
        yield

# English the board says, any of which on a German board means a string was left untranslated.
ENGLISH_MARKERS = (
    "Your hand", "Your turn", "Your lead", "Your moves", "Waiting for", "Take a seat", "House rules", "Card order",
    "What happened", "the result", "Match total", "This round", "Player", " played ", "took the trick",
    "takes trick", "Trick ", " of clubs", " of diamonds", " of hearts", " of spades", " pips", " points",
    "Picker", "Leaster", "leaster", "Score sheet", "Ready for", "Leave (", "Seat ", "seat ", "dealer", "(you)",
    "Round ", "round ", "Stake", "blind", "the stock", "stock ", "Game to", "match to", "Factor",
    "Last trick", "No card", "Cards on the table", "top card", "Plays:", "Hand scored", "went out", "nothing",
    "Kings", "Pairs", "Runs", "Total", "Points", "Rate", "partner:", "won by", "tied", "All the rules",
    "Time per turn", "Bot speed", "Grace", "Deal commitment", "seed, now public", "check that", "The match is over",
    "Won by", "may trump", " led ", "first trick", "Tricks and pips", "to each LAFH", "Pick up", "Bury",
    "Discard", "Follow", "discarded", "drew", "passed", "buried", "You ", "yes", " no<", "The table",
)

# How a German prompt on the member's own turn begins, per game.
GERMAN_TURN = {
    "hawk": ("Du spielst aus", "Du bist dran"),
    "sheepshead": ("Du spielst aus", "Bediene", "Du kannst", "Nimm die Blinde", "Drück"),
    "hawsker": ("Spiel eine beliebige Karte aus", "Leg auf", "Wirf", "Das Anlegen ist vorbei"),
    "puskiyon": ("Du bist dran", "Du hast"),
}


class _Readable(HTMLParser):
    """What a person reads: text between tags, and the aria-label and title of every element."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.prompts: list[str] = []
        self._in_prompt = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.parts.extend(value for name, value in attrs if name in ("aria-label", "title") and value)
        self._in_prompt = "prompt" in (found.get("class") or "").split()

    def handle_endtag(self, tag: str) -> None:
        self._in_prompt = False

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        if self._in_prompt:
            self.prompts.append(data.strip())


def readable(html: str) -> _Readable:
    parser = _Readable()
    # The board's own aria-label ("The table") is translated like the rest and scanned with it.
    # The card-order key is the rules page's own lines (rules.card_order), translated with the rules pages.
    parser.feed(re.sub(r'<details class="card-order">.*?</details>', "", html, flags=re.S))
    return parser


def english_left(html: str) -> list[str]:
    text = " ".join(readable(html).parts)
    text = re.sub(r"\s+", " ", text) + "<"
    return [marker for marker in ENGLISH_MARKERS if marker in text.replace(" no ", " no<")]


NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Erika"]


def _table(make_member, game: str):
    members = [make_member(f"m{i}", display_name=NAMES[i]) for i in range(PLAYERS[game])]
    return full_table(game, members), members


def _to_my_turn_mid_round(table, members, rng: random.Random) -> None:
    """Moves at random until seat 0 is to act again after some play."""
    by_seat = dict(enumerate(members))
    for made in range(400):
        table.refresh_from_db()
        if made >= len(members) + 1 and seat_to_act(table) == 0 and len(legal_for(table, 0)) > 1:
            return
        assert play_one(table, by_seat, rng), "the round ended before the member's turn came round"
    raise AssertionError("never the member's turn")


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_the_board_mid_round_and_after_it_speaks_german(make_member, game: str) -> None:
    table, members = _table(make_member, game)
    rng = random.Random(5)
    _to_my_turn_mid_round(table, members, rng)
    forget_boards()
    with translation.override("de"):
        html = render_board(table, members[0])
    page = readable(html)
    prompt = " ".join(page.prompts)
    assert prompt.startswith(GERMAN_TURN[game]), prompt
    assert "Deine Karten" in html and "Kartenreihenfolge" in html and "Hausregeln" in html
    assert not english_left(html), english_left(html)
    with translation.override("en"):  # the same board in English is unchanged
        english = render_board(table, members[0])
    assert "Your hand" in english and "Deine Karten" not in english

    by_seat = dict(enumerate(members))
    while play_one(table, by_seat, rng):
        pass
    assert current_round(table).over
    forget_boards()
    with translation.override("de"):
        html = render_board(table, members[0])
    assert "das Ergebnis" in html and "Partie gesamt" in html
    assert not english_left(html), english_left(html)


def test_money_is_the_clubs_dollars_in_the_readers_number_format() -> None:
    with translation.override("en"):
        assert (dollars(1250), money(1250), money(-5)) == ("$12.50", "+$12.50", "-$0.05")
    with translation.override("de"):
        assert (dollars(1250), money(1250), money(-5)) == ("12,50 $", "+12,50 $", "-0,05 $")


def _german(user: User) -> Client:
    client = Client(headers={"accept-language": "de"})
    client.force_login(user)
    return client


def _off_suit_when_bound_to_follow(table) -> tuple[int, str] | None:
    """(seat to act, an off-suit card it holds) when that seat must follow the led suit and could break the rule."""
    game = registry.game("hawk")
    state = game.from_json(current_round(table).state)
    if not state.table or state.turn is None:
        return None
    led = state.table[0].suit
    hand = state.hands[state.turn]
    off_suit = next((c for c in hand if c.suit != led), None)
    if off_suit is None or not any(c.suit == led for c in hand):
        return None
    return state.turn, str(off_suit)


def test_an_illegal_card_is_refused_in_german(make_member) -> None:
    table, members = _table(make_member, "hawk")
    rng = random.Random(2)
    found = None
    while found is None:  # play on until the seat to act must follow suit and holds a card that does not
        assert play_one(table, dict(enumerate(members)), rng)
        table.refresh_from_db()
        found = _off_suit_when_bound_to_follow(table)
    seat, off_suit = found
    response = _german(members[seat]).post(reverse("move", args=[table.code]),
                                           {"move": f"play {off_suit}", "version": table.version},
                                           headers={"HX-Request": "true"})
    text = response.content.decode()
    assert "Du musst bedienen" in text, text
    assert "You must follow suit" not in text


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_move_out_of_turn_is_refused_in_german_with_the_players_name(make_member, game: str) -> None:
    table, members = _table(make_member, game)
    seat = seat_to_act(table)
    waiter = members[(seat + 1) % len(members)]
    response = _german(waiter).post(reverse("move", args=[table.code]),
                                    {"move": legal_for(table, seat)[0], "version": table.version},
                                    headers={"HX-Request": "true"})
    text = response.content.decode()
    assert NAMES[seat] in text
    assert "nicht dran" in text or "ist dran" in text, text
    assert "not your turn" not in text and not re.search(r"\b[Ss]eat \d", text)
