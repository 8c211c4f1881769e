"""Hawsker's sentences about one player's move, as everyone reads them and as that player does.

The engine keeps one public account of a move (`State.last`, written by turns.py and flow.py); the move log and
the board tell it to the player it speaks of in their own words (views.last_event), found by the public
sentence's msgid. Each pair is written here once, so the two accounts cannot drift apart.
"""

from __future__ import annotations

from rules.engine.cards import Card
from rules.engine.text import Said, said
from rules.engine.text import seat as seat_said


def discarded(seat: int) -> Said:
    return said("%(player)s discarded a card face down.", player=seat_said(seat, capital=True))


def you_discarded(card: Card) -> Said:
    """Only to the one who laid it: the card is named."""
    return said("You discarded %(card)s face down.", card=str(card))


def played(seat: int, cards: str) -> Said:
    return said("%(player)s played %(cards)s.", player=seat_said(seat, capital=True), cards=cards)


def played_and_drew(seat: int, cards: str) -> Said:
    return said("%(player)s played %(cards)s and drew a card.", player=seat_said(seat, capital=True), cards=cards)


def stole(seat: int, cards: str) -> Said:
    return said("%(player)s played %(cards)s and emptied the hand: that is a steal. "
                "%(player)s will score %(other)s's hand.", player=seat_said(seat, capital=True), cards=cards,
                other=seat_said(1 - seat))


def stole_yours(public: Said) -> Said:
    """`stole` as the player robbed reads it."""
    return said("%(player)s played %(cards)s and emptied the hand: that is a steal. %(player)s will score your "
                "hand.", player=public.params["player"], cards=public.params["cards"])


def stuck(seat: int) -> Said:
    return said("%(player)s cannot play, so pegging ends: %(same)s discards the whole hand and scores nothing.",
                player=seat_said(seat, capital=True), same=seat_said(seat))


DISCARDED = discarded(0).msgid
STOLE = stole(0, "").msgid

# A public sentence's msgid -> the same move as its player reads it, with the public sentence's parameters.
TOLD_TO_THE_PLAYER = {
    played(0, "").msgid: said("You played %(cards)s.").msgid,
    played_and_drew(0, "").msgid: said("You played %(cards)s and drew a card.").msgid,
    STOLE: said("You played %(cards)s and emptied your hand: that is a steal. You will score %(other)s's hand.").msgid,
    stuck(0).msgid: said("You cannot play, so pegging ends: you discard your whole hand and score nothing.").msgid,
}
