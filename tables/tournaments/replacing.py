"""The organiser puts another member in a player's place at a tournament table (issue 45: "replace a player").

Before the round starts the drawn seats change; while an online table plays, the newcomer takes the seat at the
play table as it stands (cards, place in the match: tables.play.services.seated.give_seat), and the table's result
goes to whoever holds each seat at the end. The newcomer is entered in the tournament and the leaving member's
entry withdrawn (later draws are made without them), and every replacement is kept in `TournamentTable.replacements`
for the record. One transaction under the tournament's lock, then the play table's (the order every tournament
write takes), so a replacement and the table's result never cross.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Entry, TournamentRound, TournamentTable
from tables.play.services.errors import TableError
from tables.play.services.seated import give_seat
from tables.tournaments.services import _ensure_open, _ensure_staff, _locked_table, _new_entry


def replace_player(*, table_id: int, staff: User, leaving: User, joining: User) -> TournamentTable:
    """`joining` plays in `leaving`'s place at the table (staff only). Refused: a round that is done, a voided table,
    a bye, a leaving member not at the table, a joining member already playing in this round, one who plays only
    at the club for a seat at a play table online (before the start, services.start_round asks the table to move)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        _ensure_open(table)
        if leaving.pk not in table.players:
            raise TableError(gettext("%(member)s does not play at that table.") % {"member": leaving.shown_name})
        if table.is_bye:
            raise TableError(gettext("A bye has no match to play."))
        if any(joining.pk in other.players for other in table.round.tables.all()):
            raise TableError(gettext("%(member)s already plays in this round.") % {"member": joining.shown_name})
        if not joining.is_active:
            raise TableError(gettext("Only active members can play in a tournament."))
        if table.table_id is not None and joining.plays_only_at_club:
            # No login to come to the play table with: the bot would play the seat (club_players).
            raise TableError(gettext("%(member)s plays only at the club: they cannot take a seat at an online "
                                     "table.") % {"member": joining.shown_name})
        during = table.round.status == TournamentRound.Status.PLAYING
        if table.table_id is not None:
            give_seat(table_id=table.table_id, leaving=leaving, joining=joining)
        table.seats = [joining.pk if seat == leaving.pk else seat for seat in table.seats]
        table.replacements = [*(table.replacements or []), {
            "out": leaving.pk, "in": joining.pk, "at": timezone.now().isoformat(), "by": staff.pk, "during": during,
        }]
        table.save(update_fields=["seats", "replacements"])
        Entry.objects.filter(tournament=tournament, user=leaving, status=Entry.Status.ENTERED).update(
            status=Entry.Status.WITHDRAWN)
        if not Entry.objects.filter(tournament=tournament, user=joining, status=Entry.Status.ENTERED).exists():
            _new_entry(tournament, joining)
        return table

