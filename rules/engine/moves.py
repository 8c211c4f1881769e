"""The move value every game uses: a kind plus the cards it names, in order.

One shape for all four games means the web layer can carry any move as text
("play 10D", "bury QC", "pick", "play 5H 8H") and the record of a round is a list of strings.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.engine.cards import Card, parse_cards


class Move(NamedTuple):
    kind: str
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(c) for c in self.cards)])

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move from its text; raises ValueError when it is not one."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ValueError("a move is a word and then its cards, like 'play 10D'")
        kind, *rest = text.split()
        if not kind.isalpha():
            raise ValueError(f"{kind!r} is not a kind of move")
        return cls(kind.lower(), parse_cards(rest))


def play(*cards: Card) -> Move:
    return Move("play", tuple(cards))
