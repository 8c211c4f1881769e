"""A member's card chosen ahead of their turn (tables.play.autoplay says when the clock plays it).

Choosing one is private: it writes the member's own seat and nothing else, makes no new version of the table and
sends no push, so no other page learns that anything happened (a premove tells what a player holds and means to
do). Its member's next board reads it from the database (tables.play.rendering keys their board by
`Seat.premove_serial`). Each choice carries the table version the member's board showed (the game must not have
moved since) and the seat's premove count it showed, so a repeated, late or crossed request changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from accounts.models import User
from rules.engine.moves import Move as EngineMove
from tables.models import Seat, Table
from tables.play import autoplay
from tables.play.services.errors import IllegalPlay, NotSeated, StaleVersion, TableError
from tables.play.services.play import Live, current_game, locked_table, seated


def choose_premove(*, table_id: int | None = None, table_code: str | None = None, user: User, move_text: str,
                   expected_version: int, expected_serial: int) -> int:
    """The member's premove at the table of `table_id` or `table_code` becomes `move_text` ("play 7H"), or none
    when it is empty. Returns the seat's new premove count. Refuses (changing nothing) anyone not seated, a member
    who switched premoves off, a stale version or count, their own turn, a phase without card play, and a card
    they do not hold."""
    with transaction.atomic():
        table = locked_table(table_id, code=table_code)
        seats, seat = seated(table, user)
        if seat is None:
            raise NotSeated(gettext("You are not seated at this table, so you cannot choose a card here."))
        if not user.premoves:
            raise TableError(gettext("Choosing a card ahead is switched off in your profile."))
        if not current_game(table, expected_version):
            raise StaleVersion(gettext("The table has moved on since you looked; nothing was changed."))
        if seat.premove_serial != expected_serial:
            raise StaleVersion(gettext("Your chosen card changed meanwhile (in another tab?); nothing was changed."))
        if table.status != Table.Status.RUNNING:
            raise TableError(gettext("This table is not playing."))
        if seat.away:
            raise IllegalPlay(gettext("You left this seat; take it back before you play."))
        live = Live.load(table, seats)
        to_act = live.seat_to_act()
        if to_act is None:
            raise IllegalPlay(gettext("The round is over; get ready for the next one."))
        if to_act == seat.position:
            raise IllegalPlay(gettext("It is your turn: play your card now."))
        if not autoplay.card_play(table.game, live.game.view(live.state, seat.position)):
            raise IllegalPlay(gettext("A card can be chosen ahead only while the tricks are played."))
        chosen = _premove(live, seat, move_text)
        if not chosen and not seat.premove:
            raise IllegalPlay(gettext("You have no card chosen ahead."))
        Seat.objects.filter(pk=seat.pk).update(premove=chosen, premove_dropped="",
                                               premove_serial=F("premove_serial") + 1)
        return seat.premove_serial + 1


def _premove(live: Live, seat: Seat, move_text: str) -> str:
    """The premove as stored ("play 7H"), "" to cancel; refused unless it plays one card the member holds."""
    if not move_text.strip():
        return ""
    try:
        move = EngineMove.parse(move_text)
    except ValueError:
        raise IllegalPlay(gettext("Choose one card of your hand.")) from None
    hand = live.game.view(live.state, seat.position).get("hand") or []
    if not autoplay.one_card(move) or str(move.cards[0]) not in hand:
        raise IllegalPlay(gettext("Choose one card of your hand."))
    return str(move)
