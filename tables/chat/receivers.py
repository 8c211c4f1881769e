"""The chat's side of play's `round_finished`: the spectators' lines of that round, and the lobby's lines written
during it, reach the players.

Connected in `TablesConfig.ready`. It only queues a push for after the commit (never raises into the round's
transaction); the lines themselves are readable by the players from that commit on, page or socket."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tables.chat import push, selectors
from tables.models import ChatMessage, Round, Table
from tables.play.signals import round_finished


@receiver(round_finished, dispatch_uid="tables.chat.release_spectator_lines")
def release_spectator_lines(sender: Any, *, round: Round, table: Table, **kwargs: Any) -> None:
    if ChatMessage.objects.filter(table_id=table.pk, spectator=True, round_number=round.number).exists():
        push.round_over(table_id=table.pk, round_number=round.number)
    if selectors.lobby_lines_since(since=round.started_at):
        push.lobby_released(table_id=table.pk)
