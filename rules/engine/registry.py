"""The games the club plays, by key, with their player ranges and house-rule options.

The club's four games are always here, in the club's order (the first is every page's default game).
`register` adds another game for a while (a test's game, a variant being tried) and `unregister` takes it
away again: the web layer reads the games from here at run time, so a registered game is offered,
played and settled like the four, from its module and its `SPEC` alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from rules.engine.api import GameModule, GameSpec
from rules.engine.moves import Move

GAME_KEYS: tuple[str, ...] = ("sheepshead", "hawk", "hawsker", "puskiyon")
"""The club's own games (each is the package `rules.engine.<key>`, with its bot in `.bot`)."""

API: tuple[str, ...] = (
    "new_round", "to_act", "legal_moves", "apply", "view", "result", "to_json", "from_json",
    "start_match", "next_match", "match_over", "match_winners",
)
"""What a game module must provide besides its `SPEC` (see rules.engine.api.GameModule)."""


class Bot(Protocol):
    def choose(self, view: Mapping[str, Any], legal: Sequence[Move]) -> Move: ...


_added: dict[str, tuple[GameModule, Bot]] = {}  # registered at run time, in the order they came


def game_keys() -> tuple[str, ...]:
    """Every game playable now: the club's four, then any registered since, in that order."""
    return GAME_KEYS + tuple(_added)


def known(key: object) -> bool:
    return key in GAME_KEYS or key in _added


def default_key() -> str:
    """The game a page shows when nobody chose one."""
    return GAME_KEYS[0]


def game(key: str) -> GameModule:
    if key in _added:
        return _added[key][0]
    if key not in GAME_KEYS:
        raise KeyError(f"no game {key!r}")
    return cast(GameModule, importlib.import_module(f"rules.engine.{key}"))


def bot(key: str) -> Bot:
    """The game's bot: `choose(view, legal) -> Move`, seeing only its seat's view."""
    if key in _added:
        return _added[key][1]
    game(key)
    return cast(Bot, importlib.import_module(f"rules.engine.{key}.bot"))


def spec(key: str) -> GameSpec:
    return game(key).SPEC


def all_specs() -> list[GameSpec]:
    return [spec(key) for key in game_keys()]


def register(module: Any, *, bot: Any) -> None:
    """Make `module` (the engine API and a `SPEC`) playable under its spec's key, with `bot` playing its
    empty seats. Refused (ValueError, nothing registered) when a part is missing or the key is taken."""
    found = getattr(module, "SPEC", None)
    if not isinstance(found, GameSpec):
        raise ValueError("a game module needs a SPEC (rules.engine.api.GameSpec)")
    missing = [name for name in API if not callable(getattr(module, name, None))]
    if missing:
        raise ValueError(f"{found.key}: the game module has no {', '.join(missing)}")
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{found.key}: the bot has no choose(view, legal)")
    if known(found.key):
        raise ValueError(f"a game {found.key!r} is already registered")
    _added[found.key] = (cast(GameModule, module), cast(Bot, bot))


def unregister(key: str) -> None:
    """Take a registered game away again; the club's own games stay."""
    if key in GAME_KEYS:
        raise ValueError(f"{key!r} is built in: it cannot be unregistered")
    if _added.pop(key, None) is None:
        raise KeyError(f"no registered game {key!r}")


def last_event(key: str, state: Any, viewer: int | None) -> str:
    """What the round's last move did, as `viewer` (None: a spectator) may read it. A game may say it with
    `last_event(state, viewer)`; one that does not is read from its view's "last" line."""
    module = game(key)
    narrate = getattr(module, "last_event", None)
    if narrate is not None:
        return narrate(state, viewer) or ""  # a Said stays one: the web layer translates it (rules.engine.text)
    return module.view(state, viewer).get("last") or ""


def tricks_done(key: str, state: Any) -> int:
    """Tricks finished in the round so far (0 for a game without tricks, or one that does not say)."""
    count = getattr(game(key), "tricks_done", None)
    return int(count(state)) if count is not None else 0
