"""A round's online tables, seated at play tables when the organiser starts the round.

Each drawn online table (not a bye, not void, not seated yet) becomes a private play table of exactly its members
in the drawn seat order, its match begun at once (tables.play.services.seated): the tournament's game and house
rules, a session playing `hands_per_session` hands (the match's `rounds`), a Swiss or round-robin pairing one match
as the game plays it. The table keeps the club's usual live pace, so a member who is not there is played by the
bot after the table's grace, as at any live table (the no-shows are written down by tables.tournaments.clock).

The one-running-table rule (tables.play.services.table_limits and `_ensure_all_free`) is for tables members choose;
a tournament round is the club's appointment, so a member still at another live table when the round starts is
seated all the same: that table plays on, and wherever they are offline the bot plays for them after the grace.
Runs inside `start_round`'s transaction, under the tournament's lock: a failure seats nobody and starts nothing.
"""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from tables.models import Tournament, TournamentRound, TournamentTable
from tables.play.services.seated import create_seated_table

NAME_LENGTH = 60  # Table.name's max_length
ROUNDS_OPTION = "rounds"  # the match-length option of the games played for a number of hands


def table_name(tournament: Tournament, round: TournamentRound, table: TournamentTable) -> str:
    """"Spring cup 2.3" (round 2, table 3): the organiser's name for the event and numbers, in any language."""
    numbers = f" {round.number}.{table.number}"
    title = tournament.name
    if len(title) + len(numbers) > NAME_LENGTH:
        title = title[: NAME_LENGTH - len(numbers) - 1].rstrip() + "…"
    return title + numbers


def match_options(tournament: Tournament) -> dict[str, object]:
    """The play table's house rules: the tournament's, and for a session the number of hands it plays."""
    options = tournament.house_rules
    spec = registry.spec(tournament.game)
    if tournament.format == Tournament.Format.SESSIONS and any(o.name == ROUNDS_OPTION for o in spec.options):
        options[ROUNDS_OPTION] = tournament.hands_per_session
    return options


def seat_round(tournament: Tournament, round: TournamentRound) -> None:
    """Seat every online table of the round that plays and has no play table yet (the caller holds the lock)."""
    tables = round.tables.filter(where=TournamentTable.Where.ONLINE, table__isnull=True, voided_at__isnull=True)
    for table in tables.order_by("number"):
        if table.is_bye:
            continue
        members = {user.pk: user for user in User.objects.filter(pk__in=table.players)}
        play_table = create_seated_table(
            game=tournament.game, members=[members[pk] for pk in table.players], options=match_options(tournament),
            name=table_name(tournament, round, table),
        )
        table.table, table.started_at = play_table, timezone.now()
        table.save(update_fields=["table", "started_at"])
