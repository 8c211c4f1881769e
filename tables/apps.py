from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Tables and play"

    def ready(self) -> None:
        """Plug the features into `play`, which may not import them: the ledger writes a finished round's
        entries when play sends `round_finished`, and the ratings rate a match when the ledger sends
        `match_recorded`; the table clock and quick play's sweeper start when the
        process starts serving (or with its first socket)."""
        from tables.ledger import receivers  # noqa: F401  (connects the ledger's receiver)
        from tables.play.background import start_table_clock
        from tables.play.sockets import start_with_sockets
        from tables.quickplay.sweeper import start_quick_play_sweeper
        from tables.ratings import receivers as rating_receivers  # noqa: F401  (rates each recorded match)

        start_with_sockets(start_table_clock)
        start_with_sockets(start_quick_play_sweeper)
