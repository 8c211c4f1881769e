"""The round's move log: what happened since the deal, line by line, as each viewer may read it.

Each move's line is written when the move is made (the engine says it for each seat and for a spectator,
`registry.last_event`) and kept on the round, so a board never replays the round to tell its story. A line
names a card only to those who may see it: the text for a spectator is the public one, and a seat whose own
account differs ("You drew 7♥" where the others read "Bot 2 drew a card") has its own text beside it.
"""

from __future__ import annotations

import re
from typing import Any

from rules.engine import registry
from rules.engine.cards import SUIT_SYMBOLS
from rules.engine.text import from_data, to_data

_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")


def entry(*, game: str, state: Any, players: int, seat: int | None, actor: str,
          closed_trick: bool) -> dict[str, Any] | None:
    """The log line of the move that left `state` (None if the engine has nothing to say of it)."""
    public = registry.last_event(game, state, None)
    own = {}
    for viewer in range(players):
        text = registry.last_event(game, state, viewer)
        if text != public:
            own[str(viewer)] = text
    if not public and not own:
        return None
    # Kept as the engine's sentence with its parameters (rules.engine.text.to_data), so each reader reads it in
    # their own language when the board is drawn.
    line: dict[str, Any] = {"seat": seat, "actor": actor, "text": to_data(public)}
    if own:
        line["own"] = {viewer: to_data(text) for viewer, text in own.items()}
    if closed_trick:
        line["trick"] = True
    return line


def lines_for(log: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """The log as `viewer` (None: a spectator) may read it: their own text where they have one, else the public
    one; seat names are put in by the board (tables.play.selectors.name_seats)."""
    return [shown for line in log if (shown := line_for(line, viewer)) is not None]


def line_for(line: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
    """One line of the log as `viewer` may read it (`lines_for`), None if it says nothing to them."""
    key = str(viewer) if viewer is not None else None
    text = (line.get("own") or {}).get(key, line.get("text", "")) if key is not None else line.get("text", "")
    text = from_data(text)
    if not text:
        return None
    return {"text": text, "seat": line.get("seat"), "actor": line.get("actor"), "trick": bool(line.get("trick"))}


def with_suits(text: str) -> str:
    """Cards as people write them: "7H" reads 7♥."""
    return _CARD.sub(lambda found: found.group(1) + SUIT_SYMBOLS[found.group(2)], text)
