"""Seeded hands for club-night tests, and their prices computed independently with the engine's public helpers
(never through the ledger's services, so a pricing mistake there cannot hide in the expectation)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.engine import sheepshead
from rules.engine.sheepshead.scoring import TOTAL_POINTS

VALID_POINTS = [0, *range(2, TOTAL_POINTS - 1), TOTAL_POINTS]


@dataclass(frozen=True)
class SeededHand:
    """One hand as the treasurer would enter it (seats by position) and the money the engine pays each seat."""

    picker: int | None  # None: a leaster
    partner: int | None
    points: int | None
    leaster_points: list[int] | None
    leaster_tricks: list[int] | None
    money: list[int]

    def row(self, members: list[Any]) -> dict[str, str]:
        """The sheet's row form, filled in: players chosen from the night's own lists (their ids)."""
        if self.picker is None:
            return {"picker": "leaster", "points": "", "partner": "",
                    "leaster_points": " ".join(map(str, self.leaster_points or [])),
                    "leaster_tricks": " ".join(map(str, self.leaster_tricks or []))}
        return {"picker": str(members[self.picker].pk),
                "partner": "" if self.partner is None else str(members[self.partner].pk),
                "points": str(self.points), "leaster_points": "", "leaster_tricks": ""}


def _parts(rng: random.Random, total: int, count: int, least: int) -> list[int]:
    """`total` split into `count` random parts, each at least `least`."""
    spare = total - least * count
    cuts = sorted(rng.randint(0, spare) for _ in range(count - 1))
    edges = [0, *cuts, spare]
    return [least + edges[i + 1] - edges[i] for i in range(count)]


def seeded_sheepshead_hands(seed: int, count: int, players: int, stake_cents: int) -> list[SeededHand]:
    rng = random.Random(seed)
    tricks_in_hand, _blind = sheepshead.deal_sizes(players)
    hands = []
    for _ in range(count):
        if rng.random() < 0.15:
            takers = sorted(rng.sample(range(players), rng.randint(2, min(players, tricks_in_hand))))
            tricks = [0] * players
            for seat, share in zip(takers, _parts(rng, tricks_in_hand, len(takers), 1), strict=True):
                tricks[seat] = share
            points = [0] * players
            for seat, share in zip(takers, _parts(rng, TOTAL_POINTS, len(takers), 2), strict=True):
                points[seat] = share
            winner = sheepshead.leaster_winner(points=points, tricks=tricks)
            money = sheepshead.settle_leaster(players=players, winner=winner, stake_cents=stake_cents)
            hands.append(SeededHand(None, None, None, points, tricks, money))
            continue
        picker = rng.randrange(players)
        partner = None
        if players >= 5 and rng.random() < 0.8:
            partner = rng.choice([seat for seat in range(players) if seat != picker])
        points = rng.choice(VALID_POINTS)
        money = sheepshead.settle(players=players, picker=picker, partner=partner, picker_points=points,
                                  stake_cents=stake_cents)
        hands.append(SeededHand(picker, partner, points, None, None, money))
    return hands


def sheet_version(token: str) -> int:
    """The version of the sheet as the database has it: what a page loaded now would send with a change."""
    from tables.models import NightDraft

    return NightDraft.objects.get(token=token).version


def sheet_rows(token: str) -> list[dict[str, Any]]:
    """The rows of the sheet as stored (data as typed), in the paper's order."""
    from tables.models import NightDraft

    return [row.data for row in NightDraft.objects.get(token=token).rows.order_by("number")]
