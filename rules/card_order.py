"""Each game's card order as a short key: which card beats which, and what cards count.

The rules page (templates/rules/page.html) and the key on the table
(templates/jinja2/tables/play/games/_card_order.html) both show these lines, so the two can never say
different things; the lines are written from the engine's own tables, so they cannot drift from the
game either. Presentation, so it lives beside the rules pages rather than in rules.engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from rules.engine.hawk import deck as hawk
from rules.engine.hawsker import scoring as hawsker
from rules.engine.puskiyon import scoring as puskiyon
from rules.engine.sheepshead import deck as sheepshead


@dataclass(frozen=True)
class KeyLine:
    label: str
    text: str


def suit_said(suit: str) -> str:
    """A suit as the club writes it in running text: symbol and word, "♠ spades"."""
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def _hawk() -> tuple[KeyLine, ...]:
    strongest_first = sorted(hawk.RANKS, key=lambda rank: hawk.PIPS[Card(rank, "S")])  # fewer pips, stronger
    chain, suit = [], "C"  # clubs beat spades, spades hearts, hearts diamonds, diamonds clubs
    beaten_by = {trump: led for led, trump in hawk.TRUMPED_BY.items()}
    for _ in hawk.TRUMPED_BY:
        chain.append(f"{suit_said(suit)} beat {suit_said(beaten_by[suit])}")
        suit = beaten_by[suit]
    return (
        KeyLine("Each suit, strongest first", " ".join(strongest_first) + " (the ace is high, the ten low)"),
        KeyLine("Trumps, when you cannot follow", " · ".join(chain)),
        KeyLine("Pips (Augen)", "the number on the card: A 1, 2 to 10 as marked"),
    )


_PICTURES = {"Q": "queens", "J": "jacks"}


def _sheepshead() -> tuple[KeyLine, ...]:
    # Trump is the queens, then the jacks (each in suit order), then the other diamonds. Written as "queens ♣ ♠ ♥ ♦"
    # rather than as cards (Q♣ Q♠ …), so the key never reads as cards somebody holds.
    trump = [f"{word} {' '.join(SUIT_SYMBOLS[c.suit] for c in sheepshead.TRUMP_ORDER if c.rank == rank)}"
             for rank, word in _PICTURES.items()]
    diamonds = " ".join(c.rank for c in sheepshead.TRUMP_ORDER if c.rank not in _PICTURES)
    trump.append(f"{suit_said('D')} {diamonds}")
    fail_suits = ", ".join(suit_said(s) for s in sheepshead.FAIL_SUITS)
    by_points = sorted(sheepshead.CARD_POINTS.items(), key=lambda item: -item[1])
    points = " · ".join(f"{rank} {count}" for rank, count in by_points if count)
    blanks = ", ".join(rank for rank, count in by_points if not count)
    return (
        KeyLine("Trump, highest first", " · ".join(trump)),
        KeyLine(f"{fail_suits}, highest first", " ".join(sheepshead.FAIL_ORDER) + " (the ten beats the king)"),
        KeyLine("Points", f"{points} · {blanks} none"),
    )


def _hawsker() -> tuple[KeyLine, ...]:
    value = hawsker.RANK_VALUE
    return (
        KeyLine("Values", f"A {value['A']} · 2 to 10 as marked · J {value['J']} · Q {value['Q']} · K {value['K']}"),
        KeyLine("Runs", "ace low, king high: J Q K is a run, K A 2 is not"),
        KeyLine("Suits", "none outranks another: lay on the top card's suit, any king, or cards making 13 with it"),
    )


def _puskiyon() -> tuple[KeyLine, ...]:
    points = puskiyon.RANK_POINTS
    return (
        KeyLine("Order", "no card beats another: match the top card by rank or by suit"),
        KeyLine("Points left in hand", f"A {points['A']} · 2 to 10 as marked · J, Q, K {points['K']}"),
    )


_KEYS = {"hawk": _hawk, "sheepshead": _sheepshead, "hawsker": _hawsker, "puskiyon": _puskiyon}


@cache
def key_for(game: str) -> tuple[KeyLine, ...]:
    """The game's key, or nothing for a game without one (worked out once: every board shows it)."""
    make = _KEYS.get(game)
    return make() if make else ()
