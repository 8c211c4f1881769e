"""The common shape of every game: configuration, match, round result, game spec.

Each game is a package `rules.engine.<key>` exposing the same functions (see `GameModule`), so
the web layer, the bench and the tests treat all four games alike and only ask questions:
whose turn, what is legal, what may this seat see, what did the round pay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.engine.errors import ConfigError
from rules.engine.moves import Move
from rules.engine.text import said


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A per-table house rule; `default` is how the club plays when nobody says otherwise."""

    name: str
    label: str
    default: Any
    help: str
    choices: tuple[tuple[Any, str], ...] = ()  # (value, label) for a choice
    minimum: int | None = None  # for whole numbers
    maximum: int | None = None
    unit: str = ""  # "cents": a whole number shown as dollars and cents
    zero_text: str = ""  # what 0 means, when it means something other than none (`rounds`: once round the table)

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if isinstance(self.default, bool):
            return "bool"
        return "int"

    def describe(self, value: Any) -> str:
        """The value as the table page's house rules show it to people."""
        if self.kind == "choice":
            return next((label for choice, label in self.choices if choice == value), str(value))
        if self.kind == "bool":
            return said("yes") if value else said("no")
        if value == 0 and self.zero_text:
            return self.zero_text
        if self.unit == "cents" and isinstance(value, int):
            return f"${value / 100:.2f}"
        return str(value)

    def clean(self, value: Any) -> Any:
        """The value as this option stores it, or ConfigError saying what is wrong."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"1", "true", "on", "yes", "0", "false", "off", "no", ""}:
                return value.lower() in {"1", "true", "on", "yes"}
            raise ConfigError(f"{self.label}: choose yes or no")
        if self.kind == "choice":
            for choice, _label in self.choices:
                if value == choice:
                    return choice
            allowed = ", ".join(str(c) for c, _ in self.choices)
            raise ConfigError(f"{self.label}: {value!r} is not one of {allowed}")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{self.label}: {value!r} is not a whole number") from None
        if isinstance(value, float) and value != number:
            raise ConfigError(f"{self.label}: {value!r} is not a whole number")
        if self.minimum is not None and number < self.minimum:
            raise ConfigError(f"{self.label}: at least {self.minimum}")
        if self.maximum is not None and number > self.maximum:
            raise ConfigError(f"{self.label}: at most {self.maximum}")
        return number


UNITS = ("cents", "points")  # what a game's results are counted in: money (cents) or points
RANKINGS = ("total", "matches")  # what a game's standings rank by (GameSpec.ranked_by)


@dataclass(frozen=True, slots=True)
class Band:
    """One stake or length quick play offers for a game: `value` of the game's `band_option`."""

    key: str
    label: str
    value: Any


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything the web layer knows about a game: it asks these, and never names a game itself."""

    key: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    unit: str  # one of UNITS: "cents" (money; a round's results sum to zero) or "points"
    options: tuple[OptionSpec, ...] = ()
    blurb: str = ""
    lower_is_better: bool = False  # standings rank the lowest total first (the points count against you)
    # What the standings rank by: "total" (the money or points summed over the period's hands, for games whose
    # match is a fixed number of deals) or "matches" (matches won, then points per hand, for games played to a
    # target, where summed points reward playing fewer hands).
    ranked_by: str = "total"
    # Quick play: the option a band sets, its bands (the club's usual one first: it wins ties and is what a
    # bot table gets when nobody chose), and what a band is called ("stake": "Stake", "any stake").
    band_option: str = ""
    bands: tuple[Band, ...] = ()
    band_name: str = "length"

    def __post_init__(self) -> None:
        """A spec that cannot be played is refused when it is written, not when a member meets it."""
        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.key}: the default of {self.default_players} players is not within "
                             f"{self.min_players} to {self.max_players}")
        if self.unit not in UNITS:
            raise ValueError(f"{self.key}: the unit is one of {', '.join(UNITS)}, not {self.unit!r}")
        if self.ranked_by not in RANKINGS:
            raise ValueError(f"{self.key}: standings rank by one of {', '.join(RANKINGS)}, not {self.ranked_by!r}")
        if bool(self.band_option) != bool(self.bands):
            raise ValueError(f"{self.key}: quick-play bands need a band option, and a band option needs bands")
        if self.band_option:
            option = self.option(self.band_option) if self.band_option in {o.name for o in self.options} else None
            if option is None:
                raise ValueError(f"{self.key}: the band option names no option {self.band_option!r}")
            if len({b.key for b in self.bands}) != len(self.bands) or not all(b.key for b in self.bands):
                raise ValueError(f"{self.key}: every band needs a key of its own")
            for band in self.bands:
                try:
                    ok = option.clean(band.value) == band.value
                except ConfigError:
                    ok = False
                if not ok:
                    raise ValueError(f"{self.key}: band {band.key!r} sets {option.name} to {band.value!r}, "
                                     "which the option refuses")

    def band(self, key: str) -> Band | None:
        return next((b for b in self.bands if b.key == key), None)

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def make_config(self, players: int | None = None, options: Mapping[str, Any] | None = None) -> Config:
        """A checked configuration: defaults filled in, unknown options and bad values refused."""
        count = self.default_players if players is None else players
        if not isinstance(count, int) or not self.min_players <= count <= self.max_players:
            raise ConfigError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, not {count!r}"
            )
        given = dict(options or {})
        unknown = sorted(set(given) - {o.name for o in self.options})
        if unknown:
            raise ConfigError(f"{self.title} has no option {', '.join(unknown)}")
        values = tuple((o.name, o.clean(given[o.name]) if o.name in given else o.default) for o in self.options)
        return Config(game=self.key, players=count, options=values)


@dataclass(frozen=True, slots=True)
class Config:
    """A game, its number of players and its house rules.

    The options are kept sorted by name, however they were given: a configuration read back from JSON must equal
    the one written, and JSON objects have no key order to rely on (PostgreSQL's jsonb gives shorter keys first).
    """

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(sorted(self.options, key=lambda option: option[0])))

    def get(self, name: str) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(f"{self.game} has no option {name!r}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return cls(game=data["game"], players=int(data["players"]), options=tuple(dict(data["options"]).items()))


@dataclass(frozen=True, slots=True)
class Match:
    """What carries from one round to the next: the dealer, running totals, and game extras.

    `carry` holds what a game keeps between rounds (Hawsker's kept cards and stock), as JSON data.
    """

    number: int  # rounds finished so far
    dealer: int
    totals: tuple[int, ...]
    seed: str = ""
    carry: Mapping[str, Any] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "totals": list(self.totals),
            "seed": self.seed,
            "carry": self.carry,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        return cls(
            number=int(data["number"]),
            dealer=int(data["dealer"]),
            totals=tuple(int(t) for t in data["totals"]),
            seed=str(data.get("seed", "")),
            carry=data.get("carry"),
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Each seat's change (cents for money games, points otherwise) and a summary to show people."""

    deltas: tuple[int, ...]
    unit: str
    summary: Mapping[str, Any] = field(default_factory=dict)


class GameModule(Protocol):
    SPEC: GameSpec

    def new_round(self, config: Config, seed: str, match: Match | None = None) -> Any: ...
    def to_act(self, state: Any) -> int | None: ...
    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...
    def apply(self, state: Any, seat: int, move: Move) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def result(self, state: Any) -> RoundResult: ...
    def to_json(self, state: Any) -> dict[str, Any]: ...
    def from_json(self, data: Mapping[str, Any]) -> Any: ...
    def start_match(self, config: Config, seed: str) -> Match: ...
    def next_match(self, config: Config, match: Match, state: Any) -> Match: ...
    def match_over(self, config: Config, match: Match) -> bool: ...
    def match_winners(self, config: Config, match: Match) -> list[int]: ...


def replay(
    game: GameModule, config: Config, seed: str, moves: Sequence[tuple[int, str]], match: Match | None = None
) -> Any:
    """The state reached by dealing from `seed` and applying each `(seat, move text)` in order."""
    state = game.new_round(config, seed, match)
    for seat, text in moves:
        state = game.apply(state, seat, Move.parse(text))
    return state
