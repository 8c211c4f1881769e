"""Daphne, serving a checkout's site with every bot search it runs written to its log (bench.clock_processes).

    cd CHECKOUT && python /path/to/bench/counted_searches.py -b 127.0.0.1 -p PORT config.asgi:application

Run by path from the checkout's folder, so that the site served is that checkout's (any version of the site with
`Live.decide` and `Live.searches`): the bench counts the searches of several processes from their logs, and finds
one run twice by its (table, version, seat). A line names the table's id, its version and the seat, all public;
never a card.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any

LINE = "bench-search %.3f %s %s %s"  # wall time, table id, table version, seat


def main() -> None:
    sys.path.insert(0, os.getcwd())  # the checkout served, not the bench's own
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from daphne.cli import CommandLineInterface

    from tables.play.services.play import Live

    log = logging.getLogger("bench.searches")
    decide = Live.decide

    def counted(self: Any, seat: int, level: str | None = None) -> Any:
        if level is None and self.searches(seat):
            log.info(LINE, time.time(), self.table.pk, self.table.version, seat)
        return decide(self, seat, level)

    Live.decide = counted  # type: ignore[method-assign]
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
