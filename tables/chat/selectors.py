"""Which chat lines a member may read, and when.

Every line any member is shown (the page, a socket's push, a fragment) comes through `visible_lines` or
`visible_line`, so the rules hold everywhere: a private table's chat is read only by those the table is for
(tables.play.privacy); a line staff hid is shown to nobody; a muted member's lines are not shown to the member who
muted them; a spectator's line written during a round is kept from the table's seated players until that round is
over (no coaching from the rail), while spectators see it at once; and the lobby's lines written while a member
plays a round wait until that round is over.

Why every lobby line and not only those of members watching the player's table: anyone may open any table's
page, from a second account too, and close it again before writing; who watches cannot be known, so the rule
keeps to what can be: while you play a round, the lobby waits for you (your own lines excepted).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Min, Q, QuerySet

from tables.models import ChatMessage, ChatMute, Round, Seat, Table
from tables.play import privacy

LINES_ON_LOAD = 50


def may_read(user: Any, table: Table | None) -> bool:
    """Anyone who may open the table's page may read and write its chat: every signed-in, active member, and at a
    private table only those it is for (tables.play.privacy: its creator, the invited, the seated, staff)."""
    if not (getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)):
        return False
    return table is None or privacy.may_watch(table, user)


def _table_closed_to(viewer: Any, table_id: int | None, table: Table | None = None,
                     private: bool | None = None) -> bool:
    """A private table's chat, for someone it is not for: they read none of it, whichever way they ask. `table` or
    `private`, when the caller knows them, spare the read of the table (a public table's chat costs no query)."""
    if table_id is None or private is False or (table is not None and not table.private):
        return False
    if table is None:
        table = Table.objects.filter(pk=table_id, private=True).first()
        if table is None:
            return False
    return not privacy.may_watch(table, viewer)


def is_player(*, table_id: int, user_id: int) -> bool:
    """Seated at the table (a member who stepped away keeps their seat, and is still a player)."""
    return Seat.objects.filter(table_id=table_id, user_id=user_id).exists()


def round_in_play(*, table_id: int) -> int | None:
    """The number of the table's round being played now; None between rounds, before the first and after the last."""
    latest = (Round.objects.filter(match__table_id=table_id).order_by("-number").values("number", "over").first())
    if latest is None or latest["over"]:
        return None
    return int(latest["number"])


def playing_since(*, member_id: int) -> datetime | None:
    """When the earliest round the member is seated in, and that is being played now, was dealt; None when they
    play no round."""
    found = Round.objects.filter(over=False, match__table__seats__user_id=member_id).aggregate(
        since=Min("started_at"))
    return found["since"]


def muted_ids(*, member_id: int) -> list[int]:
    return list(ChatMute.objects.filter(member_id=member_id).values_list("muted_id", flat=True))


def muted_members(*, member_id: int) -> list[Any]:
    """The members this member muted, to unmute them from the chat pane."""
    return [mute.muted for mute in ChatMute.objects.filter(member_id=member_id).select_related("muted")
            .order_by("muted__username")]


_ASK = object()  # "not known yet: look it up"


def _readable(*, viewer: Any, table_id: int | None, player: bool | None = None, table: Table | None = None,
              private: bool | None = None, lobby_waits_since: Any = _ASK) -> QuerySet[ChatMessage]:
    """`player`: whether the viewer is seated at the table; `table`, `private`: the table or whether it is private;
    `lobby_waits_since`: `playing_since` for the viewer (the lobby's chat); each when the caller knows it already."""
    if _table_closed_to(viewer, table_id, table, private):
        return ChatMessage.objects.none()
    lines = ChatMessage.objects.filter(table_id=table_id, hidden_at__isnull=True).exclude(
        author_id__in=ChatMute.objects.filter(member_id=viewer.pk).values("muted_id"))
    if player is None:
        player = table_id is not None and is_player(table_id=table_id, user_id=viewer.pk)
    if table_id is not None and player:
        in_play = round_in_play(table_id=table_id)
        if in_play is not None:
            lines = lines.exclude(Q(spectator=True) & Q(round_number=in_play))
    if table_id is None:
        since = playing_since(member_id=viewer.pk) if lobby_waits_since is _ASK else lobby_waits_since
        if since is not None:
            lines = lines.exclude(Q(created_at__gte=since) & ~Q(author_id=viewer.pk))
    return lines.select_related("author")


def visible_lines(*, viewer: Any, table_id: int | None, limit: int = LINES_ON_LOAD,
                  player: bool | None = None, table: Table | None = None,
                  lobby_waits_since: Any = _ASK) -> list[ChatMessage]:
    """The latest `limit` lines the viewer may read in this chat (None: the lobby's), oldest first."""
    newest = list(_readable(viewer=viewer, table_id=table_id, player=player, table=table,
                            lobby_waits_since=lobby_waits_since)
                  .order_by("-created_at", "-pk")[:limit])
    return newest[::-1]


def visible_line(*, viewer: Any, message_id: int) -> ChatMessage | None:
    """One line, if the viewer may read it now (a push reaches every socket of its chat: each asks this)."""
    found = ChatMessage.objects.filter(pk=message_id).values("table_id", "table__private").first()
    if found is None:
        return None
    return _readable(viewer=viewer, table_id=found["table_id"], private=bool(found["table__private"])).filter(
        pk=message_id).first()


def released_lines(*, viewer: Any, table_id: int, round_number: int) -> list[ChatMessage]:
    """The spectators' lines of a round that just ended, for a player who was kept from them (nobody else
    needs them: spectators saw them as they came)."""
    if not is_player(table_id=table_id, user_id=viewer.pk):
        return []
    lines = _readable(viewer=viewer, table_id=table_id, player=True, private=False)  # seated: the table is theirs
    return list(lines.filter(spectator=True, round_number=round_number)
                .order_by("created_at", "pk"))


def lobby_lines_since(*, since: datetime) -> bool:
    """Whether anyone wrote in the lobby since then (a round's players were kept from those lines)."""
    return ChatMessage.objects.filter(table__isnull=True, created_at__gte=since, hidden_at__isnull=True).exists()


def lines_written_since(*, author_id: int, since: Any) -> list[Any]:
    """When the author's lines since `since` were written, oldest first (the rate limit counts stored rows, so it
    holds across every process serving the club)."""
    return list(ChatMessage.objects.filter(author_id=author_id, created_at__gte=since)
                .order_by("created_at").values_list("created_at", flat=True))
