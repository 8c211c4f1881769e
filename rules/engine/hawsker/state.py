"""The state of one Hawsker round as an immutable value, and its JSON form.

Everything a round needs lives here, including what carries over from earlier rounds (the hands
players kept, which both saw scored, the stock, the waste pile and how often it was reshuffled), so a
state alone can be stored, replayed and shown. `Draft` is the mutable twin `apply` works on before freezing a new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from rules.engine.cards import Card, parse_cards
from rules.engine.text import from_data, to_data

Cards = tuple[Card, ...]

# Phases: "discard" (two face-down discards each), "play" (pegging), "final" (one more discard each),
# "over" (scored).
# Endings of pegging: "plays" (five plays each), "stuck" (`ender` could not play), "steal" (`ender`
# emptied the hand).


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    number: int  # this round's number in the match, from 1
    target: int  # points that end the match
    dealer: int
    totals: tuple[int, int]  # match totals before this round
    leader: int  # who plays first
    cut: bool  # the leader was chosen by a cut (scores level)
    phase: str
    turn: int | None
    pending: tuple[int, ...]  # seats still to discard in this phase, one entry per card, in order
    hands: tuple[Cards, Cards]  # kept in scoring.ORDER
    stock: Cards  # drawn from the front
    table: Cards  # cards played this round still on the table; the top card last
    waste: Cards  # discards and cleared played cards: the next stock when this one runs out
    restocks: int  # reshuffles so far in the match (labels each reshuffle's randomness)
    plays: tuple[int, int]  # plays made by each seat this round
    history: tuple[tuple[int, Cards], ...]  # every play this round: (seat, cards in order)
    dealt: tuple[Cards, Cards]  # each hand after the deal
    discards: tuple[Cards, Cards]  # each seat's discards this round (a stuck hand included)
    ending: str  # how pegging ended, "" while it goes on
    ender: int | None  # the seat that was stuck or stole
    scored: tuple[Cards, Cards]  # the hand each seat scored (a stealer scores the other's)
    scores: tuple[int, int]  # this round's points
    last: str  # what just happened, naming no hidden card
    kept: tuple[Cards, Cards]  # the hands carried into this round: both saw them scored at the end of the last


FIELDS: tuple[str, ...] = State.__slots__  # type: ignore[assignment]
# Draft below spells the fields out in this order (for speed); a reordered State must fail loudly here.
if FIELDS != (
    "seed", "number", "target", "dealer", "totals", "leader", "cut", "phase", "turn", "pending", "hands",
    "stock", "table", "waste", "restocks", "plays", "history", "dealt", "discards", "ending", "ender",
    "scored", "scores", "last", "kept",
):  # pragma: no cover
    raise RuntimeError("State fields changed: update Draft to match")
_FIELD_VALUES = attrgetter(*FIELDS)  # works on a State and on a Draft alike


class Draft:
    """A mutable copy of a State's fields; `freeze()` makes the next State."""

    __slots__ = FIELDS

    def __init__(self, state: State) -> None:
        (
            self.seed, self.number, self.target, self.dealer, self.totals, self.leader, self.cut,
            self.phase, self.turn, self.pending, self.hands, self.stock, self.table, self.waste,
            self.restocks, self.plays, self.history, self.dealt, self.discards, self.ending,
            self.ender, self.scored, self.scores, self.last, self.kept,
        ) = _FIELD_VALUES(state)

    def freeze(self) -> State:
        # Filling the slots through their descriptors skips the frozen dataclass __init__, which calls
        # object.__setattr__ once per field and was the largest single cost of a move.
        state = _new_state(State)
        _set_seed(state, self.seed)
        _set_number(state, self.number)
        _set_target(state, self.target)
        _set_dealer(state, self.dealer)
        _set_totals(state, self.totals)
        _set_leader(state, self.leader)
        _set_cut(state, self.cut)
        _set_phase(state, self.phase)
        _set_turn(state, self.turn)
        _set_pending(state, self.pending)
        _set_hands(state, self.hands)
        _set_stock(state, self.stock)
        _set_table(state, self.table)
        _set_waste(state, self.waste)
        _set_restocks(state, self.restocks)
        _set_plays(state, self.plays)
        _set_history(state, self.history)
        _set_dealt(state, self.dealt)
        _set_discards(state, self.discards)
        _set_ending(state, self.ending)
        _set_ender(state, self.ender)
        _set_scored(state, self.scored)
        _set_scores(state, self.scores)
        _set_last(state, self.last)
        _set_kept(state, self.kept)
        return state


_new_state = object.__new__
(
    _set_seed,
    _set_number,
    _set_target,
    _set_dealer,
    _set_totals,
    _set_leader,
    _set_cut,
    _set_phase,
    _set_turn,
    _set_pending,
    _set_hands,
    _set_stock,
    _set_table,
    _set_waste,
    _set_restocks,
    _set_plays,
    _set_history,
    _set_dealt,
    _set_discards,
    _set_ending,
    _set_ender,
    _set_scored,
    _set_scores,
    _set_last,
    _set_kept,
) = (State.__dict__[name].__set__ for name in FIELDS)


def _texts(cards: Cards) -> list[str]:
    return [str(c) for c in cards]


def to_json(state: State) -> dict[str, Any]:
    return {
        "seed": state.seed,
        "number": state.number,
        "target": state.target,
        "dealer": state.dealer,
        "totals": list(state.totals),
        "leader": state.leader,
        "cut": state.cut,
        "phase": state.phase,
        "turn": state.turn,
        "pending": list(state.pending),
        "hands": [_texts(h) for h in state.hands],
        "stock": _texts(state.stock),
        "table": _texts(state.table),
        "waste": _texts(state.waste),
        "restocks": state.restocks,
        "plays": list(state.plays),
        "history": [[seat, _texts(cards)] for seat, cards in state.history],
        "dealt": [_texts(h) for h in state.dealt],
        "discards": [_texts(h) for h in state.discards],
        "ending": state.ending,
        "ender": state.ender,
        "scored": [_texts(h) for h in state.scored],
        "scores": list(state.scores),
        "last": to_data(state.last),
        "kept": [_texts(h) for h in state.kept],
    }


def _last_text(data: Any) -> str:
    text = from_data(data)
    return text if isinstance(text, str) else str(text)


def _pair(items: Any) -> Any:
    first, second = items
    return (first, second)


def from_json(data: Mapping[str, Any]) -> State:
    return State(
        seed=str(data["seed"]),
        number=int(data["number"]),
        target=int(data["target"]),
        dealer=int(data["dealer"]),
        totals=_pair(int(t) for t in data["totals"]),
        leader=int(data["leader"]),
        cut=bool(data["cut"]),
        phase=str(data["phase"]),
        turn=None if data["turn"] is None else int(data["turn"]),
        pending=tuple(int(s) for s in data["pending"]),
        hands=_pair(parse_cards(h) for h in data["hands"]),
        stock=parse_cards(data["stock"]),
        table=parse_cards(data["table"]),
        waste=parse_cards(data["waste"]),
        restocks=int(data["restocks"]),
        plays=_pair(int(n) for n in data["plays"]),
        history=tuple((int(seat), parse_cards(cards)) for seat, cards in data["history"]),
        dealt=_pair(parse_cards(h) for h in data["dealt"]),
        discards=_pair(parse_cards(h) for h in data["discards"]),
        ending=str(data["ending"]),
        ender=None if data["ender"] is None else int(data["ender"]),
        scored=_pair(parse_cards(h) for h in data["scored"]),
        scores=_pair(int(n) for n in data["scores"]),
        last=_last_text(data["last"]),
        kept=_pair(parse_cards(h) for h in data["kept"]),  # stored rounds from before: migration tables/0020
    )
