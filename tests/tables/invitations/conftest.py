"""Fixtures of the invitation tests: three members, and every push that really leaves for the channel layer."""

from __future__ import annotations

from typing import Any

import pytest

from tables.play import push


@pytest.fixture
def members(make_member):
    return make_member("alice", display_name="Alice"), make_member("bob"), make_member("carol")


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict[str, Any]]]:
    """Every message that really leaves for the channel layer (pushes go out only after commit)."""
    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(push, "_send_all", lambda batch: messages.extend(batch))
    return messages
