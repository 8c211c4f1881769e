"""Each game's card order as a short key: which card beats which, and what cards count.

The rules page (templates/rules/page.html) and the key on the table
(templates/jinja2/tables/play/games/_card_order.html) both show these lines, so the two can never say
different things; the lines are written from the engine's own tables, so they cannot drift from the
game either. Presentation, so it lives beside the rules pages rather than in rules.engine.

The words are in the language active when the key is asked for (issue 23): the rules page and the board both
call `key_for` inside the reader's language, so both keep saying the same thing in either language. Card
ranks stay the letters on the card faces (A K Q J): the key helps you read the cards in your hand. The labels
carry the context "card order": short words such as "Points" mean other things elsewhere on the site (Sheepshead's
points are "Augen" in German, a table's score is not).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.utils.translation import get_language, gettext, gettext_lazy, pgettext

from rules.engine.cards import SUIT_SYMBOLS, Card
from rules.engine.hawk import deck as hawk
from rules.engine.hawsker import scoring as hawsker
from rules.engine.puskiyon import scoring as puskiyon
from rules.engine.sheepshead import deck as sheepshead


@dataclass(frozen=True)
class KeyLine:
    label: str
    text: str


# The suits' names in running text; the engine's own names (rules.engine.cards.SUIT_NAMES) are its English.
SUIT_WORDS = {"C": gettext_lazy("clubs"), "D": gettext_lazy("diamonds"), "H": gettext_lazy("hearts"),
              "S": gettext_lazy("spades")}


def suit_said(suit: str) -> str:
    """A suit as the club writes it in running text: symbol and word, "♠ spades" ("♠ Pik")."""
    return f"{SUIT_SYMBOLS[suit]} {SUIT_WORDS[suit]}"


def _hawk() -> tuple[KeyLine, ...]:
    strongest_first = sorted(hawk.RANKS, key=lambda rank: hawk.PIPS[Card(rank, "S")])  # fewer pips, stronger
    chain, suit = [], "C"  # clubs beat spades, spades hearts, hearts diamonds, diamonds clubs
    beaten_by = {trump: led for led, trump in hawk.TRUMPED_BY.items()}
    for _ in hawk.TRUMPED_BY:
        chain.append(gettext("%(trump)s beat %(led)s") % {"trump": suit_said(suit), "led": suit_said(beaten_by[suit])})
        suit = beaten_by[suit]
    return (
        KeyLine(pgettext("card order", "Each suit, strongest first"),
                gettext("%(ranks)s (the ace is high, the ten low)") % {"ranks": " ".join(strongest_first)}),
        KeyLine(pgettext("card order", "Trumps, when you cannot follow"), " · ".join(chain)),
        KeyLine(pgettext("card order", "Pips (Augen)"), gettext("the number on the card: A 1, 2 to 10 as marked")),
    )


_PICTURES = {"Q": gettext_lazy("queens"), "J": gettext_lazy("jacks")}


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
        KeyLine(pgettext("card order", "Trump, highest first"), " · ".join(trump)),
        KeyLine(pgettext("card order", "%(suits)s, highest first") % {"suits": fail_suits},
                gettext("%(ranks)s (the ten beats the king)") % {"ranks": " ".join(sheepshead.FAIL_ORDER)}),
        KeyLine(pgettext("card order", "Points"),
                gettext("%(points)s · %(blanks)s none") % {"points": points, "blanks": blanks}),
    )


def _hawsker() -> tuple[KeyLine, ...]:
    value = hawsker.RANK_VALUE
    return (
        KeyLine(pgettext("card order", "Values"),
                gettext("A %(ace)s · 2 to 10 as marked · J %(jack)s · Q %(queen)s · K %(king)s")
                % {"ace": value["A"], "jack": value["J"], "queen": value["Q"], "king": value["K"]}),
        KeyLine(pgettext("card order", "Runs"), gettext("ace low, king high: J Q K is a run, K A 2 is not")),
        KeyLine(pgettext("card order", "Suits"),
                gettext("none outranks another: lay on the top card's suit, any king, or cards making 13 with it")),
    )


def _puskiyon() -> tuple[KeyLine, ...]:
    points = puskiyon.RANK_POINTS
    return (
        KeyLine(pgettext("card order", "Order"),
                gettext("no card beats another: match the top card by rank or by suit")),
        KeyLine(pgettext("card order", "Points left in hand"),
                gettext("A %(ace)s · 2 to 10 as marked · J, Q, K %(picture)s")
                % {"ace": points["A"], "picture": points["K"]}),
    )


_KEYS = {"hawk": _hawk, "sheepshead": _sheepshead, "hawsker": _hawsker, "puskiyon": _puskiyon}


def key_for(game: str) -> tuple[KeyLine, ...]:
    """The game's key in the active language, or nothing for a game without one."""
    return _key_in(game, get_language() or "en")


@cache
def _key_in(game: str, language: str) -> tuple[KeyLine, ...]:
    # Worked out once per game and language (every board shows it); `language` is the cache's key, and gettext
    # reads the same active language inside.
    make = _KEYS.get(game)
    return make() if make else ()
