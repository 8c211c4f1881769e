"""Errors the engine raises; their messages are shown to players as they are."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules do not allow now; `reason` is a sentence a person can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConfigError(ValueError):
    """A table configuration the game cannot be played with (players, options)."""
