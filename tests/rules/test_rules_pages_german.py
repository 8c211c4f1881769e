"""The rules pages in German (issue 23): a German reader gets the German page of every game, in a card player's
words and with no English left in what the rules pages say, and both languages state the same numbers.

The numbers are compared, not trusted: every table's numbers, in order, and every passage marked
`data-fact="name"` (the numbers in it, in order) must be the same on the English and the German page of a game,
and some of them are checked against the engine too. Hawk's worked examples (`data-check`) are worked out by the
engine for the German page as for the English one (tests/rules/test_rules_pages.py).

The spec's own texts (title, blurb, option labels) are the engine's (rules/engine/*/spec.py) and translated
through the catalogue; they are left out of the English-marker scan here, which is about the rules pages' words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import rules.engine.hawk as hawk
from rules.card_order import key_for
from rules.engine import registry
from rules.engine.cards import FULL_DECK, parse_cards
from rules.engine.hawsker import spec as hawsker_spec
from rules.engine.puskiyon import hand_size as puskiyon_hand_size
from rules.engine.puskiyon.spec import SPEC as PUSKIYON
from rules.engine.sheepshead import deck as sheepshead_deck
from rules.engine.text import said
from rules.templatetags import say
from rules.views import page_templates
from tests.rules.test_rules_pages import checked_numbers, worked_out
from tests.tables import fifth_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    """A request in German leaves German active in this thread (LocaleMiddleware activates, nothing deactivates):
    back to the default after each test, so no later test reads German by accident."""
    with translation.override(None):
        yield

GAMES = ("hawk", "sheepshead", "hawsker", "puskiyon")

GERMAN_TERMS = {
    "hawk": ["LAFH", "NOB", "Stich", "Augen", "Bedienpflicht", "Kreuz schlägt Pik", "Geber", "Solo", "Trumpf"],
    "sheepshead": ["Partner: Karo-Bube", "Trumpf", "Augen", "Blinde", "drückt", "schmier", "Kreuz-Dame", "1,33 $",
                   "Rufspiel", "Geber"],
    "hawsker": ["Talon", "Straße", "gestohlen", "Abheben", "König", "Dame", "Bube"],
    "puskiyon": ["Talon", "Ablagestapel", "Blockiert", "niedrigsten", "Geber", "Pik König"],
}
FRAME_TERMS = ["Die Rangfolge der Karten auf einen Blick", "Tischoptionen", "Im Club üblich", "Was sie bewirkt"]

# English words a German page must not contain: the commonest English words (none is a German word) and the
# rules pages' own English terms. Matched as whole words, ignoring case.
ENGLISH_WORDS = [
    "the", "and", "of", "you", "your", "with", "is", "are", "to", "for", "when", "which", "each", "player", "players",
    "trick", "tricks", "pips", "points", "trump", "follow", "suit", "dealer", "deal", "lead", "leads", "round",
    "match", "picker", "bury", "blind", "stake", "stakes", "partner's", "pegging", "stock", "discard", "stolen",
    "ace", "king", "queen", "jack", "clubs", "spades", "hearts", "diamonds", "example", "default", "options",
    "glance", "went out", "highest", "strongest",
]
ENGLISH_MONEY = re.compile(r"\$\d")  # "$1.33": German writes "1,33 $"
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")

# Facts each page must mark, and what the engine says for those it knows.
REQUIRED_FACTS = {
    "hawk": {"deck", "pips_total", "heavy", "most"},
    "sheepshead": {"deck", "points", "five", "six", "leaster"},
    "hawsker": {"idea", "values", "runs", "stolen", "winning"},
    "puskiyon": {"deck", "deal", "target", "before", "after", "suppose"},
}


def engine_facts() -> dict[str, dict[str, list[str]]]:
    sheepshead_points = sum(sheepshead_deck.CARD_POINTS[c.rank] for c in sheepshead_deck.DECK)
    return {
        "hawk": {"deck": [str(len(hawk.DECK))], "pips_total": [str(sum(hawk.PIPS[c] for c in hawk.DECK))]},
        "sheepshead": {"deck": [str(len(sheepshead_deck.DECK))],
                       "points": [str(sheepshead_points), str(sheepshead_points // 2 + 1)]},
        "hawsker": {"winning": [str(hawsker_spec.TARGET), str(hawsker_spec.SHORT_TARGET)]},
        "puskiyon": {"deck": [str(len(FULL_DECK))], "deal": [str(puskiyon_hand_size(4)), str(puskiyon_hand_size(2))],
                     "target": [str(next(o.default for o in PUSKIYON.options if o.name == "target"))]},
    }


_SPEC_ZONES = {"lead", "crumbs", "options"}  # classes of the elements that show the spec's texts


class _Read(HTMLParser):
    """The text of <main>, without <code> (option names such as bonus_per_trick), the text where the spec's texts
    are shown (the title, the lead, the crumbs, the options table) apart; the numbers of every table; the numbers of
    every element marked data-fact."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.spec_zone: list[str] = []
        self.tables: list[list[str]] = []
        self.facts: dict[str, list[str]] = {}
        self._open: list[tuple[str, str | None, bool]] = []
        self._in_main = self._in_code = self._in_spec_zone = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr", "img", "input", "meta", "link"):
            return
        fact = dict(attrs).get("data-fact")
        zone = tag == "h1" or bool(_SPEC_ZONES & set((dict(attrs).get("class") or "").split()))
        self._open.append((tag, fact, zone))
        self._in_spec_zone += zone
        self._in_main += tag == "main"
        self._in_code += tag == "code"
        if tag == "table":
            self.tables.append([])
        if fact is not None:
            assert fact not in self.facts, f"data-fact {fact} marked twice"
            self.facts[fact] = []

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, _fact, zone = self._open.pop()
            self._in_spec_zone -= zone
            self._in_main -= opened == "main"
            self._in_code -= opened == "code"
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_main and not self._in_code:
            (self.spec_zone if self._in_spec_zone else self.text).append(data)
        numbers = [n.replace(",", ".") for n in NUMBER.findall(data)]
        if any(tag == "table" for tag, _, _ in self._open):
            self.tables[-1] += numbers
        for _tag, fact, _zone in self._open:
            if fact is not None:
                self.facts[fact] += numbers


def read(html: str) -> _Read:
    parser = _Read()
    parser.feed(html)
    return parser


def page(key: str, language: str | None = None) -> str:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = Client().get(reverse("rules_game", args=[key]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def spec_texts(key: str) -> list[str]:
    """What the page shows from the engine's spec, in German: left out of the English scan (see the docstring)."""
    spec = registry.spec(key)
    with translation.override("de"):
        texts = [say(spec.title), say(spec.blurb)]
        for option in spec.options:
            texts += [say(option.label), say(option.help), say(option.zero_text)]
            texts += [say(label) for _value, label in option.choices]
    return sorted((t for t in texts if t), key=len, reverse=True)


def english_left(text: str) -> list[str]:
    found = [word for word in ENGLISH_WORDS if re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE)]
    return found + ENGLISH_MONEY.findall(text)


def main_text(key: str, html: str) -> str:
    """What the page says in <main>, but for the spec's texts where the frame shows them."""
    parsed = read(html)
    shown = " ".join(" ".join(parsed.spec_zone).split())
    for spec_text in spec_texts(key):
        shown = shown.replace(" ".join(spec_text.split()), " ")
    return " ".join(" ".join(parsed.text).split()) + " " + shown


# Which page, in which language


def test_german_readers_get_a_german_page_and_everybody_else_the_english_one() -> None:
    assert page_templates("hawk", "de") == ["rules/de/hawk.html", "rules/hawk.html", "rules/page.html"]
    assert page_templates("hawk", "de-at") == ["rules/de/hawk.html", "rules/hawk.html", "rules/page.html"]
    assert page_templates("hawk", "en") == ["rules/hawk.html", "rules/page.html"]
    assert page_templates("hawk", None) == ["rules/hawk.html", "rules/page.html"]
    for key in GAMES:
        assert "Stich" not in page(key) or key == "hawk"  # English by default (Hawk's English page keeps "Stich")
        assert "Card order at a glance" in page(key) and "Card order at a glance" in page(key, "en")
        assert "Die Rangfolge der Karten auf einen Blick" in page(key, "de")


@pytest.mark.parametrize("key", GAMES)
def test_each_game_has_its_german_page_in_a_card_players_words(key: str) -> None:
    html = page(key, "de")
    text = main_text(key, html)
    missing = [term for term in GERMAN_TERMS[key] + FRAME_TERMS if term not in text]
    assert missing == [], f"{key}: the German page lacks {missing}"
    assert english_left(text) == [], f"{key}: English left on the German page: {english_left(text)}"
    assert "<title>Regeln für " in html


@pytest.mark.parametrize("key", GAMES)
def test_the_english_marker_scan_would_catch_the_english_page(key: str) -> None:
    assert len(english_left(main_text(key, page(key, "en")))) > 5


# The same numbers in both languages


@pytest.mark.parametrize("key", GAMES)
def test_both_languages_state_the_same_numbers(key: str) -> None:
    english, german = read(page(key, "en")), read(page(key, "de"))
    assert english.tables and german.tables == english.tables
    assert REQUIRED_FACTS[key] <= set(english.facts)
    assert german.facts == english.facts
    for fact, numbers in engine_facts()[key].items():
        assert english.facts[fact] == numbers, (key, fact)


def test_hawks_german_examples_are_what_the_engine_computes() -> None:
    expected = {mark: str(value) for mark, value in worked_out().items()}
    expected["sheet.winner"] = "Kreuz Sieben"
    # The German page walks through the original sheet's first two tricks as well (hawk.txt).
    first, second = parse_cards("3D 5D 9H 7D"), parse_cards("2S 4S 8S 7S")
    assert hawk.trick_winner(first) == 2 and hawk.trick_winner(second) == 0  # Spieler 3 takes both
    expected["sheet.first_pips"] = str(sum(hawk.PIPS[c] for c in first))
    expected["sheet.two_tricks_pips"] = str(sum(hawk.PIPS[c] for c in (*first, *second)))
    stated = checked_numbers(page("hawk", "de"))
    assert set(stated) == set(expected)
    wrong = {mark: texts for mark, texts in stated.items() if any(t != expected[mark] for t in texts)}
    assert wrong == {}, f"the German page states {wrong}"


def test_a_drifted_number_would_be_caught() -> None:
    english = read(page("sheepshead", "en"))
    drifted = read(page("sheepshead", "de").replace("2,67 $", "2,76 $").replace("<td>61 bis 89", "<td>60 bis 89"))
    assert drifted.facts != english.facts and drifted.tables != english.tables


# What the rules pages say beside the prose: the key, the index, the generic page


def test_the_card_order_key_speaks_german_and_english_each_in_its_own_cache() -> None:
    with translation.override("de"):
        german = key_for("hawk")
    with translation.override("en"):
        english = key_for("hawk")
    assert german[0].label == "Jede Farbe, die stärkste Karte zuerst"
    assert "♣ Kreuz sticht ♠ Pik" in german[1].text
    assert english[0].label == "Each suit, strongest first" and "♣ clubs beat ♠ spades" in english[1].text
    with translation.override("de"):
        sheepshead = {line.label: line.text for line in key_for("sheepshead")}
    assert sheepshead["Trumpf, der höchste zuerst"].startswith("Damen ♣ ♠ ♥ ♦ · Buben ♣ ♠ ♥ ♦ · ♦ Karo A 10")
    assert sheepshead["Augen"].endswith("9, 8, 7 keine")


def test_the_say_filter_takes_plain_text_and_said_alike() -> None:
    with translation.override("de"):
        assert say("Hawk") == "Hawk"
        assert say(said("%(trump)s beat %(led)s", trump=said("clubs"), led=said("spades"))) == "Kreuz sticht Pik"
    with translation.override("en"):
        assert say(said("%(trump)s beat %(led)s", trump=said("clubs"), led="spades")) == "clubs beat spades"


def test_the_rules_index_in_german() -> None:
    html = Client().get(reverse("rules_index"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>So spielen wir</h1>" in html and "<title>Regeln · " in html
    assert "2\N{EN DASH}6 Spieler" in html and "3\N{EN DASH}7 Spieler" in html and "2 Spieler" in html
    assert "How we play</h1>" not in html and " players" not in html
    footer = html[html.index("<footer"):]
    assert "Hawsker und Puskiyon" in footer and " and " not in footer.split("·")[1]


def test_a_game_without_a_page_of_its_own_gets_the_generic_page_in_german(fifth: None) -> None:
    html = page(fifth_game.KEY, "de")
    text = " ".join(html.split())
    assert "2 bis 3 Spieler, üblich sind 2; gespielt wird um Punkte." in text
    assert "<h2 id=\"options\">Tischoptionen</h2>" in html and "Im Club üblich" in html
    assert '<p class="crumbs"><a href="/rules/">Regeln</a>' in html
    for english in ("Table options", "Club default", "What it does", "by default", "played for", "Choices:",
                    "Card order at a glance"):
        assert english not in text
    english = " ".join(page(fifth_game.KEY, "en").split())
    assert "2 to 3 players, 2 by default; played for points." in english and "Club default" in english


def test_option_defaults_read_as_people_say_them_in_either_language() -> None:
    # Each option is named by its label in the reader's language (issue 42: not by the engine's key).
    for language, stake_label, stake, rounds, partner in (
            ("en", "Stake (cents)", "$1.00", "once round the table", "Jack of diamonds"),
            ("de", "Einsatz (Cent)", "1,00 $", None, None)):
        html = page("sheepshead", language)
        cells = re.findall(r'<tr><th scope="row">([^<]*)</th>\s*<td>([^<]*)</td>', html)
        defaults = dict(cells)
        assert defaults[stake_label] == stake
        if rounds:
            assert defaults["Rounds in a match"] == rounds and defaults["Partner"] == partner
    hawk_defaults = dict(re.findall(r'<th scope="row">([^<]*)</th>\s*<td>([^<]*)</td>', page("hawk", "de")))
    assert hawk_defaults["Jeden Bonusstich zählen"] == "nein"
