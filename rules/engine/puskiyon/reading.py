"""What the table saw each player decline: the public reading of a hand a player at the club would make.

A player who draws, or passes with the stock empty, usually holds nothing that matches the top card (the rules
allow a draw while holding a match, but it rarely pays and the club's bots never do it). So every card a player
held at that moment is probably not of the top's rank or suit, and a card drawn and then kept rather than
played probably did not match either. Cards drawn later are not touched by it. Everyone at the table saw these
steps (`State.steps` and the face-up pile), so this is public: the search's guess at the other hands reads it as
a person remembers who drew on what.

Each player's hand is kept as slots, oldest first, each with the tops declined since that card came in. When a
player plays a card from hand it is taken from the oldest slot that could have held it (which card left is not
public, and that choice keeps the least said about the rest).
"""

from __future__ import annotations

from rules.engine.cards import Card
from rules.engine.puskiyon.scoring import MATCHES
from rules.engine.puskiyon.state import DREW, DREW_PASSED, DREW_PLAYED, PASSED, PLAYED, STEP_LETTER, State

_PLAYED, _DREW, _DREW_PLAYED = STEP_LETTER[PLAYED], STEP_LETTER[DREW], STEP_LETTER[DREW_PLAYED]
_DREW_PASSED, _PASSED = STEP_LETTER[DREW_PASSED], STEP_LETTER[PASSED]

Step = tuple[str, Card, Card | None]  # (letter, the top card it was made on, the card played, if one was)


def _steps_by_seat(state: State) -> list[list[Step]]:
    """The round's steps, each under the seat that made it (a draw leaves the turn with the drawer)."""
    players = state.players
    pile = state.pile
    steps: list[list[Step]] = [[] for _ in range(players)]
    seat = (state.dealer + 1) % players
    top = 0  # index in the pile of the top card
    for letter in state.steps:
        played = None
        if letter in (_PLAYED, _DREW_PLAYED):
            played = pile[top + 1]
            steps[seat].append((letter, pile[top], played))
            top += 1
        else:
            steps[seat].append((letter, pile[top], None))
        if letter != _DREW:
            seat = (seat + 1) % players
    return steps


def _allows(declined: list[Card], card: Card) -> bool:
    return all(card not in MATCHES[top] for top in declined)


def declined(state: State) -> list[list[list[Card]]]:
    """Per seat, per card it holds (oldest first), the top cards declined since it came into the hand."""
    readings: list[list[list[Card]]] = []
    for seat, steps in enumerate(_steps_by_seat(state)):
        dealt = len(state.hands[seat]) + sum(s[0] == _PLAYED for s in steps) - sum(s[0] == _DREW_PASSED for s in steps)
        slots: list[list[Card]] = [[] for _ in range(max(0, dealt))]
        for letter, top, played in steps:
            if letter in (_DREW, _PASSED):
                for slot in slots:
                    if top not in slot:
                        slot.append(top)
            elif letter == _DREW_PASSED:
                slots.append([top])
            elif letter == _PLAYED and slots and played is not None:
                index = next((i for i, slot in enumerate(slots) if _allows(slot, played)), len(slots) - 1)
                del slots[index]
        readings.append(slots)
    return readings
