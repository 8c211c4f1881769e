"""What the engine says to people (prompts, facts, refusals, option labels), in a form the web layer can
translate: the English sentence is the catalogue's msgid, its parameters are filled in after translation.

Why not plain strings: the engine stays free of Django (no gettext here), yet members read German too (issue 23).
An f-string would bake the parameters in before anyone could translate it. A `Said` keeps them apart: `str()`
gives the English (tests, logs, the engine's own errors), and the web layer's `tables.i18n.say` translates the
sentence and every parameter that is itself a `Said` (a suit's name, a card, a player's role) into the viewer's
language. `said("...")` calls are found by `manage.py makemessages` (rules/management/commands/makemessages.py
adds `said` to xgettext's keywords), so every sentence lands in the catalogue without a second list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Said:
    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, lambda text: text)

    def __add__(self, other: object) -> str:  # "x" + said(...) and said(...) + "x" read as the English
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)


def said(msgid: str, **params: Any) -> Said:
    """A sentence to show a person: `said("%(player)s to play", player=name)`."""
    return Said(msgid, params)


def render(text: Any, translate: Any) -> str:
    """`text` (a Said, or anything else as str) in the language `translate` (msgid -> sentence) speaks."""
    if not isinstance(text, Said):
        return str(text)
    sentence = translate(text.msgid)
    if not text.params:
        return sentence
    return sentence % {key: render(value, translate) for key, value in text.params.items()}
