"""The board in parts: what a version changed is sent alone, and what it did not change is not rendered again.

Why (issue 43): a version changes a few parts of a board (the seats and the trick, the prompt, a hand, a log line)
and every viewer's board was rendered and sent whole at every version. Now:

- The template marks its parts (`{% call part("ring") %}<div ... data-part="ring">...</div>{% endcall %}`): each
  is one element with `data-part` naming it. A render gives the board's *frame* (the board with each part left as a
  marker) and the parts; the board is the frame with its parts put in (`Rendered.html`).
- Parts that most versions leave as they were are kept rendered from one version to the next
  (`part("sheet", keep=key)`): the score sheet changes once a round, the house rules never while a round lasts, a
  line of the move log never once written (`log_items`). A kept part is kept under everything it is rendered from
  (its key), with the language active for the render: the viewer's seat is in every key that shows something of
  the viewer's own, so a part never crosses from one viewer's board to another's, and a changed input is a new key,
  never a stale part. Kept in this process, as the boards are (tables.play.rendering).
- A table socket sends its viewer the whole board once, then at each version only the parts that differ from what
  it sent last, with the board's opening tag (`delta`): while the frame is the same, the board the page rebuilds
  from the parts (static/js/board_parts.js) is exactly the board. When the frame changed (a round's result came, a
  button row went), or the page asks (it holds no board of the version a message builds on), the whole board goes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import get_language
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from tables.play.selectors import LogLine

PARTS_KEPT = 4096  # two or three kept parts a viewer of a live table, a few viewers a table
LINES_KEPT = 65536  # rendered log lines: a round's few dozen a viewer
MARK = "\x00part:{}\x00"  # a part's place in the frame (no template writes a NUL)

_parts: OrderedDict[tuple[Hashable, ...], Markup] = OrderedDict()
_lines: OrderedDict[LogLine, Markup] = OrderedDict()
_guard = threading.Lock()


@dataclass(frozen=True)
class Rendered:
    """One viewer's board at one version: the HTML, the deadline it counts down to, and its frame and parts (for a
    socket's `delta`)."""

    html: str
    deadline: datetime | None
    frame: str = ""  # the board after its opening tag, each part a MARK
    parts: dict[str, str] = field(default_factory=dict)


@pass_context
def part(context: Context, name: str, keep: Hashable = None, *, caller: Callable[[], str]) -> Markup:
    """A call block's body (`caller`) as the board's part `name`: one element, `data-part="name"` on it. With `keep`,
    rendered once for that key and the language, then kept. A part that renders nothing is not one (the frame says it
    is absent). In a render that collects parts (`context["parts"]`, a dict) the part is recorded and the output holds
    its mark; elsewhere (a template rendered on its own) the part itself."""
    html = kept(name, keep, caller=caller) if keep is not None else caller()
    collected = context.get("parts")
    if not isinstance(collected, dict):
        return Markup(html)
    if html[:1] == "<" and html[-1:] == ">":  # as the board's parts are written: the element, nothing around it
        lead, content, trail = "", html, ""
    else:
        content = html.strip()
        if not content:
            return Markup(html)
        start = html.find(content)
        lead, trail = html[:start], html[start + len(content):]
    if f'data-part="{name}"' not in content[:content.find(">")] or name in collected or "\x00" in content:
        raise ValueError(f"the board's part {name!r} must be one element with data-part={name!r}, once, and hold "
                         "no part of its own")
    collected[name] = str(content)
    return Markup(lead + MARK.format(name) + trail)


def kept(name: str, key: Hashable, *, caller: Callable[[], str]) -> Markup:
    """`caller()`, rendered once for `name`, `key` and the language, then kept."""
    full = (name, get_language(), key)
    with _guard:
        hit = _parts.get(full)
        if hit is not None:
            _parts.move_to_end(full)
            return hit
    html = Markup(caller())
    with _guard:
        _parts[full] = html
        while len(_parts) > PARTS_KEPT:
            _parts.popitem(last=False)
    return html


def log_items(lines: Iterable[LogLine]) -> Markup:
    """The move log's <li> items. A line's words are its own, already in its reader's language and as that reader may
    read them (selectors.kept_log_lines), so an item is kept under the line itself: equal lines are equal items."""
    items = []
    with _guard:
        for line in lines:
            item = _lines.get(line)
            if item is None:
                opening = '<li class="took" data-trick="taken">' if line.trick else "<li>"
                item = _lines[line] = Markup(opening) + escape(line.text) + Markup("</li>\n      ")
                if len(_lines) > LINES_KEPT:
                    _lines.popitem(last=False)
            items.append(item)
    return Markup("").join(items)


def assembled(output: str, parts: dict[str, str], deadline: datetime | None) -> Rendered:
    """A render's output (the frame, with the opening tag) and its parts, as the board and its frame."""
    pieces = output.split("\x00")  # text, "part:name", text, ...: the frame's marks (MARK), in one pass
    for index in range(1, len(pieces), 2):
        pieces[index] = parts[pieces[index][len("part:"):]]
    return Rendered(html="".join(pieces), deadline=deadline, frame=output[output.find(">") + 1:], parts=parts)


@dataclass
class Sent:
    """What a socket last sent its viewer: the board's version, frame and parts (the page's board is that one)."""

    version: int
    frame: str
    parts: dict[str, str]


def delta(board: Rendered, *, version: int, sent: Sent | None) -> str | None:
    """The message that turns the board `sent` into `board` on the page, or None when only the whole board can (nothing
    sent yet, or the frame changed). Its parts are those that differ, each whole, after the board's opening tag; it
    names the version it builds on (`data-base`), so a page holding another one asks for the whole board instead."""
    if sent is None or not board.frame or sent.frame != board.frame:
        return None
    changed = [content for name, content in board.parts.items() if sent.parts.get(name) != content]
    opening = board.html[:board.html.find(">") + 1]
    return (f'<template id="board-delta" data-base="{sent.version}" data-version="{version}">{opening}</section>'
            + "".join(changed) + "</template>")


def forget_parts() -> None:
    """Tests that count what a board costs when it is rendered start from none kept (as rendering.forget_boards)."""
    with _guard:
        _parts.clear()
        _lines.clear()


def collecting() -> dict[str, Any]:
    """The render context's entry under which `part` records a render's parts."""
    return {"parts": {}}
