"""How many tables of which size a field of entrants splits into, for the session games (Sheepshead, Hawk,
Puskiyon)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from rules.engine.registry import spec


@dataclass(frozen=True)
class TableRange:
    ideal: int
    smallest: int
    largest: int


SESSION_TABLES: dict[str, TableRange] = {
    "sheepshead": TableRange(ideal=5, smallest=4, largest=6),
    "hawk": TableRange(ideal=4, smallest=3, largest=5),
    "puskiyon": TableRange(ideal=4, smallest=3, largest=5),
}
"""A tournament keeps to sizes close to the game's usual table, though the rules allow more: a hand of
Sheepshead at three or seven, or of Hawk at two or six, is a different game (other deal sizes, no partner,
other stakes per player), and results from such tables would not compare fairly with the rest of the field.
Sheepshead plays five-handed, the issue's words allow four and six where the count forces it; Hawk and
Puskiyon play at their default of four, with three or five where needed."""


def table_sizes(entrants: int, *, ideal: int, smallest: int, largest: int) -> list[int]:
    """The split, largest tables first. As many tables as possible seat `ideal` players: the split with the
    fewest tables of another size wins; among those, the one whose odd tables stand nearest the ideal (the
    summed distance), then the one with the larger odd tables (fewer players sit at a cramped table's
    short-handed variant than at a crowded one, and it means fewer tables to staff)."""
    if not 1 <= smallest <= ideal <= largest:
        raise ValueError(f"table sizes need 1 <= smallest <= ideal <= largest, not {smallest}, {ideal}, {largest}")
    if entrants < 1:
        raise ValueError(f"a tournament needs entrants, not {entrants}")
    others = [size for size in range(smallest, largest + 1) if size != ideal]
    for count in range(entrants // smallest + 1):
        fits = [odd for odd in combinations_with_replacement(others, count)
                if sum(odd) <= entrants and (entrants - sum(odd)) % ideal == 0]
        if fits:
            best = min(fits, key=lambda odd: (sum(abs(size - ideal) for size in odd), [-size for size in odd[::-1]]))
            sizes = [ideal] * ((entrants - sum(best)) // ideal) + list(best)
            return sorted(sizes, reverse=True)
    raise ValueError(f"{entrants} entrants cannot sit at tables of {smallest} to {largest} players")


def session_table_sizes(game: str, entrants: int) -> list[int]:
    """The split for a session of `game`, by the club's tournament sizes (SESSION_TABLES), which each game's
    rules allow."""
    if game not in SESSION_TABLES:
        raise ValueError(f"{game!r} is not played in sessions at tables (two-player games play Swiss rounds)")
    tables = SESSION_TABLES[game]
    rules = spec(game)
    if not rules.min_players <= tables.smallest <= tables.largest <= rules.max_players:
        raise ValueError(f"{game}: tournament tables of {tables.smallest} to {tables.largest} are outside its "
                         f"rules' {rules.min_players} to {rules.max_players} players")
    return table_sizes(entrants, ideal=tables.ideal, smallest=tables.smallest, largest=tables.largest)
