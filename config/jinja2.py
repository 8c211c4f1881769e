"""The Jinja2 environment of the table's board (the one page part rendered for every viewer after
every move, so it is compiled to Python by Jinja2 rather than interpreted node by node by Django's
template language). The filters and helpers are the same ones the Django templates use."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from jinja2 import ChainableUndefined, Environment, Undefined

from tables.i18n import say
from tables.play import templatetags
from tables.play.board_parts import log_items, part
from tables.play.selectors import move_label
from tables.play.table_names import shown_name
from tables.play.templatetags import at, card_face, dollars, money, points, seat_name


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    # Like Django's templates, a missing value (or a value of a missing value) prints as nothing,
    # with DEBUG on or off (Django's backend would pick DebugUndefined or Undefined).
    env = Environment(**{**options, "undefined": ChainableUndefined,
                         "extensions": [*options.get("extensions", []), "jinja2.ext.i18n"]})
    # The board speaks the viewer's language: Django's gettext, whatever language is active for the render.
    # Newstyle: `_("Hello %(name)s", name=x)` formats after translating and escapes its arguments.
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(url=url, card_face=card_face, move_label=move_label)
    # The board's parts, sent alone when they changed, some kept rendered from one version to the next
    # (tables/play/board_parts.py).
    env.globals.update(part=part, log_items=log_items)
    env.filters.update(say=say)  # the engine's sentences (rules.engine.text) in the viewer's language
    env.filters.update(table_name=shown_name)  # a table's name the club gave it, in the viewer's language
    env.filters.update(money=money, dollars=dollars, points=points, seat_name=seat_name, at=at, capfirst=capfirst)
    # Suits and cards in words and symbols, and each game's card-order key (rules.card_order).
    env.globals.update(card_order=templatetags.card_order)
    env.filters.update(suit_said=templatetags.suit_said, card_said=templatetags.card_said)
    # `x is none` holds for a missing value too, as `x is None` does in Django's templates.
    env.tests["none"] = lambda value: value is None or isinstance(value, Undefined)
    return env
