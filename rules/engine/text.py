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
from typing import Any


class Said(str):
    """A sentence for people: the English text itself (a `str`, so engine data stays JSON-able, tests and logs read
    it as before, and comparing with text works), carrying its msgid and parameters for translation."""

    msgid: str
    params: Mapping[str, Any]

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None) -> Said:
        params = dict(params or {})
        english = msgid % {key: str(v) if isinstance(v, Said) else v for key, v in params.items()} if params else msgid
        text = super().__new__(cls, english)
        text.msgid = msgid
        text.params = params
        return text

    def __repr__(self) -> str:
        return f"said({self.msgid!r}, **{dict(self.params)!r})"


def said(msgid: str, **params: Any) -> Said:
    """A sentence to show a person: `said("%(player)s to play", player=name)`."""
    return Said(msgid, params)


def render(text: Any, translate: Any) -> str:
    """`text` (a Said, or anything else as str) in the language `translate` (msgid -> sentence) speaks."""
    if not isinstance(text, Said):
        return str(text)
    if not text.msgid:  # gettext("") is the catalogue's header
        return ""
    sentence = translate(text.msgid)
    if not text.params:
        return sentence
    return sentence % {key: render(value, translate) for key, value in text.params.items()}


SEAT_MSGIDS = frozenset({"seat %(seat)s", "Seat %(seat)s"})


def seat(number: int, *, capital: bool = False) -> Said:
    """A seat as the engine names it ("seat 3"): a Said of its own, so the web layer can put the member's name
    in its place (tables.play.selectors.name_seats) whatever language the sentence around it is in."""
    return said("Seat %(seat)s", seat=number) if capital else said("seat %(seat)s", seat=number)


def seat_of(text: Any) -> int | None:
    """The seat number `text` names, if it is a seat (see `seat`)."""
    if isinstance(text, Said) and text.msgid in SEAT_MSGIDS:
        return int(text.params["seat"])
    return None


def to_data(value: Any) -> Any:
    """`value` with every Said in it as JSON data ({"said": msgid, "params": {...}}), to be kept in the database
    (a round's log and result) and read back by `from_data`, so a stored sentence is still translated when read."""
    if isinstance(value, Said):
        return {"said": value.msgid, "params": {key: to_data(v) for key, v in value.params.items()}}
    if isinstance(value, dict):
        return {key: to_data(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    return value


def from_data(value: Any) -> Any:
    """The inverse of `to_data` (plain text, as stored before sentences were kept as Said, stays as it is)."""
    if isinstance(value, dict):
        if set(value) == {"said", "params"} and isinstance(value["said"], str):
            return Said(value["said"], {key: from_data(v) for key, v in value["params"].items()})
        return {key: from_data(v) for key, v in value.items()}
    if isinstance(value, list):
        return [from_data(v) for v in value]
    return value


def joined(items: Any, *, last: str = "and") -> Said | str:
    """ "a, b and c" as a Said ("a" alone stays as it is): lists of seats and cards in a sentence."""
    parts = list(items)
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    head = parts[0]
    for part in parts[1:-1]:
        head = said("%(first)s, %(next)s", first=head, next=part)
    if last == "or":
        return said("%(first)s or %(last)s", first=head, last=parts[-1])
    return said("%(first)s and %(last)s", first=head, last=parts[-1])


THEN_MSGID = said("%(before)s %(then)s").msgid  # what `then` says (a reader may take its sentence apart again)


def then(before: Any, more: Any) -> Any:
    """Two sentences one after the other ("X played 4C. Pegging ends."), each translated on its own."""
    if not before:
        return more
    return Said(THEN_MSGID, {"before": before, "then": more})
