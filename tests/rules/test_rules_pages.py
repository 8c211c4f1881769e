"""The rules pages render, say what RULES.md says, and state only numbers the engine agrees with.

Every number of Hawk's worked examples is marked on the page (`<span data-check="name">`); the test
reads the rendered page, works each example out with the engine's public helpers and compares. A
wrong number on the page, a marked number the test does not know, or a checked number the page
dropped all fail.
"""

from __future__ import annotations

from collections import defaultdict
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

import rules.engine.hawk as hawk
from rules.engine.cards import Card, parse_cards

pytestmark = pytest.mark.django_db

ANNA, BEN, CARLA, DIETER = 0, 1, 2, 3

EXAMPLE_TRICKS: dict[str, str] = {
    "anna_1": "AC AD 2H AS",
    "ben_1": "9C 9D 3H 2S",
    "anna_2": "2C 2D 4H 3S",
    "heavy": "10C 10D 9H 8S",  # Carla's heavy trick
    "anna_3": "3C 3D 7H 7S",
    "fives": "5C 5D 5H 5S",  # Dieter's four of a number
    "anna_4": "4C 6D 8H 9S",
    "ben_2": "8C 8D 6H 4S",
    "anna_5": "6C 7D 10H 10S",
    "last": "7C 4D AH 6S",  # the last trick, Carla's
}
"""The page's example round, every card once: who took which trick is the only thing each case changes."""

MAIN = [
    (ANNA, "anna_1"), (BEN, "ben_1"), (ANNA, "anna_2"), (CARLA, "heavy"), (ANNA, "anna_3"),
    (DIETER, "fives"), (ANNA, "anna_4"), (BEN, "ben_2"), (ANNA, "anna_5"), (CARLA, "last"),
]  # fmt: skip
SOLO = [*MAIN[:-1], (ANNA, "last")]  # Anna takes the last trick as well
SWAPPED = [  # LAFH (Anna first, Carla last) 69 pips, NOB 151; the heavy trick still Carla's, the fives Dieter's
    (ANNA, "anna_4"), (BEN, "ben_1"), (DIETER, "anna_2"), (CARLA, "heavy"), (BEN, "anna_3"),
    (DIETER, "fives"), (BEN, "anna_5"), (DIETER, "ben_2"), (BEN, "last"), (CARLA, "anna_1"),
]  # fmt: skip
WORDS = {"A": "ace", "7": "seven", "8": "eight", "9": "nine", "10": "ten"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


class _Checked(HTMLParser):
    """Collects the text of every element marked `data-check`, by mark (a mark may appear several times)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[str]] = defaultdict(list)
        self._open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        mark = dict(attrs).get("data-check")
        self._open.append((tag, mark))
        if mark is not None:
            self.found[mark].append("")

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, _mark = self._open.pop()
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        for _tag, mark in self._open:
            if mark is not None:
                self.found[mark][-1] += data


def page(key: str) -> str:
    response = Client().get(reverse("rules_game", args=[key]))
    assert response.status_code == 200
    return response.content.decode()


def checked_numbers(html: str) -> dict[str, list[str]]:
    parser = _Checked()
    parser.feed(html)
    return {mark: [" ".join(t.split()).replace("\u2212", "-") for t in texts] for mark, texts in parser.found.items()}


def tricks(case: list[tuple[int, str]]) -> list[tuple[int, tuple[Card, ...]]]:
    return [(seat, parse_cards(EXAMPLE_TRICKS[name])) for seat, name in case]


def pips_of(cards: tuple[Card, ...]) -> int:
    return sum(hawk.PIPS[c] for c in cards)


def taken(case: list[tuple[int, str]], seat: int) -> int:
    return sum(pips_of(cards) for who, cards in tricks(case) if who == seat)


def worked_out() -> dict[str, object]:
    """Every marked number of Hawk's page, from the engine."""
    sheet = parse_cards("AS 8C 9S 7C")  # the original sheet's example trick
    winner = sheet[hawk.trick_winner(sheet)]
    main, _ = hawk.score_tricks(players=4, tricks=tricks(MAIN))
    solo, _ = hawk.score_tricks(players=4, tricks=tricks(SOLO))
    swapped, _ = hawk.score_tricks(players=4, tricks=tricks(SWAPPED))
    all_kinds = tuple(hawk.BONUS_KINDS)
    lifted = hawk.score_from_facts(players=4, lafh=(ANNA, CARLA), lafh_pips=100, nob_pips=120, lafh_bonuses=all_kinds)
    to_zero = hawk.score_from_facts(
        players=4, lafh=(ANNA, CARLA), lafh_pips=100, nob_pips=120, lafh_bonuses=all_kinds[:2]
    )
    heavy = parse_cards(EXAMPLE_TRICKS["heavy"])
    # The heavy limit with four players: 36 pips is not heavy, 37 is.
    assert "heavy" not in hawk.trick_bonuses(parse_cards("10C 10D 8H 8S"), 4)
    assert hawk.trick_bonuses(heavy, 4) == ("heavy",)
    assert hawk.trick_bonuses(parse_cards(EXAMPLE_TRICKS["fives"]), 4) == ("four_suits",)
    # Each case's deltas come from the public score_round as well.
    for case, score in ((MAIN, main), (SOLO, solo), (SWAPPED, swapped)):
        assert hawk.score_round(players=4, tricks=tricks(case)) == list(score.deltas)
    assert main.lafh == (ANNA, CARLA) and solo.lafh == (ANNA,) and solo.solo and swapped.lafh == (ANNA, CARLA)
    return {
        "sheet.winner": f"{WORDS[winner.rank]} of {SUIT_WORDS[winner.suit]}",
        "sheet.pips": pips_of(sheet),
        "lift.lafh_pips": lifted.lafh_pips,
        "lift.nob_pips": lifted.nob_pips,
        "lift.base_k": lifted.base_k,
        "lift.k": lifted.k,
        "lift.points": lifted.points,
        "lift.two_kinds_k": to_zero.k,
        "main.anna_pips": taken(MAIN, ANNA),
        "main.carla_pips": taken(MAIN, CARLA),
        "main.heavy_pips": pips_of(heavy),
        "main.last_pips": pips_of(parse_cards(EXAMPLE_TRICKS["last"])),
        "main.lafh_pips": main.lafh_pips,
        "main.nob_pips": main.nob_pips,
        "main.heavy_limit": 36,
        "main.base_k": main.base_k,
        "main.k_with_heavy": main.base_k + len(main.lafh_bonuses),
        "main.k": main.k,
        "main.players": main.players,
        "main.points": main.points,
        "solo.lafh_pips": solo.lafh_pips,
        "solo.nob_pips": solo.nob_pips,
        "solo.base_k": solo.base_k,
        "solo.k": solo.k,
        "solo.points": solo.points,
        "solo.factor": solo.points // (solo.k * solo.players),
        "solo.loss": -solo.points,
        "swapped.lafh_pips": swapped.lafh_pips,
        "swapped.nob_pips": swapped.nob_pips,
        "swapped.k": swapped.k,
        "swapped.points": swapped.points,
        "swapped.loss": -swapped.points,
    }


def test_the_example_round_uses_every_card_of_hawk_once() -> None:
    cards = [c for text in EXAMPLE_TRICKS.values() for c in parse_cards(text)]
    assert sorted(cards) == sorted(hawk.DECK)
    for case in (MAIN, SOLO, SWAPPED):
        assert sorted(name for _seat, name in case) == sorted(EXAMPLE_TRICKS)


def test_every_number_of_hawks_worked_examples_is_what_the_engine_computes() -> None:
    stated = checked_numbers(page("hawk"))
    expected = {mark: str(value) for mark, value in worked_out().items()}
    assert set(stated) == set(expected)
    wrong = {mark: texts for mark, texts in stated.items() if any(t != expected[mark] for t in texts)}
    assert wrong == {}, f"the page states {wrong}, the engine says {[expected[m] for m in wrong]}"


def test_hawks_solo_example_moves_carlas_tricks_and_bonus_to_nob() -> None:
    html = page("hawk")
    times = "\N{MULTIPLICATION SIGN}"
    assert f"2 {times} 4 {times} 3 = 24" not in html  # the old claim: Carla's tricks and bonus kept for LAFH
    assert "Carla's tricks, the heavy one among them, would then count for NOB." in " ".join(html.split())
    solo, _ = hawk.score_tricks(players=4, tricks=tricks(SOLO))
    assert solo.nob_bonuses == ("heavy", "four_suits")
    assert solo.won and solo.k < 0  # won on pips, yet loses points: the page says why


def test_hawks_page_says_bonuses_can_lift_a_losing_k_to_zero_or_above() -> None:
    text = " ".join(page("hawk").split())
    assert "can lift a losing LAFH's k to 0 or above" in text


def test_puskiyons_page_counts_only_passes_made_with_the_stock_empty() -> None:
    text = " ".join(page("puskiyon").split())
    assert "Only passes made while the stock is empty count." in text
    assert "cannot block on the draw of the last card" in text
    assert "counts as a pass" not in text


def test_hawskers_page_says_a_flush_needs_two_cards() -> None:
    text = " ".join(page("hawsker").split())
    assert "at least two cards; a single card is no flush" in text
