from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = _("Tables and play")

    def ready(self) -> None:
        """Plug the features into `play`, which may not import them: the ledger writes a finished round's
        entries when play sends `round_finished`, and the ratings rate a match when the ledger sends
        `match_recorded`; the table clock and quick play's sweeper start when the process starts serving (or with
        its first socket). Chat rides play's sockets (its messages by their "kind", its group events as
        `feature.event`, its lines on connect), shows its pane on the table page, and releases spectators' lines to
        the players when play sends `round_finished`. The emails about correspondence tables are found and sent on the
clock's passes too (`add_job`, tables.notices). Invitations end with their table (play's `table_stopped_waiting`)
        and, out of time, on the table clock's passes (`add_job`). A tournament's online table records its result when
        its match ends (play's `match_ended`), the clock's passes write down its no-shows, and its page links back to
        the tournament (play's `table_links`). `manage.py migrate` runs without the statement timeout every other
        PostgreSQL connection has (config/database.py says why)."""
        from django.db.models.signals import post_migrate, pre_migrate

        from config.database import lift_statement_timeout, restore_statement_timeout
        from tables.chat import consumers as chat_sockets
        from tables.chat import receivers as chat_receivers  # noqa: F401  (connects the chat's receiver)
        from tables.chat.rendering import pane_html
        from tables.invitations import receivers as invitation_receivers  # noqa: F401  (ends them with their table)
        from tables.invitations.services.invitations import EndedInvitations
        from tables.ledger import receivers  # noqa: F401  (connects the ledger's receiver)
        from tables.notices.job import NoticeJob
        from tables.notices.off_the_pass import OffThePass
        from tables.play import sockets
        from tables.play.background import add_job, start_table_clock
        from tables.play.page_parts import add_table_part
        from tables.play.signals import match_ended
        from tables.play.table_links import register as add_table_link
        from tables.quickplay.sweeper import start_quick_play_sweeper
        from tables.ratings import receivers as rating_receivers  # noqa: F401  (rates each recorded match)
        from tables.tournaments.clock import TournamentJob
        from tables.tournaments.results import on_match_ended
        from tables.tournaments.table_link import tournament_link

        pre_migrate.connect(lift_statement_timeout, dispatch_uid="migrate-without-statement-timeout")
        post_migrate.connect(restore_statement_timeout, dispatch_uid="statement-timeout-after-migrate")
        sockets.start_with_sockets(start_table_clock)
        add_job("invitations", EndedInvitations())  # invitations out of time end, and their lobbies are told
        # emails and pushes about correspondence tables: found on the pass, sent after commit on a thread of their own
        add_job("notices", NoticeJob(send=OffThePass()))
        # An online tournament table's result, recorded after play's commit; the clock's job writes down no-shows and
        # records any result that recording missed (tables.tournaments.results says why not inside play's transaction).
        match_ended.connect(on_match_ended, dispatch_uid="tables.tournaments.record_online_result")
        add_job("tournaments", TournamentJob())
        add_table_link(tournament_link)  # the table's page links back to its tournament
        sockets.start_with_sockets(start_quick_play_sweeper)
        sockets.on_message(chat_sockets.KIND, chat_sockets.receive_line)
        sockets.on_event("chat", chat_sockets.chat_event)
        sockets.on_connect(chat_sockets.on_connect)
        add_table_part(pane_html)
