"""The notices' tests: a real SMTP server (tests/smtp_server.py, `smtp`), and helpers that build correspondence tables
and run the notices' job as the table clock does."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from tables.models import Round, Table
from tables.notices.job import NoticeJob
from tests.push_service import pushes  # noqa: F401 (a fixture of the notices' tests)
from tests.smtp_server import SmtpServer, smtp  # noqa: F401 (a fixture of the notices' tests)
from tests.tables.helpers import current_round


def text_of(message: EmailMessage) -> str:
    """Everything a reader of the email sees: its subject and every text part."""
    parts = [str(message["Subject"])]
    for part in message.walk():
        if part.get_content_maintype() == "text":
            parts.append(part.get_content())
    return "\n".join(parts)


def correspondence(table: Table, *, hours: int = 24, now: datetime | None = None) -> Round:
    """The table made a correspondence table of `hours` per move, its turn's deadline `hours` from `now` (as the
    clock sets it at such a table: the last move's time plus the hours)."""
    Table.objects.filter(pk=table.pk).update(move_hours=hours)
    table.refresh_from_db()
    current = current_round(table)
    Round.objects.filter(pk=current.pk).update(deadline=(now or current.moved_at or current.started_at)
                                               + timedelta(hours=hours))
    current.refresh_from_db()
    return current


def member_moves(table: Table, member: Any, move_text: str) -> None:
    """The member's move through the play service, and the turn's new deadline as the clock of a correspondence
    table sets it (the last move's time plus the hours per move; tables.play.services.clock's work, not ours)."""
    from tables.play.services import play

    table.refresh_from_db()
    play.play_move(table_id=table.pk, user=member, move_text=move_text, expected_version=table.version)
    table.refresh_from_db()
    current = current_round(table)
    if not current.over:
        correspondence(table, hours=table.move_hours, now=current.moved_at or current.started_at)


def run_job(job: NoticeJob, now: datetime, capture) -> datetime:
    """One look of the job as a clock's pass makes it: the scan commits, then the sending runs (the test's
    transaction stands in for the commit: its on-commit callbacks are run here)."""
    with capture(execute=True):
        return job(now=now)
