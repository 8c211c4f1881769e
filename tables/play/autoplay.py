"""When the table plays a member's card for them (issue 41): their only legal card, and the card they chose ahead.

Both are the table clock's to play (tables.play.services.clock), a short pause after the move before, each its own
version, under the table's lock, so a page need not be open for it, two processes never play it twice, and a state
that changed meanwhile (the member played themselves, time ran out, the round ended) leaves nothing to play.

- A forced card: the member's seat is to act in a trick game's card play, the engine allows exactly one move and it
  plays one card, the member's option `auto_play_forced` is on and their page is open (a member away is the bot's
  business, tables.play.services.play.Live.stands_in). Never a decision: a pick, a pass, a bury, a draw.
- A premove: while another seat is to act in a trick game's card play, the member marks a card of their hand
  (tables.play.services.premoves, option `premoves`). When their turn comes it is played if it is still legal;
  if not, it is dropped at once and the member is told in words.

The board (tables.play.selectors) asks the same questions of the same seat and state, so what it says ("Playing your
only card…") is what the clock does. Everything here is pure: no database, no time but what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from rules.engine import registry
from rules.engine.cards import SUIT_SYMBOLS, card
from rules.engine.moves import Move as EngineMove
from tables.play import pace

FORCED_PAUSE = timedelta(seconds=1)  # long enough to see "Playing your only card…", short enough not to wait
PREMOVE_PAUSE = timedelta(seconds=0.6)  # a chosen card follows the card before it a beat later, as a brisk bot's
FORCED = "forced"
PREMOVE = "premove"


@dataclass(frozen=True)
class Pending:
    """The move the clock plays for a member at their turn: `kind` FORCED or PREMOVE."""

    kind: str
    move: EngineMove

    @property
    def card(self) -> str:
        return str(self.move.cards[0]) if self.move.cards else ""


def trick_game(game: str) -> bool:
    """The game is played in tricks (its engine counts them): Sheepshead and Hawk."""
    return callable(getattr(registry.game(game), "tricks_done", None))


def card_play(game: str, view: dict[str, Any]) -> bool:
    """The round is in a trick game's card play (not picking, burying, or over), as the engine's view says."""
    return trick_game(game) and view.get("phase") == "play"


def one_card(move: EngineMove) -> bool:
    return move.kind == "play" and len(move.cards) == 1


def forced_move(game: str, state: Any, seat: int) -> EngineMove | None:
    """The one move the rules leave `seat`, when it plays a card in a trick game's card play; else None."""
    module = registry.game(game)
    legal = module.legal_moves(state, seat)
    if len(legal) != 1 or not one_card(legal[0]):
        return None
    return legal[0] if card_play(game, module.view(state, seat)) else None


def legal_premove(game: str, state: Any, seat: int, text: str) -> EngineMove | None:
    """The member's premove as the move it names, if `seat` may make it now; else None."""
    try:
        move = EngineMove.parse(text)
    except ValueError:
        return None
    return move if move in registry.game(game).legal_moves(state, seat) else None


def pending(*, game: str, state: Any, seat: Any, to_act: int | None, stands_in: bool) -> Pending | None:
    """What the clock plays for `seat` (a tables.models.Seat with its member) when it is to act: its premove if it is
    legal, else its only card if the member asked for that and has the table open; None otherwise (a bot's seat, one
    the bot plays now, a member with a choice to make)."""
    if to_act is None or seat.position != to_act or seat.user_id is None or seat.is_bot or stands_in:
        return None
    if seat.premove:
        move = legal_premove(game, state, seat.position, seat.premove)
        if move is not None:
            return Pending(PREMOVE, move)
    present = seat.offline_since is None and seat.gone_at is None
    if present and getattr(seat.user, "auto_play_forced", False):
        move = forced_move(game, state, seat.position)
        if move is not None:
            return Pending(FORCED, move)
    return None


def pause(kind: str, *, speed: str, closed_trick: bool) -> timedelta:
    """How long after the move before the clock plays a pending move: its own pause, or the table's pace when that is
    longer (a trick just taken stays on the table as long as before a bot's card)."""
    own = FORCED_PAUSE if kind == FORCED else PREMOVE_PAUSE
    return max(own, pace.delay(speed, closed_trick=closed_trick))


def card_text(move_text: str) -> str:
    """ "7♥" for "play 7H" (the card as the board shows it); the text itself if it names no card."""
    try:
        move = EngineMove.parse(move_text)
    except ValueError:
        return move_text
    return " ".join(f"{card(str(c)).rank}{SUIT_SYMBOLS[card(str(c)).suit]}" for c in move.cards) or move_text
