"""A Sheepshead bot that plays like a careful club regular, from its own seat's view only.

It keeps no memory between calls: everything it weighs (its hand, the trick on the table, the
cards already played, its bury, who is known to be on which side) is read from the view dict, so
it can stand in for any player at any moment without seeing more than that player could.

Its habits, in short:
- Picking: a score of queens, jacks, diamonds, fail aces and tens, voids and seat (the dealer,
  last to speak, picks a little lighter), with weights fitted to self-play for each table size;
  with 5+ players the jack of diamonds counts against picking, as it means playing alone.
- Burying: fail points it cannot protect first (a ten or king without its ace), then short fail
  suits to make voids. It never buries trump while it holds a fail card, and never buries the
  jack of diamonds when a partner is possible (that would hide a partnership that cannot exist).
- Play: the picker's side leads trump; the other side leads fail. Points are smeared onto a trick
  a friend is sure to win; a trick that is lost gets the card that costs least (no high trump
  wasted); a trick worth taking is taken with the cheapest card sure to hold it.
- Leaster: take exactly one trick, early and cheap if possible, then duck and shed points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import rules.engine.sheepshead as game
from rules.engine.cards import Card, card
from rules.engine.moves import Move
from rules.engine.search import Chooser, SearchGame, level_chooser
from rules.engine.sheepshead.deck import (
    DECK,
    JACK_OF_DIAMONDS,
    POINTS,
    POWER,
    SUIT,
    TRUMP,
    winning_index,
)
from rules.engine.sheepshead.determinize import determinize
from rules.engine.sheepshead.results import tricks_taken
from rules.engine.sheepshead.state import PLAY, State
from rules.engine.sheepshead.views import bot_view, partner_knowledge

# Picking: a linear score in cents fitted to self-play (what picking won over passing, hand by
# hand, from the first seat and from the dealer's), by table size. Features: constant, the
# dealer's share of the position (0 first to speak .. 1 the dealer), queens, jacks other than the
# jack of diamonds, other diamonds, fail aces, fail tens, void fail suits, the two black queens
# again, and the jack of diamonds (with 5+ players it means playing alone against everybody).
_PICK_MODEL: dict[int, tuple[float, ...]] = {
    3: (-1300, 30, 200, 190, 130, 150, 60, 0, 80, 190),
    4: (-1280, 230, 280, 280, 200, 120, 60, 0, 150, 280),
    5: (-800, 30, 270, 210, 140, 90, 70, 40, 60, -550),
    6: (-1020, 50, 340, 270, 140, 60, 80, 40, 110, -720),
    7: (-960, 150, 410, 280, 140, 60, 90, 20, 240, -410),
}
_HIGH_TRUMP_COST = 8.0  # what giving away a queen or jack costs beyond its points


def choose(view: dict[str, Any], legal: Sequence[Move]) -> Move:
    """One of `legal`, chosen from what `view` shows this seat."""
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "pick":
        return _pick(view, legal)
    if phase == "bury":
        return _bury(view, legal)
    return _play(view, legal)


_CARD_OF: dict[str | Card, Card] = {**{str(c): c for c in DECK}, **{c: c for c in DECK}}
"""Each card by its text and by itself: the full view names cards in text, the playouts' `bot_view` hands the
cards over as they are (writing them out and reading them back was a quarter of a playout's time)."""


def _card(c: str | Card) -> Card:
    return _CARD_OF.get(c) or card(c)  # type: ignore[arg-type]


def _cards(texts: Iterable[str | Card]) -> list[Card]:
    get = _CARD_OF.get
    return [get(t) or card(t) for t in texts]  # type: ignore[arg-type]


def _move_for(legal: Sequence[Move], chosen: Card) -> Move:
    for move in legal:
        if move.cards and move.cards[0] == chosen:
            return move
    return legal[0]


def _is_trump(c: Card) -> bool:
    return SUIT[c] == TRUMP


def _is_high_trump(c: Card) -> bool:
    return c.rank in ("Q", "J")


def pick_features(hand: Sequence[Card], position: float, partner_rule: bool = True) -> tuple[float, ...]:
    queens = jacks = diamonds = aces = tens = black_queens = 0
    jack_of_diamonds = 0
    fail_suits: set[str] = set()
    for c in hand:
        if _is_trump(c):
            if c.rank == "Q":
                queens += 1
                black_queens += c.suit in ("C", "S")
            elif c == JACK_OF_DIAMONDS:
                jack_of_diamonds = 1
            elif c.rank == "J":
                jacks += 1
            else:
                diamonds += 1
        else:
            fail_suits.add(c.suit)
            aces += c.rank == "A"
            tens += c.rank == "10"
    voids = 3 - len(fail_suits)
    if not partner_rule:  # no partnership to lose: the jack of diamonds is just a jack
        jacks += jack_of_diamonds
        jack_of_diamonds = 0
    return (1.0, position, queens, jacks, diamonds, aces, tens, voids, black_queens, jack_of_diamonds)


def pick_score(hand: Sequence[Card], players: int, position: float, partner_rule: bool = True) -> float:
    """Expected cents of picking over passing, roughly; the bot picks when it is positive."""
    features = pick_features(hand, position, partner_rule)
    return sum(w * x for w, x in zip(_PICK_MODEL[players], features, strict=True))


def view_pick_score(view: dict[str, Any]) -> float:
    """`pick_score` of the hand a pick decision's view holds, from that seat's place in the order of speaking."""
    players = view["players"]
    position = ((view["seat"] - view["dealer"] - 1) % players) / (players - 1)  # 0 first to speak, 1 the dealer
    return pick_score(_cards(view["hand"]), players, position, bool(view.get("partner_rule")))


def _pick(view: dict[str, Any], legal: Sequence[Move], lighter_by: float = 0.0) -> Move:
    wants = view_pick_score(view) + lighter_by > 0
    for move in legal:
        if move.kind == ("pick" if wants else "pass"):
            return move
    return legal[0]


def bury_cost(c: Card, hand: Sequence[Card], partner_rule: bool) -> float:
    """How much the bot wants to keep `c` (lowest is buried first)."""
    if _is_trump(c):
        if partner_rule and c == JACK_OF_DIAMONDS:
            return 1000.0
        return 100.0 + POWER[c]
    same = [h for h in hand if h.suit == c.suit and not _is_trump(h)]
    has_ace = any(h.rank == "A" for h in same)
    if c.rank == "A":
        return 20.0  # an ace usually takes its trick the first time the suit is led
    want_gone = float(POINTS[c])
    if c.rank in ("10", "K"):
        want_gone += 2.0 if has_ace else 8.0  # points it cannot protect
    want_gone += 6.0 if len(same) == 1 else 2.0 if len(same) == 2 else 0.0  # makes a void
    return 20.0 - want_gone


def _bury(view: dict[str, Any], legal: Sequence[Move]) -> Move:
    hand = _cards(view["hand"])
    partner_rule = bool(view.get("partner_rule"))
    options = [m.cards[0] for m in legal if m.kind == "bury" and m.cards]
    if not options:
        return legal[0]
    chosen = min(options, key=lambda c: (bury_cost(c, hand, partner_rule), POWER[c]))
    return _move_for(legal, chosen)


def _beats(c: Card, best: Card, led: str) -> bool:
    suit = SUIT[c]
    if suit == TRUMP:
        return SUIT[best] != TRUMP or POWER[c] > POWER[best]
    return suit == led and SUIT[best] != TRUMP and POWER[c] > POWER[best]


class _Table:
    """What the bot reads off its view for one decision in trick play."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.me: int = view["seat"]
        self.players: int = view["players"]
        self.picker: int | None = view["picker"]
        self.leaster: bool = bool(view["leaster"])
        self.status: str | None = view["partner_status"]
        self.partner: int | None = view["partner"]
        self.hand = _cards(view["hand"])
        self.trick = [(entry["seat"], _card(entry["card"])) for entry in view["trick"]]
        self.trick_cards = [c for _s, c in self.trick]
        self.tricks_taken: list[int] = list(view["tricks_taken"])
        seen = set(self.hand) | set(_cards(view["played"])) | set(self.trick_cards)
        seen |= set(_cards(view.get("buried") or ()))
        self.unseen = [c for c in DECK if c not in seen]
        self.after_me = [
            (self.me + i) % self.players for i in range(1, self.players - len(self.trick))
        ]

    @classmethod
    def of_state(cls, state: State, seat: int) -> _Table:
        """`_Table(bot_view(state, seat))` in trick play, read straight off a guessed state: the search's play-outs
        read one at every move, and building the view dict and reading it back was over half of that (a test
        compares the two readings on every trick-play decision of many hands)."""
        t = cls.__new__(cls)
        players = state.table.players
        picker = state.picker
        t.me = seat
        t.players = players
        t.picker = picker
        t.leaster = picker is None
        t.status, t.partner = partner_knowledge(state, seat)
        t.hand = list(state.hands[seat])
        leader = state.leader
        trick = state.trick
        t.trick = [((leader + i) % players, c) for i, c in enumerate(trick)]
        t.trick_cards = list(trick)
        t.tricks_taken = tricks_taken(state)
        seen = set(t.hand).union(trick, *(cards for _l, _w, cards in state.tricks))
        if seat == picker:
            seen.update(state.buried)
        t.unseen = [c for c in DECK if c not in seen]
        t.after_me = [(seat + i) % players for i in range(1, players - len(trick))]
        return t

    @property
    def our_side(self) -> bool:
        return self.me == self.picker or self.me == self.partner

    def friend(self, seat: int) -> bool | None:
        """True: same side; False: other side; None: not known to this seat yet."""
        if seat == self.me:
            return True
        if self.leaster:
            return False
        if self.our_side:
            if self.me == self.picker:
                return True if seat == self.partner else (False if self.status != "unknown" else None)
            return seat == self.picker
        if seat == self.picker or seat == self.partner:
            return False
        return True if self.status in ("known", "alone") else None

    def holds(self, c: Card, led: str) -> bool:
        """Whether `c` would take the trick for sure if played now (no later seat can beat it)."""
        cards = [*self.trick_cards, c]
        best = cards[winning_index(cards)]
        if best != c:
            return False
        if not self.after_me or all(self.friend(s) is True for s in self.after_me):
            return True
        return not any(_beats(u, c, led) for u in self.unseen)


def _loss(c: Card) -> float:
    """What throwing `c` onto a lost trick costs: its points, plus the power of a queen or jack."""
    cost = float(POINTS[c])
    if _is_trump(c):
        cost += _HIGH_TRUMP_COST if _is_high_trump(c) else 1.0
    return cost + POWER[c] / 1000.0


def _smear_value(c: Card) -> float:
    """What giving `c` to a friend's trick is worth: its points, less the power it takes away."""
    value = float(POINTS[c])
    if _is_high_trump(c):
        value -= _HIGH_TRUMP_COST
    return value - POWER[c] / 1000.0


def _take_cost(c: Card) -> float:
    """Cheapest way to take a trick: a fail winner with points first, then the lowest trump."""
    if _is_trump(c):
        return 10.0 + POWER[c]
    return -float(POINTS[c]) - POWER[c] / 1000.0


def _play(view: dict[str, Any], legal: Sequence[Move]) -> Move:
    return _play_read(_Table(view), legal)


def _play_read(t: _Table, legal: Sequence[Move]) -> Move:
    options = [m.cards[0] for m in legal if m.kind == "play" and m.cards]
    if not options:
        return legal[0]
    if t.leaster:
        chosen = _leaster_follow(t, options) if t.trick else _leaster_lead(t, options)
    else:
        chosen = _follow(t, options) if t.trick else _lead(t, options)
    return _move_for(legal, chosen)


def _lead(t: _Table, options: list[Card]) -> Card:
    trumps = [c for c in options if _is_trump(c)]
    fails = [c for c in options if not _is_trump(c)]
    if t.our_side and trumps:
        top = max(trumps, key=POWER.__getitem__)
        if t.holds(top, TRUMP):
            return top  # the best trump out: pull the others' trump
        return min(trumps, key=_loss)  # a cheap trump draws out the higher ones
    if fails:
        aces = [c for c in fails if c.rank == "A"]
        if aces and not t.our_side:
            return aces[0]
        # a low card of the shortest fail suit: the others may schmear, a void comes sooner
        length = {s: sum(1 for c in fails if c.suit == s) for s in {c.suit for c in fails}}
        return min(fails, key=lambda c: (POINTS[c] >= 10, length[c.suit], POINTS[c], POWER[c]))
    return min(options, key=_loss)


def _follow(t: _Table, options: list[Card]) -> Card:
    led = SUIT[t.trick_cards[0]]
    index = winning_index(t.trick_cards)
    winner_seat, best = t.trick[index]
    points = sum(POINTS[c] for c in t.trick_cards)
    winners = [c for c in options if _beats(c, best, led)]
    sure = [c for c in winners if t.holds(c, led)]
    side = t.friend(winner_seat)
    # an unknown winner who has beaten the picker is more likely a friend than the hidden partner
    likely = side is None and not t.our_side and any(seat == t.picker for seat, _c in t.trick)
    if side is True or likely:
        holds = not t.after_me or all(t.friend(s) is True for s in t.after_me) or not any(
            _beats(u, best, led) for u in t.unseen
        )
        if holds:
            return max(options, key=_smear_value)
    if side is True:
        if sure and points >= 5:
            return min(sure, key=_take_cost)
        return min(options, key=_loss)
    if sure:
        return min(sure, key=_take_cost)
    if winners and points >= 10:
        return max(winners, key=POWER.__getitem__)
    return min(options, key=_loss)


def _leaster_lead(t: _Table, options: list[Card]) -> Card:
    if t.tricks_taken[t.me] == 0 and len(t.hand) > 1:
        cheap_sure = [c for c in options if POINTS[c] <= 3 and t.holds(c, SUIT[c])]
        if cheap_sure:
            return min(cheap_sure, key=lambda c: (POINTS[c], POWER[c]))
    return min(options, key=lambda c: (POWER[c] if _is_trump(c) else POWER[c] - 50, POINTS[c]))


def _leaster_follow(t: _Table, options: list[Card]) -> Card:
    led = SUIT[t.trick_cards[0]]
    best = t.trick_cards[winning_index(t.trick_cards)]
    points = sum(POINTS[c] for c in t.trick_cards)
    winners = [c for c in options if _beats(c, best, led)]
    losers = [c for c in options if c not in winners]
    if t.tricks_taken[t.me] == 0 and winners:
        sure = [c for c in winners if t.holds(c, led)]
        if sure and points + min(POINTS[c] for c in sure) <= 10:
            return min(sure, key=lambda c: (POINTS[c], POWER[c]))
    if losers:
        return max(losers, key=lambda c: (POINTS[c], POWER[c]))
    return min(winners, key=lambda c: (POINTS[c], -POWER[c]))


BUDGETS: dict[str, int] = {"normal": 60, "strong": 200}
"""Playouts per decision for the search levels (strong stays within 200 ms a decision: see bench_bots)."""

SHORT_HAND_BUDGETS: dict[str, int] = {**BUDGETS, "normal": 20}
"""The budgets at five players or more (strong's is the same), where a hand is six cards or fewer. There the search
is as good as it gets early: three times strong's play-outs gained nothing over strong, and strong's 200 little over
60 (the engine's README, "Sheepshead at five players"), so normal searches less to stay a level between easy and
strong."""

SHORT_HANDS = 5
"""The table size from which `SHORT_HAND_BUDGETS` apply."""


SEARCH_PICKS_LIGHTER: dict[int, float] = {3: 100.0, 4: 75.0, 5: 75.0, 6: 75.0, 7: 75.0}
"""Cents added to the pick score by the search levels, by table size: they pick the hands worth picking under
their own play. The pick model is fitted to the easy bot's card play; the searches play a picked hand better, so
more hands are worth picking to them. Each hand near the line played on by normal bots both ways (`python -m
rules.engine.arena --pick-worth normal`) gains by picking from a pick score of about -100 at three players and
-60 to -70 at four to seven (rules/engine/README.md, "Sheepshead picking"). The search does not decide the pick
itself: its play-outs are played by the easy bot, so it weighs a pick as the easy bot would play it, and at four
players it passed hands that gain by picking (more leasters than the easy bot)."""


def chooser(level: str, seed: str, picks_lighter: Mapping[int, float] | None = None) -> Chooser:
    """`easy`: `choose` above; `normal`, `strong`: determinized search with `choose` playing the playouts (at the
    budgets of the table's size), the pick decided by the pick score made lighter by `picks_lighter` (cents by
    table size; by default `SEARCH_PICKS_LIGHTER`) where it names the table's size, else by the search like any
    other move."""
    search = level_chooser(SEARCH, choose, BUDGETS, level, seed)
    short_hands = level_chooser(SEARCH, choose, SHORT_HAND_BUDGETS, level, seed)
    lighter_by = SEARCH_PICKS_LIGHTER if picks_lighter is None else picks_lighter
    if level == "easy" and picks_lighter is None:
        return search

    def decide(view: dict[str, Any], legal: Sequence[Move]) -> Move:
        players = view["players"]
        lighter = lighter_by.get(players)
        if lighter is not None and view["phase"] == "pick" and len(legal) > 1:
            return _pick(view, legal, lighter)
        return (short_hands if players >= SHORT_HANDS else search)(view, legal)

    return decide


def _playout_view(state: State, seat: int) -> dict[str, Any] | _Table:
    """What a play-out's seat reads: in trick play the bot's reading of the guessed state, else its short view."""
    return _Table.of_state(state, seat) if state.phase == PLAY else bot_view(state, seat)


def _playout_choose(seen: dict[str, Any] | _Table, legal: Sequence[Move]) -> Move:
    """`choose`, from either of the readings `_playout_view` gives."""
    return _play_read(seen, legal) if type(seen) is _Table else choose(seen, legal)  # type: ignore[arg-type]


SEARCH = SearchGame(module=game, determinize=determinize, policy=_playout_choose,  # type: ignore[arg-type]
                    observe=_playout_view)
