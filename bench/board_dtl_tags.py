"""`{% load board_dtl %}` for the Django-template port of the board (bench/board_dtl/): the filters and helpers
config/jinja2.py gives the board's Jinja2 environment, the very same functions, so the two engines are timed
doing the same work. `url` is Django's own `{% url %}` tag and `capfirst` its built-in filter (the function
config/jinja2.py registers), so they need no entry here. `game_templates` stands in for the Jinja2 board's
`{% include [game's fragment, the default fragment] %}`, which Django's `{% include %}` takes only as a value.
`card_order` is a simple tag used as `{% card_order game as order %}` (Jinja2: `{% set order = card_order(game) %}`);
the score sheet's Jinja2 macro `amount()` is the include games/_amount.html."""

from __future__ import annotations

from django import template

from tables.play.templatetags import at, card_face, card_order, card_said, dollars, money, points, seat_name, suit_said

register = template.Library()
register.simple_tag(card_face, name="card_face")
register.simple_tag(card_order, name="card_order")
for _filter in (money, dollars, points, seat_name, at, suit_said, card_said):
    register.filter(_filter.__name__, _filter)


@register.filter
def game_templates(game: str, part: str = "") -> tuple[str, str]:
    """The game's own fragment (games/<game><part>.html) and the one a game without it falls back on."""
    return (f"games/{game}{part}.html", f"games/_default{part}.html")
