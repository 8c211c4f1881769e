"""The board a page holds, rebuilt from the table socket's messages as static/js/board_parts.js rebuilds it (issue 43):
the whole board first, then the parts each version changed (tables/play/board_parts.py). Used by the load generator
(which plays from the boards its sockets hold) and by the tests that read pushed boards. Plain string work on the
site's own markup: each part is one element with data-part, and the board's opening tag comes first in a message."""

from __future__ import annotations

import re

VERSION = re.compile(r'id="board"[^>]*data-version="(\d+)"')
_OPENING_TAG = re.compile(r'<section id="board"[^>]*>')
_PART_START = re.compile(r'<(\w+)[^>]*\sdata-part="(\w+)"')


def _element_at(html: str, start: int, tag: str) -> int:
    """The end of the element whose opening tag starts at `start` (its tag's own nesting counted)."""
    depth, at = 0, start
    pattern = re.compile(rf"<(/?){tag}[\s>]")
    while True:
        found = pattern.search(html, at)
        assert found, f"<{tag}> at {start} never ends"
        depth += -1 if found.group(1) else 1
        at = found.end()
        if depth == 0:
            return html.index(">", found.start()) + 1


class BoardOnPage:
    """The board a page holds, rebuilt from the table socket's messages as static/js/board_parts.js rebuilds it: the
    whole board, then the parts each version changed (tables/play/board_parts.py)."""

    def __init__(self) -> None:
        self.html = ""

    def take(self, message: str) -> str:
        """The whole board after `message` (a whole board, or the parts that changed since the one held)."""
        delta = re.match(r'<template id="board-delta" data-base="(\d+)"[^>]*>(.*)</template>', message, re.S)
        if delta is None:
            start = message.index('<section id="board"')
            self.html = message[start:_element_at(message, start, "section")]
            return self.html
        found = VERSION.search(self.html)
        if not found or int(found.group(1)) != int(delta.group(1)):
            raise ValueError("a delta that builds on a board this page does not hold")
        body = delta.group(2)
        opening = _OPENING_TAG.match(body)
        assert opening, body[:200]
        html = _OPENING_TAG.sub(lambda _found: opening.group(0), self.html, count=1)
        rest = body[opening.end() + len("</section>"):]
        while rest:
            found = _PART_START.match(rest)
            assert found, rest[:200]
            end = _element_at(rest, 0, found.group(1))
            new, rest = rest[:end], rest[end:]
            html = _replace_part(html, found.group(2), new)
        self.html = html
        return html


def _replace_part(html: str, name: str, new: str) -> str:
    """`html` with its part `name` (one element, data-part="name") replaced by `new`."""
    marker = html.index(f'data-part="{name}"')
    start = html.rindex("<", 0, marker)
    tag = re.match(r"<(\w+)", html[start:]).group(1)
    return html[:start] + new + html[_element_at(html, start, tag):]
