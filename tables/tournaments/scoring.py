"""What a hand is worth in a tournament: points, never money.

A club tournament is played for places and prizes, not for what the hands would pay at the table (the Wisconsin
tournaments score each hand in points: the picker's rate times the stake is simply the rate). So a game settled
in money (Sheepshead: `GameSpec.unit` "cents") counts each hand as its settlement in stakes, and a game counted in
points keeps them. A side's share is not always whole stakes: with four opponents the picker and partner split
four stakes two thirds to one third, as the money does to the cent. Points are whole, so each seat's share is
taken toward zero and what that leaves goes to the seat with the largest share (the picker), the rule the money
follows for its cents: a hand's points still sum to zero. Because of that rounding a table's points are the sum of
its hands' points, never its money total converted at once. Every path that scores a tournament hand (the online
table's rounds, the in-person sheet, the ledger's entries for both, the books' check) converts through here, so
they cannot disagree.

A game played to a target (Puskiyon) is counted in points, so a hand's points are its own and a session's are the
sum of its hands': each player's final total. A club table of such a game is recorded from those totals alone
(`totals_points`, tables.tournaments.club_tables.record_club_totals), and that is the same number the online
table's hands add up to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.engine import registry

STAKE_OPTION = "stake_cents"


def _stake(game: str, options: Mapping[str, Any]) -> int:
    spec = registry.spec(game)
    return int(options.get(STAKE_OPTION) or spec.make_config(spec.min_players, {}).get(STAKE_OPTION))


def _toward_zero(amount: int, stake: int) -> int:
    return amount // stake if amount >= 0 else -(-amount // stake)


def hand_points(*, game: str, amounts: Sequence[int], options: Mapping[str, Any]) -> list[int]:
    """One hand's results per seat (in the game's unit) as tournament points per seat."""
    if registry.spec(game).unit != "cents":
        return [int(amount) for amount in amounts]
    stake = _stake(game, options)
    points = [_toward_zero(int(amount), stake) for amount in amounts]
    rest = -sum(points)  # a hand's money sums to zero, and so do its points
    if rest and points:
        largest = max(range(len(points)), key=lambda seat: (abs(int(amounts[seat])), -seat))
        points[largest] += rest
    return points


def points_over(*, game: str, hands: Iterable[Sequence[int]], options: Mapping[str, Any], seats: int) -> list[int]:
    """A table's points per seat: the sum of its hands' points."""
    total = [0] * seats
    for amounts in hands:
        for seat, points in enumerate(hand_points(game=game, amounts=amounts, options=options)):
            total[seat] += points
    return total


def tournament_points(match: Any, game: str, options: Mapping[str, Any], *, seats: int) -> list[int]:
    """A played match's points per seat, from its score sheet's rows (one per finished round, kept on the match as
    each round ends, so they are whole even inside the transaction that finishes the last round)."""
    return points_over(game=game, hands=[row["deltas"] for row in match.sheet or []], options=options, seats=seats)


def totals_points(*, game: str, totals: Sequence[int], options: Mapping[str, Any]) -> list[int]:
    """A played game's points per seat from its final totals alone (a club table of Puskiyon, whose staff enter
    only those). The same conversion as the online table's hands summed (`points_over` of one row of the totals),
    which a game counted in points makes exact; a money game is refused, because its points are rounded hand by
    hand and its totals alone cannot give them."""
    if registry.spec(game).unit == "cents":
        raise ValueError(f"{game}: a money game's tournament points come from its hands, not from its totals")
    return points_over(game=game, hands=[totals], options=options, seats=len(totals))
