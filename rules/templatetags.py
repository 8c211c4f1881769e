"""`{% load rules %}`: the engine's texts on the rules pages, in the reader's language (named in settings,
TEMPLATES' "libraries", like the other feature-level tag libraries).

A game's spec (rules/engine/*/spec.py) says its title, blurb and option labels either as plain text or as a
`Said` (rules/engine/text.py), and a game registered later may do either: `say` renders both. It calls the
engine's own `render` with Django's gettext rather than `tables.i18n.say`, because rules/ sits below tables/
(tables uses rules.card_order; rules uses nothing of tables).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext

from rules.engine.api import OptionSpec
from rules.engine.text import render

register = template.Library()


@register.filter
def say(text: Any) -> str:
    """`text` in the active language: a `Said` translated with its parameters, anything else as it is."""
    return render(text, gettext)


@register.filter
def option_default(option: OptionSpec) -> str:
    """A house rule's club default as a reader says it: the choice's label, yes or no, what 0 means, an amount of
    money in the language's number format; never the raw stored value (100 cents, 0 rounds)."""
    value = option.default
    if option.kind == "choice":
        return next((say(label) for choice, label in option.choices if choice == value), str(value))
    if option.kind == "bool":
        return gettext("yes") if value else gettext("no")
    if value == 0 and option.zero_text:
        return say(option.zero_text)
    if option.unit == "cents" and isinstance(value, int):
        return gettext("$%(amount)s") % {"amount": number_format(value / 100, 2)}
    return number_format(value)
