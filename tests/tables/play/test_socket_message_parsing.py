"""What a club socket reads from a browser: a JSON object, refused before it is decoded when it nests deeper than any
page's message (json.loads recurses once per level), whatever brackets its strings hold."""

from __future__ import annotations

import json

import pytest

from tables.play import sockets
from tests.tables.play.test_socket_floods import DEPTH_BOMBS


def test_nesting_is_read_without_recursion_and_brackets_in_strings_do_not_nest() -> None:
    deepest = "[" * (sockets.MAX_NESTING - 1) + "]" * (sockets.MAX_NESTING - 1)
    assert sockets.parse_message('{"a": ' + deepest + "}", None) == {"a": json.loads(deepest)}
    one_more = "[" * sockets.MAX_NESTING + "]" * sockets.MAX_NESTING
    for bomb in [*DEPTH_BOMBS, '{"a": ' + one_more + "}"]:
        with pytest.raises(sockets.Refused, match="nested too deeply"):
            sockets.parse_message(bomb, None)
    # A chat line may hold any brackets: inside a string they are text (escaped quotes and all).
    line = {"kind": "chat", "text": '[[[[{{{{ "quoted \\" [[[[[[[[[[[[' * 20}
    assert sockets.parse_message(json.dumps(line), None) == line
    # An unterminated string is no JSON: refused as such, whatever it holds.
    with pytest.raises(sockets.Refused, match="not one this page sends"):
        sockets.parse_message('{"a": "' + '\\"[' * 3000, None)
