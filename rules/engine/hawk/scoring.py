"""How a Hawk round is scored, usable without playing it in the engine.

The table engine scores from the tricks it saw; an admin recording a round played in person
only knows summary facts (who was LAFH, their pips, which bonus kinds showed up on which side).
Both go through `score_from_facts`, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.cards import Card
from rules.engine.hawk.deck import PIPS, deal_size

BONUS_KINDS: dict[str, str] = {
    "heavy": "a trick of more than 9 pips per player",
    "four_suits": "the same number in all four suits in one trick",
    "straight": "four consecutive numbers of one suit in one trick",
}
"""Bonus kinds by name, with the words a results screen shows."""

SOLO_FACTOR = 3


@dataclass(frozen=True, slots=True)
class HawkScore:
    """One round's score: the factor k, the points P, and what led to them."""

    players: int
    lafh: tuple[int, ...]
    nob: tuple[int, ...]
    solo: bool
    lafh_pips: int
    nob_pips: int
    won: bool
    every_trick: bool
    base_k: int
    lafh_bonuses: tuple[str, ...]  # bonus kinds counted for LAFH (+1 each)
    nob_bonuses: tuple[str, ...]  # bonus kinds counted against LAFH (-1 each)
    k: int
    points: int  # P: what each LAFH player gains (negative: loses)
    deltas: tuple[int, ...]  # per seat: P for LAFH seats, 0 for NOB

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "lafh": list(self.lafh),
            "nob": list(self.nob),
            "solo": self.solo,
            "lafh_pips": self.lafh_pips,
            "nob_pips": self.nob_pips,
            "won": self.won,
            "every_trick": self.every_trick,
            "base_k": self.base_k,
            "lafh_bonuses": list(self.lafh_bonuses),
            "nob_bonuses": list(self.nob_bonuses),
            "bonus": len(self.lafh_bonuses) - len(self.nob_bonuses),
            "k": self.k,
            "points": self.points,
            "deltas": list(self.deltas),
        }


def base_factor(*, won: bool, lafh_pips: int, every_trick: bool) -> int:
    """k before bonuses: won 1, >150 pips 2, >190 4, every trick 7; lost -2, <70 -3, <30 -6."""
    if won:
        if every_trick:
            return 7
        if lafh_pips > 190:
            return 4
        if lafh_pips > 150:
            return 2
        return 1
    if lafh_pips < 30:
        return -6
    if lafh_pips < 70:
        return -3
    return -2


def _counted(kinds: Iterable[str], per_trick: bool) -> tuple[str, ...]:
    listed = tuple(kinds)
    for kind in listed:
        if kind not in BONUS_KINDS:
            raise ValueError(f"{kind!r} is not a Hawk bonus (one of {', '.join(BONUS_KINDS)})")
    if per_trick:
        return tuple(sorted(listed, key=list(BONUS_KINDS).index))
    return tuple(kind for kind in BONUS_KINDS if kind in listed)


def _lafh_seats(players: int, lafh: int | Sequence[int]) -> tuple[int, ...]:
    seats = (lafh,) if isinstance(lafh, int) else tuple(lafh)
    if len(set(seats)) != len(seats) or not all(isinstance(s, int) and 0 <= s < players for s in seats):
        raise ValueError(f"LAFH must be distinct seats 0..{players - 1}, not {seats!r}")
    if players <= 3 and len(seats) != 1:
        raise ValueError(f"with {players} players LAFH is the last trick's taker alone")
    if not 1 <= len(seats) <= 2:
        raise ValueError("LAFH is one player (solo) or two: the first trick's and the last trick's takers")
    return tuple(sorted(seats))


def score_from_facts(
    *,
    players: int,
    lafh: int | Sequence[int],
    lafh_pips: int,
    nob_pips: int,
    every_trick: bool | None = None,
    lafh_bonuses: Iterable[str] = (),
    nob_bonuses: Iterable[str] = (),
    bonus_per_trick: bool = False,
) -> HawkScore:
    """The round's score from what a scorer writes down after a round.

    `lafh`: the LAFH seat(s): with 4-6 players the first and the last trick's takers (one seat:
    the same player took both and plays solo, points x3); with 2-3 players the last trick's
    taker. `lafh_pips`/`nob_pips`: each side's pips. `every_trick`: LAFH took every trick
    (derived from `nob_pips == 0` when left out). `lafh_bonuses`/`nob_bonuses`: the bonus kinds
    (names in BONUS_KINDS) shown by that side's tricks, one entry per trick showing the kind;
    a kind counts once per side unless `bonus_per_trick`.
    """
    deal_size(players)  # checks the player count
    seats = _lafh_seats(players, lafh)
    if lafh_pips < 0 or nob_pips < 0 or not 0 < lafh_pips + nob_pips <= 220:
        raise ValueError("pips are between 0 and 220 per side, 220 in all at most")
    if every_trick is None:
        every_trick = nob_pips == 0
    elif every_trick != (nob_pips == 0):
        raise ValueError("LAFH took every trick exactly when NOB has no pips")
    plus = _counted(lafh_bonuses, bonus_per_trick)
    minus = _counted(nob_bonuses, bonus_per_trick)
    if every_trick and minus:
        raise ValueError("NOB took no trick, so it showed no bonus")
    won = lafh_pips > nob_pips
    base = base_factor(won=won, lafh_pips=lafh_pips, every_trick=every_trick)
    k = base + len(plus) - len(minus)
    solo = players >= 4 and len(seats) == 1
    points = k * players * (SOLO_FACTOR if solo else 1)
    return HawkScore(
        players=players,
        lafh=seats,
        nob=tuple(s for s in range(players) if s not in seats),
        solo=solo,
        lafh_pips=lafh_pips,
        nob_pips=nob_pips,
        won=won,
        every_trick=every_trick,
        base_k=base,
        lafh_bonuses=plus,
        nob_bonuses=minus,
        k=k,
        points=points,
        deltas=tuple(points if s in seats else 0 for s in range(players)),
    )


_BIT: dict[Card, int] = {c: 1 << ("CDHS".index(c.suit) * 10 + PIPS[c] - 1) for c in PIPS}
"""Each card as one bit of a 40-bit mask: ten bits per suit, one per number."""

_LOW_TEN = (1 << 10) - 1
_RUN_STARTS = sum(((1 << 7) - 1) << (10 * slot) for slot in range(4))
"""Bits where a run of four can start without leaving its suit's ten bits."""


def examine_trick(cards: Sequence[Card], players: int) -> tuple[int, tuple[str, ...]]:
    """A trick's pips and the bonus kinds it shows (in BONUS_KINDS order).

    The cards go into one 40-bit mask, ten bits per suit: all four suits share a number when the
    four ten-bit blocks AND to non-zero, and a suit holds four consecutive numbers when the mask
    survives three one-bit shifts inside a block.
    """
    mask = 0
    pips = 0
    for c in cards:
        mask |= _BIT[c]
        pips += PIPS[c]
    found: tuple[str, ...] = ("heavy",) if pips > 9 * players else ()
    if len(cards) >= 4:
        if mask & (mask >> 10) & (mask >> 20) & (mask >> 30) & _LOW_TEN:
            found += ("four_suits",)
        if mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & _RUN_STARTS:
            found += ("straight",)
    return pips, found


def trick_bonuses(cards: Sequence[Card], players: int) -> tuple[str, ...]:
    """The bonus kinds one trick shows (in BONUS_KINDS order)."""
    return examine_trick(cards, players)[1]


def lafh_of(players: int, first_taker: int, last_taker: int) -> tuple[int, ...]:
    """LAFH from the first and last trick's takers (2-3 players: the last trick's taker alone)."""
    if players <= 3 or first_taker == last_taker:
        return (last_taker,)
    return tuple(sorted((first_taker, last_taker)))


def _check_tricks(players: int, tricks: Sequence[tuple[int, Sequence[Card]]]) -> None:
    if not tricks:
        raise ValueError("a round has at least one trick")
    every_card: list[Card] = []
    for seat, cards in tricks:
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"{seat!r} is not a seat of a {players}-player round")
        if len(cards) != players:
            raise ValueError(f"every trick of a {players}-player round has {players} cards")
        every_card.extend(cards)
    if len(set(every_card)) != len(every_card) or not all(c in _BIT for c in every_card):
        raise ValueError("every card is a Hawk card (A to 10) and appears in one trick only")


def tally_tricks(
    players: int, tricks: Sequence[tuple[int, Sequence[Card]]], bonus_per_trick: bool = False
) -> tuple[HawkScore, list[dict[str, Any]], list[int]]:
    """Score, bonus events and pips per seat of tricks already known to be a real round."""
    lafh = lafh_of(players, tricks[0][0], tricks[-1][0])
    pips_won = [0] * players
    plus: list[str] = []
    minus: list[str] = []
    events: list[dict[str, Any]] = []
    for number, (seat, cards) in enumerate(tricks, start=1):
        pips, kinds = examine_trick(cards, players)
        pips_won[seat] += pips
        if kinds:
            ours = seat in lafh
            for kind in kinds:
                (plus if ours else minus).append(kind)
                events.append({"trick": number, "kind": kind, "side": "LAFH" if ours else "NOB", "seat": seat})
    lafh_pips = sum(pips_won[s] for s in lafh)
    score = score_from_facts(
        players=players,
        lafh=lafh,
        lafh_pips=lafh_pips,
        nob_pips=sum(pips_won) - lafh_pips,
        lafh_bonuses=plus,
        nob_bonuses=minus,
        bonus_per_trick=bonus_per_trick,
    )
    return score, events, pips_won


def lafh_deltas(players: int, lafh: tuple[int, ...], pips_won: Sequence[int], plus: Sequence[str],
                minus: Sequence[str], bonus_per_trick: bool) -> tuple[int, ...]:
    """Each seat's points from the round's facts, without the checks and the breakdown of `score_from_facts`
    (which gives the same points): for the look-ahead and the search, which score thousands of endings a
    decision. `plus` / `minus`: the bonus kinds LAFH's and NOB's tricks showed, one entry per trick."""
    lafh_pips = sum(pips_won[s] for s in lafh)
    nob_pips = sum(pips_won) - lafh_pips
    k = base_factor(won=lafh_pips > nob_pips, lafh_pips=lafh_pips, every_trick=nob_pips == 0)
    # once a side per kind, unless every trick showing it counts
    k += len(plus) - len(minus) if bonus_per_trick else len(set(plus)) - len(set(minus))
    points = k * players * (SOLO_FACTOR if players >= 4 and len(lafh) == 1 else 1)
    return tuple(points if s in lafh else 0 for s in range(players))


def tally_deltas(players: int, tricks: Sequence[tuple[int, Sequence[Card]]], bonus_per_trick: bool = False
                 ) -> tuple[int, ...]:
    """`tally_tricks(...)[0].deltas` alone (a test compares the two on many rounds, bonuses per trick or not)."""
    lafh = lafh_of(players, tricks[0][0], tricks[-1][0])
    pips_won = [0] * players
    plus: list[str] = []
    minus: list[str] = []
    for seat, cards in tricks:
        pips, kinds = examine_trick(cards, players)
        pips_won[seat] += pips
        if kinds:
            (plus if seat in lafh else minus).extend(kinds)
    return lafh_deltas(players, lafh, pips_won, plus, minus, bonus_per_trick)


def score_tricks(
    *, players: int, tricks: Sequence[tuple[int, Sequence[Card]]], bonus_per_trick: bool = False
) -> tuple[HawkScore, list[dict[str, Any]]]:
    """The score of a round from its tricks `(taker seat, cards)` in order, and each bonus seen.

    The bonus list holds `{"trick": number from 1, "kind", "side": "LAFH" or "NOB", "seat"}`.
    """
    deal_size(players)
    _check_tricks(players, tricks)
    score, events, _pips = tally_tricks(players, tricks, bonus_per_trick)
    return score, events


def score_round(
    *, players: int, tricks: Sequence[tuple[int, Sequence[Card]]], bonus_per_trick: bool = False
) -> list[int]:
    """Per-seat points of a round from its tricks `(taker seat, cards)` in play order."""
    score, _events = score_tricks(players=players, tricks=tricks, bonus_per_trick=bonus_per_trick)
    return list(score.deltas)
