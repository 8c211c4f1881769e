"""Parts of the board that most versions leave as they were, kept rendered from one version to the next.

Why: every version renders a board for every viewer, and most of a board is what the version before showed: the
score sheet changes once a round, the house rules never while a round lasts, a line of the move log never once it
is written. Rendering them again at every version was about a third of a board (bench/README.md, issue 43). A part
is kept under everything it is rendered from, named by the template's call (`{% call kept("sheet", key) %}`), with
the language active for the render added here: the viewer's seat is in every key that shows something of the
viewer's own (the score sheet's "(you)" column, a seat's own log lines), so a part never crosses from one viewer's
board to another's, and a changed input is a new key, never a stale part. Kept in this process, as the boards are
(tables.play.rendering): a part is worth keeping only while its table plays on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable

from django.utils.translation import get_language
from markupsafe import Markup, escape

from tables.play.selectors import LogLine

PARTS_KEPT = 4096  # two or three parts a viewer of a live table, a few viewers a table
LINES_KEPT = 65536  # rendered log lines: a round's few dozen a viewer

_parts: OrderedDict[tuple[Hashable, ...], Markup] = OrderedDict()
_lines: OrderedDict[LogLine, Markup] = OrderedDict()
_guard = threading.Lock()


def kept(name: str, key: Hashable, *, caller: Callable[[], str]) -> Markup:
    """A Jinja call block's body (`caller`), rendered once for `name`, `key` and the language, then kept."""
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


def forget_parts() -> None:
    """Tests that count what a board costs when it is rendered start from none kept (as rendering.forget_boards)."""
    with _guard:
        _parts.clear()
        _lines.clear()
