"""Hawk's bot: it knows the parties are made by the first and the last trick.

Only LAFH scores, and LAFH loses twice what it wins (and loses every tie), so being LAFH with a
weak side is the costly mistake. The bot therefore:
- on the first trick (4-6 players) tries not to take it, since its taker is LAFH for sure, unless
  at least half its hand are aces and twos;
- early in the round takes tricks that carry many pips when it can do so safely (pips only ever
  help the side it may end up on) and otherwise sheds its weakest card;
- once it holds six cards or fewer it looks ahead (see `endgame`): it deals the unseen cards at
  random to the other seats, plays each ending out, scores it with the real rules and plays the
  card with the best average. This is where it steers into LAFH when that side's pips win (by
  keeping a card that takes the last trick, or going solo) and away from it when they lose.
  With two or three players the same look-ahead decides whether to be the last trick's taker.
It sees only its own seat's view; its random guesses are seeded from that view, so the same view
always gives the same card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import rules.engine.hawk as game
from rules.engine.cards import Card
from rules.engine.hawk.deck import PIPS, TRUMPED_BY, winning_index
from rules.engine.hawk.determinize import determinize
from rules.engine.hawk.endgame import best_card
from rules.engine.hawk.knowledge import Seen, read_view
from rules.engine.hawk.rollout import rollout
from rules.engine.moves import Move
from rules.engine.search import Chooser, SearchGame, level_chooser

ENDGAME_CARDS = 6
"""Look ahead once the hand is this small."""

SAMPLES = 30
"""Guessed deals per look-ahead decision at most ..."""

MIN_SAMPLES = 8
"""... and at least, whatever the budget says."""

BUDGET = 2000
"""Cards played in look-ahead per decision: early in a round (long play-outs) fewer guesses."""

TRUMP_RISK = 0.5
"""How likely an unseen card of the trumping suit is to be played on a trick (its holder must be void)."""


def _danger(seen: Seen, card: Card) -> float:
    """Roughly how many cards still to come could take the trick from `card` (0: it is safe)."""
    players = seen.players
    position = len(seen.table)
    still_to_play = players - 1 - position
    if still_to_play == 0 or not seen.unseen:
        return 0.0
    table = (*seen.table, card)
    led = table[0][1]
    trump = TRUMPED_BY[led]
    best = table[winning_index(table)]
    strength = PIPS[best]
    if best[1] == trump:
        stronger_trumps = sum(1 for c in seen.unseen if c[1] == trump and PIPS[c] < strength)
        stronger_led = 0
    else:
        stronger_trumps = sum(1 for c in seen.unseen if c[1] == trump)
        stronger_led = sum(1 for c in seen.unseen if c[1] == led and PIPS[c] < strength)
    held_after = sum(seen.counts[(seen.leader + i) % players] for i in range(position + 1, players))
    share = held_after / len(seen.unseen)
    return (stronger_led + TRUMP_RISK * stronger_trumps) * share


def _wins_now(seen: Seen, card: Card) -> bool:
    return winning_index((*seen.table, card)) == len(seen.table)


def _to_lose(seen: Seen, cards: Sequence[Card]) -> Card:
    losing = [c for c in cards if not _wins_now(seen, c)]
    if losing:
        return max(losing, key=lambda c: (PIPS[c] if seen.table else -PIPS[c], str(c)))
    return max(cards, key=lambda c: (_danger(seen, c), PIPS[c], str(c)))


def _to_win(seen: Seen, cards: Sequence[Card]) -> Card | None:
    winning = [c for c in cards if _wins_now(seen, c)]
    if not winning:
        return None
    return min(winning, key=lambda c: (round(_danger(seen, c), 2), -PIPS[c], str(c)))


def _shed(cards: Sequence[Card]) -> Card:
    """A card to give away: the weakest one (strong cards are worth keeping for the end)."""
    return max(cards, key=lambda c: (PIPS[c], str(c)))


def _strong_start(seen: Seen) -> bool:
    """Worth taking the first trick (and so being LAFH for sure)? Only with many top cards."""
    top = sum(1 for c in seen.hand if PIPS[c] <= 2)
    return top * 10 >= len(seen.hand) * 5


def _middle(seen: Seen, cards: Sequence[Card]) -> Card:
    players = seen.players
    if players >= 4 and seen.first_taker is None:
        if _strong_start(seen):
            return _to_win(seen, cards) or _to_lose(seen, cards)
        return _to_lose(seen, cards)
    winner = _to_win(seen, cards)
    if winner is not None and _danger(seen, winner) < 0.5:
        on_table = sum(PIPS[c] for c in seen.table)
        expected = on_table + PIPS[winner] + 5.5 * (players - 1 - len(seen.table))
        if expected >= 5.5 * players:
            return winner
    return _shed(cards)


def _seed(view: dict[str, Any]) -> str:
    history = ";".join(" ".join(e["card"] for e in t["cards"]) for t in view["history"])
    table = " ".join(e["card"] for e in view["trick"])
    return f"hawk-bot|{view['seat']}|{' '.join(view['hand'])}|{history}|{table}"


def choose(view: dict[str, Any], legal: list[Move]) -> Move:
    if not legal:
        raise ValueError("there is no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    seen = read_view(view)
    by_card = {m.cards[0]: m for m in legal}
    cards = list(by_card)
    if len(seen.hand) <= ENDGAME_CARDS:
        remaining = sum(seen.counts)
        samples = max(MIN_SAMPLES, min(SAMPLES, BUDGET // (len(cards) * remaining)))
        choice = best_card(seen, cards, random.Random(_seed(view)), samples)
    else:
        choice = _middle(seen, cards)
    return by_card[choice]


def quick(view: dict[str, Any], legal: list[Move]) -> Move:
    """`choose` without its end-game look-ahead: the search's playout policy, which must be cheap (the
    search itself looks ahead, on guessed deals, from the first trick)."""
    if len(legal) == 1:
        return legal[0]
    by_card = {m.cards[0]: m for m in legal}
    return by_card[_middle(read_view(view), list(by_card))]


BUDGETS: dict[str, int] = {"normal": 300, "strong": 900}
"""Playouts per decision for the search levels (strong stays within 200 ms a decision: see bench_bots)."""

SEARCH = SearchGame(  # type: ignore[arg-type]
    module=game, determinize=determinize, policy=quick, random_playouts=True, rollout=rollout,
)


def chooser(level: str, seed: str) -> Chooser:
    """`easy`: `choose` above; `normal`, `strong`: determinized search with random playouts (as `endgame` plays)."""
    return level_chooser(SEARCH, choose, BUDGETS, level, seed)  # type: ignore[arg-type]
