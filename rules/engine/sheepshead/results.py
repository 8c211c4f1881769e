"""What a finished Sheepshead hand pays, read off its tricks and its bury.

Points and trick counts are derived from the tricks rather than kept in the state, so the money
always agrees with the cards a results screen or an admin replay shows.
"""

from __future__ import annotations

from rules.engine.api import RoundResult
from rules.engine.sheepshead.deck import JACK_OF_DIAMONDS, points_of
from rules.engine.sheepshead.scoring import (
    TOTAL_POINTS,
    leaster_winner,
    picker_rate,
    settle,
    settle_leaster,
)
from rules.engine.sheepshead.spec import SPEC
from rules.engine.sheepshead.state import OVER, State
from rules.engine.text import said
from rules.engine.text import seat as seat_said


def trick_points(state: State) -> list[int]:
    """Card points each seat has taken in tricks (in a leaster the blind counts for the last trick)."""
    points = [0] * state.players
    for _leader, winner, cards in state.tricks:
        points[winner] += points_of(cards)
    if state.picker is None and state.phase == OVER and state.tricks:
        points[state.tricks[-1][1]] += points_of(state.table.blind)
    return points


def tricks_taken(state: State) -> list[int]:
    counts = [0] * state.players
    for _leader, winner, _cards in state.tricks:
        counts[winner] += 1
    return counts


def jd_played(state: State) -> bool:
    """Whether the jack of diamonds has been seen on the table (which reveals the partnership)."""
    if JACK_OF_DIAMONDS in state.trick:
        return True
    return any(JACK_OF_DIAMONDS in cards for _leader, _winner, cards in state.tricks)


def result(state: State) -> RoundResult:
    if state.phase != OVER:
        raise ValueError("the hand is not over yet")
    players = state.players
    points = trick_points(state)
    counts = tricks_taken(state)
    summary: dict[str, object] = {
        "kind": "leaster" if state.picker is None else "picker",
        "picker": state.picker,
        "partner": state.partner,
        "alone": None,
        "picker_points": None,
        "opponent_points": None,
        "rate": None,
        "leaster_winner": None,
        "points": points,
        "tricks": counts,
        "stake_cents": state.table.stake,
    }
    if state.picker is None:
        winner = leaster_winner(points=points, tricks=counts)
        money = settle_leaster(players=players, winner=winner, stake_cents=state.table.stake)
        summary["leaster_winner"] = winner
        if winner is None:
            low = min(p for p, c in zip(points, counts, strict=True) if c)
            text = said("Leaster: a tie for fewest points (%(points)s), so nothing is paid.", points=low)
        else:
            text = said("Leaster: %(player)s won with %(points)s points and collects from everybody.",
                        player=seat_said(winner), points=points[winner])
    else:
        side = [state.picker] if state.partner is None else [state.picker, state.partner]
        picker_points = sum(points[s] for s in side) + points_of(state.buried)
        rate = picker_rate(picker_points)
        money = settle(
            players=players, picker=state.picker, partner=state.partner,
            picker_points=picker_points, stake_cents=state.table.stake,
        )
        summary.update(
            alone=state.partner is None,
            picker_points=picker_points,
            opponent_points=TOTAL_POINTS - picker_points,
            rate=rate,
        )
        if state.partner is None:
            who = said("%(picker)s alone", picker=seat_said(state.picker, capital=True))
        else:
            who = said("%(picker)s with %(partner)s", picker=seat_said(state.picker, capital=True),
                       partner=seat_said(state.partner))
        stakes = said("1 stake") if abs(rate) == 1 else said("%(count)s stakes", count=abs(rate))
        if rate > 0:
            text = said("%(who)s took %(points)s points and wins %(stakes)s from each opponent.",
                        who=who, points=picker_points, stakes=stakes)
        else:
            text = said("%(who)s took %(points)s points and pays %(stakes)s to each opponent.",
                        who=who, points=picker_points, stakes=stakes)
    summary["money"] = money
    summary["text"] = text
    return RoundResult(deltas=tuple(money), unit=SPEC.unit, summary=summary)
