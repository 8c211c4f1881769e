"""`{% load cards %}`: card faces, amounts and seat names in templates (registered by name in settings,
TEMPLATES' "libraries"; the board's Jinja2 environment, config/jinja2.py, uses the same functions).
Faces read without colour (rank and suit as text for screen readers)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from rules.card_order import KeyLine, key_for
from rules.engine.cards import SUIT_NAMES, SUIT_SAID, SUIT_SYMBOLS
from rules.engine.text import said
from tables.i18n import say
from tables.play.amounts import dollars_text, points_text
from tables.play.correspondence import move_hours_text
from tables.play.selectors import face
from tables.play.table_names import shown_name

register = template.Library()


@register.simple_tag
def card_face(text: str) -> str:
    c = face(text)
    return format_html(
        '<span class="card{}" role="img" aria-label="{}" title="{}">'
        '<span>{}</span><span class="suit" aria-hidden="true">{}</span></span>',
        " red" if c.red else "", c.name, c.name, c.rank, c.symbol,
    )


_SUIT_BY_WORD = {word: letter for letter, word in SUIT_NAMES.items()}


@register.filter
def suit_said(suit: str | None) -> str:
    """A suit in a facts line, from an engine's letter ("S") or word ("spades"): "♠ spades", the symbol for the
    eye (hidden from screen readers, which read the word) and the word for everyone. A word that is no suit
    (Sheepshead's "trump") stays as it is."""
    if not suit:
        return ""
    letter = suit if suit in SUIT_NAMES else _SUIT_BY_WORD.get(suit)
    if letter is None:
        return say(_WORDS.get(suit, suit))
    return format_html('<span class="suit-mark{}" aria-hidden="true">{}</span> {}',
                       " red" if letter in "DH" else "", SUIT_SYMBOLS[letter], say(SUIT_SAID[letter]))


_WORDS = {"trump": said("trump")}  # Sheepshead's trump, a suit of its own


@register.filter
def table_name(name: str) -> str:
    """A table's stored name as the reader says it (tables.play.table_names)."""
    return shown_name(name)


@register.filter
def move_pace(hours: int) -> str:
    """A correspondence table's pace ("a move a day"); nothing for a live table."""
    return move_hours_text(hours) if hours else ""


@register.filter
def card_said(text: str) -> str:
    """A card named in a line of text: "7♥" for the eye, "7 of hearts" for screen readers (which would read the
    symbol as "black heart suit")."""
    c = face(text)
    return format_html('<span class="card-said{}"><span aria-hidden="true">{}{}</span>'
                       '<span class="sr-only">{}</span></span>', " red" if c.red else "", c.rank, c.symbol, c.name)


@register.simple_tag
def card_order(game: str) -> tuple[KeyLine, ...]:
    """The game's card-order key, the same lines its rules page shows (rules.card_order)."""
    return key_for(game)


@register.filter
def money(cents: int | None) -> str:
    """A change of money, signed: "+$12.50" in English, "+12,50 $" in German (the club's dollars, the reader's
    number format)."""
    if cents is None:
        return ""
    return ("+" if cents > 0 else "") + dollars_text(cents)


@register.filter
def dollars(cents: int | None) -> str:
    """An amount of money: "$12.50", "12,50 $"."""
    return "" if cents is None else dollars_text(cents)


@register.filter
def points(count: int | None) -> str:
    return "" if count is None else points_text(count)


@register.filter
def seat_name(seats: list, position: int | None) -> str:
    if position is None:
        return ""
    for line in seats:
        if line.position == position:
            return line.name
    return gettext("seat %(seat)s") % {"seat": position}


@register.filter
def at(values: list | None, index: int):
    try:
        return values[index] if values is not None else None
    except (IndexError, TypeError, KeyError):
        return None
