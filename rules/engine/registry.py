"""The games the club plays, by key, with their player ranges and house-rule options."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import cast

from rules.engine.api import GameModule, GameSpec

GAME_KEYS: tuple[str, ...] = ("sheepshead", "hawk", "hawsker", "puskiyon")


def game(key: str) -> GameModule:
    if key not in GAME_KEYS:
        raise KeyError(f"no game {key!r}")
    return cast(GameModule, importlib.import_module(f"rules.engine.{key}"))


def bot(key: str) -> ModuleType:
    """The game's bot module: `choose(view, legal) -> Move`, seeing only its seat's view."""
    game(key)
    return importlib.import_module(f"rules.engine.{key}.bot")


def spec(key: str) -> GameSpec:
    return game(key).SPEC


def all_specs() -> list[GameSpec]:
    return [spec(key) for key in GAME_KEYS]
