"""The engine's sentences (rules.engine.text.Said) in the language active for this request or render, and the web
layer's own sentences kept as data (a hand played at the club's table: tables.ledger.summaries), which may hold
amounts of the club's money (`Money`) to be written in the reader's number format when read."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.engine.text import Said, render
from tables.play.amounts import dollars_text


def say(text: Any) -> str:
    """`text` translated into the active language, with its parameters translated too; plain text as it is."""
    return render(text, gettext)


class Money(str):
    """An amount of the club's money inside a sentence: its English text ("$1.00", or "+$0.50" when `signed`), so a
    Said around it reads as the English the club always stored, carrying the cents to write in the reader's format
    ("1,00 $") when `say_with_money` shows it."""

    cents: int
    signed: bool

    def __new__(cls, cents: int, *, signed: bool = False) -> Money:
        text = super().__new__(cls, f"{cls.sign(cents, signed)}${abs(cents) / 100:.2f}")
        text.cents, text.signed = int(cents), bool(signed)
        return text

    @staticmethod
    def sign(cents: int, signed: bool) -> str:
        """A loss is "-"; with `signed` anything else is "+" (a hand's settlement per player, as it always read)."""
        return "-" if cents < 0 else "+" if signed else ""

    def shown(self) -> str:
        return self.sign(self.cents, self.signed) + dollars_text(abs(self.cents))


def say_with_money(text: Any) -> str:
    """`say`, with every Money in the sentence (at any depth) in the reader's number format."""
    if isinstance(text, Money):
        return text.shown()
    if not isinstance(text, Said):
        return str(text)
    if not text.msgid:
        return ""
    sentence = gettext(text.msgid)
    if not text.params:
        return sentence
    return sentence % {key: say_with_money(value) for key, value in text.params.items()}


def sentence_to_data(value: Any) -> Any:
    """A sentence as JSON data to keep in the database: {"said": msgid, "params": {...}} as the board keeps its log
    (rules.engine.text.to_data), and each Money as {"cents": ..., "signed": ...}."""
    if isinstance(value, Money):
        return {"cents": value.cents, "signed": value.signed}
    if isinstance(value, Said):
        return {"said": value.msgid, "params": {key: sentence_to_data(v) for key, v in value.params.items()}}
    return value


def sentence_from_data(value: Any) -> Any:
    """The inverse of `sentence_to_data`: the Said again (its English as it was built), Money again."""
    if isinstance(value, dict):
        if set(value) == {"cents", "signed"}:
            return Money(int(value["cents"]), signed=bool(value["signed"]))
        if set(value) == {"said", "params"} and isinstance(value["said"], str):
            return Said(value["said"], {key: sentence_from_data(v) for key, v in value["params"].items()})
    return value
