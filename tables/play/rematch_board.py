"""What a finished table's board shows of its rematch (templates/jinja2/tables/play/games/_rematch.html), for one
viewer: the button to ask (or to play again, at a practice table), who has answered, and the link to the new table.

The rematch is read with the table (tables.play.selectors.snapshot_of), once per version: every change to it is a
new version of the finished table (tables.play.services.rematch), so a board kept for a version stays true.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext

from tables.models import Rematch, Seat, Table

YES, NO = "yes", "no"


@dataclass(frozen=True)
class MemberAnswer:
    name: str
    answer: str  # YES, NO or "" (not answered yet)
    is_me: bool
    asked: bool  # the one who asked for it


@dataclass(frozen=True)
class RematchPart:
    state: str  # "" (nobody has asked yet) or a Rematch.State
    practice: bool  # one member with bots: "Play again", made at once
    seated: bool  # the viewer played this match: they may ask and answer
    offer: int | None = None
    mine: str = ""  # the viewer's answer
    answers: list[MemberAnswer] = field(default_factory=list)
    expires_at: datetime | None = None
    new_code: str = ""
    go: bool = False  # the viewer is seated at the new table: their page goes there when it is made
    reason: str = ""  # why it was cancelled, in the reader's language

    @property
    def asked_by(self) -> str:
        return next((answer.name for answer in self.answers if answer.asked), "")

    @property
    def free_seats(self) -> list[str]:
        """Whose seats the new table left free (the members who did not accept)."""
        return [answer.name for answer in self.answers if answer.answer != YES]


def offer_of(table: Table) -> Rematch | None:
    """The finished table's rematch (one query, only for a finished table)."""
    if table.status != Table.Status.FINISHED:
        return None
    return Rematch.objects.filter(table=table).select_related("new_table").first()


def part_for(offer: Rematch | None, *, table: Table, viewer: Seat | None,
             members: list[tuple[int, str]]) -> RematchPart:
    """The rematch as `viewer` (their seat, None: a spectator) sees it. `members`: (member id, name) of each member's
    seat, in seat order."""
    me = viewer.user_id if viewer is not None else None
    practice = len(members) == 1
    if offer is None:
        return RematchPart(state="", practice=practice, seated=me is not None)
    accepted, declined = set(offer.accepted), set(offer.declined)
    answers = [MemberAnswer(name=name, answer=YES if member in accepted else NO if member in declined else "",
                            is_me=member == me, asked=member == offer.asked_by_id) for member, name in members]
    reason = ""
    if offer.state == Rematch.State.CANCELLED:
        reason = (gettext("The member who would open it has as many tables as the club allows (waiting for players, or "
                          "started lately).")
                  if offer.reason == Rematch.Reason.LIMIT else gettext("Nobody accepted it."))
    new = offer.new_table
    return RematchPart(
        state=offer.state, practice=practice, seated=me is not None, offer=offer.pk,
        mine=YES if me in accepted else NO if me in declined else "", answers=answers, expires_at=offer.expires_at,
        new_code=new.code if new is not None else "",
        go=new is not None and me in accepted, reason=reason,
    )
