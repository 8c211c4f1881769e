"""Money at the end of a Sheepshead hand, in whole cents that always sum to zero.

These are the public helpers RULES.md names (other code and tests call them by keyword), kept
apart from the play so that a results screen, the ledger and the tests can settle a hand from
its few facts: who picked, who was partner, how many points the picker's side took.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.sheepshead.deck import DEAL_SIZES

TOTAL_POINTS = 120


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or players not in DEAL_SIZES:
        raise ValueError(f"Sheepshead is played by 3 to 7 players, not {players!r}")
    return players


def _check_seat(name: str, seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"{name} must be a seat from 0 to {players - 1}, not {seat!r}")
    return seat


def _check_stake(stake_cents: object) -> int:
    if isinstance(stake_cents, bool) or not isinstance(stake_cents, int) or stake_cents <= 0:
        raise ValueError(f"the stake must be a positive whole number of cents, not {stake_cents!r}")
    return stake_cents


def picker_rate(picker_points: int) -> int:
    """Stakes each opponent pays the picker (negative: receives from the picker) for these points."""
    if isinstance(picker_points, bool) or not isinstance(picker_points, int):
        raise ValueError(f"picker points must be a whole number, not {picker_points!r}")
    if picker_points in (1, TOTAL_POINTS - 1) or not 0 <= picker_points <= TOTAL_POINTS:
        raise ValueError(f"the picker cannot take {picker_points} points (0, 2 to 118, or 120)")
    if picker_points == TOTAL_POINTS:
        return 3
    if picker_points >= 90:
        return 2
    if picker_points >= 61:
        return 1
    if picker_points >= 30:
        return -2
    if picker_points >= 2:
        return -4
    return -6


def settle(
    players: int, picker: int, partner: int | None, picker_points: int, stake_cents: int = 100
) -> list[int]:
    """Each seat's money in cents: every opponent pays rate x stake; the side splits it 2/3 to 1/3.

    The partner's third is rounded toward zero to the cent and the picker takes the rest, so the
    list always sums to exactly zero. `partner` is None when the picker plays alone; a partner
    exists only with 5 or more players.
    """
    players = _check_players(players)
    picker = _check_seat("picker", picker, players)
    if partner is not None:
        partner = _check_seat("partner", partner, players)
        if partner == picker:
            raise ValueError("the partner cannot be the picker")
        if players < 5:
            raise ValueError(f"with {players} players the picker always plays alone")
    stake = _check_stake(stake_cents)
    rate = picker_rate(picker_points)
    per_opponent = rate * stake
    side = (picker,) if partner is None else (picker, partner)
    opponents = players - len(side)
    total = per_opponent * opponents
    money = [-per_opponent] * players
    if partner is None:
        money[picker] = total
    else:
        third = abs(total) // 3 if total >= 0 else -(abs(total) // 3)  # toward zero, in whole cents
        money[partner] = third
        money[picker] = total - third
    return money


def leaster_winner(points: Sequence[int], tricks: Sequence[int]) -> int | None:
    """The seat with the fewest points among those who took a trick; None on a tie for fewest."""
    if len(points) != len(tricks):
        raise ValueError("points and tricks need one entry per seat")
    takers = [seat for seat, count in enumerate(tricks) if count > 0]
    if not takers:
        return None
    fewest = min(points[seat] for seat in takers)
    lowest = [seat for seat in takers if points[seat] == fewest]
    return lowest[0] if len(lowest) == 1 else None


def settle_leaster(players: int, winner: int | None, stake_cents: int = 100) -> list[int]:
    """The leaster's winner collects one stake from every other player; no winner, nothing paid."""
    players = _check_players(players)
    stake = _check_stake(stake_cents)
    if winner is None:
        return [0] * players
    winner = _check_seat("winner", winner, players)
    money = [-stake] * players
    money[winner] = stake * (players - 1)
    return money
