"""The engine's sentences (rules.engine.text.Said) in the language active for this request or render."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.engine.text import render


def say(text: Any) -> str:
    """`text` translated into the active language, with its parameters translated too; plain text as it is."""
    return render(text, gettext)
