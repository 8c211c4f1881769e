"""Money at the end of a Sheepshead hand, in whole cents that always sum to zero.

These are the public helpers RULES.md names (other code and tests call them by keyword), kept
apart from the play so that a results screen, the ledger and the tests can settle a hand from
its few facts: who picked, who was partner, how many points the picker's side took.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.sheepshead.deck import DEAL_SIZES
from rules.engine.sheepshead.house import (
    BUMP_DOUBLE,
    MAX_CRACKS,
    SCHNEIDER_30,
    SCHNEIDER_SEED,
    SCHWARZ_POINTS,
    SCHWARZ_TRICKS,
    check_choice,
)

TOTAL_POINTS = 120
WINNING_POINTS = 61
SCHNEIDER_LINE = 30


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


def picker_rate(
    picker_points: int, *, schneider: str = SCHNEIDER_SEED, schwarz: str = SCHWARZ_POINTS, bump: str = BUMP_DOUBLE,
    losers_took_trick: bool | None = None,
) -> int:
    """Stakes each opponent pays the picker (negative: receives from the picker) for these points.

    The keywords are a night's house rules (rules.engine.sheepshead.house); their defaults are the seed's rules,
    RULES.md's table. `losers_took_trick` is whether the losing side (the opponents when the picker has 61 or
    more) took a trick: it decides schwarz under `schwarz="no_trick"` and must then be given.
    """
    if isinstance(picker_points, bool) or not isinstance(picker_points, int):
        raise ValueError(f"picker points must be a whole number, not {picker_points!r}")
    if picker_points in (1, TOTAL_POINTS - 1) or not 0 <= picker_points <= TOTAL_POINTS:
        raise ValueError(f"the picker cannot take {picker_points} points (0, 2 to 118, or 120)")
    schneider, schwarz, bump = (check_choice("schneider", schneider), check_choice("schwarz", schwarz),
                                check_choice("bump", bump))
    won = picker_points >= WINNING_POINTS
    if schwarz == SCHWARZ_TRICKS:
        if not isinstance(losers_took_trick, bool):
            raise ValueError("with schwarz by tricks, say whether the losing side took a trick")
        if won and not losers_took_trick and picker_points != TOTAL_POINTS:
            raise ValueError(f"opponents who took no trick leave the picker all {TOTAL_POINTS} points, "
                             f"not {picker_points}")
        schwarzed = not losers_took_trick
    else:
        schwarzed = picker_points in (0, TOTAL_POINTS)
    losers_points = TOTAL_POINTS - picker_points if won else picker_points
    if schwarzed:
        level = 3
    elif _schneidered(losers_points, picker_lost=not won, line=schneider):
        level = 2
    else:
        level = 1
    if won:
        return level
    return -level * (2 if bump == BUMP_DOUBLE else 1)


def _schneidered(points: int, *, picker_lost: bool, line: str) -> bool:
    """Whether a losing side with `points` is schneider: under the seed's table 30 is schneider for the opponents
    (a picker with 90 wins 2) but not for the picker (a picker with 30 loses 2)."""
    if line == SCHNEIDER_30 or (line == SCHNEIDER_SEED and not picker_lost):
        return points <= SCHNEIDER_LINE
    return points < SCHNEIDER_LINE


def settle(
    players: int, picker: int, partner: int | None, picker_points: int, stake_cents: int = 100, *,
    schneider: str = SCHNEIDER_SEED, schwarz: str = SCHWARZ_POINTS, bump: str = BUMP_DOUBLE,
    losers_took_trick: bool | None = None, cracks: int = 0,
) -> list[int]:
    """Each seat's money in cents: every opponent pays rate x stake; the side splits it 2/3 to 1/3.

    The keywords are a night's house rules, defaulting to the seed's (see `picker_rate`); `cracks` is 1 when a
    defender cracked the hand and 2 when the picker re-cracked, each doubling the stake.

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
    stake = _check_stake(stake_cents) * crack_factor(cracks)
    rate = picker_rate(picker_points, schneider=schneider, schwarz=schwarz, bump=bump,
                       losers_took_trick=losers_took_trick)
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


def crack_factor(cracks: int) -> int:
    """What cracking multiplies the stake by: 1 uncracked, 2 cracked, 4 cracked and re-cracked."""
    if isinstance(cracks, bool) or not isinstance(cracks, int) or not 0 <= cracks <= MAX_CRACKS:
        raise ValueError(f"a hand is cracked 0, 1 or {MAX_CRACKS} times (re-cracked), not {cracks!r}")
    return 2**cracks


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
