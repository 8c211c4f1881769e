"""`{% load cards %}`: card faces, amounts and seat names in templates (registered by name in settings,
TEMPLATES' "libraries"; the board's Jinja2 environment, config/jinja2.py, uses the same functions).
Faces read without colour (rank and suit as text for screen readers)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from tables.play.amounts import points_text
from tables.play.selectors import face

register = template.Library()


@register.simple_tag
def card_face(text: str) -> str:
    c = face(text)
    return format_html(
        '<span class="card{}" role="img" aria-label="{}" title="{}">'
        '<span>{}</span><span class="suit" aria-hidden="true">{}</span></span>',
        " red" if c.red else "", c.name, c.name, c.rank, c.symbol,
    )


@register.filter
def money(cents: int | None) -> str:
    if cents is None:
        return ""
    sign = "-" if cents < 0 else "+" if cents > 0 else ""
    return f"{sign}${abs(cents) / 100:.2f}"


@register.filter
def dollars(cents: int | None) -> str:
    return "" if cents is None else f"${cents / 100:.2f}"


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
    return f"seat {position}"


@register.filter
def at(values: list | None, index: int):
    try:
        return values[index] if values is not None else None
    except (IndexError, TypeError, KeyError):
        return None
