"""A real SMTP server for the notices' tests (aiosmtpd on a free port of 127.0.0.1), Django's SMTP backend pointed
at it, and helpers that build correspondence tables and run the notices' job as the table clock does."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tables.models import Round, Table
from tables.notices.job import NoticeJob
from tests.tables.helpers import current_round


@dataclass
class Inbox:
    """What the server took, and what it answers to DATA next (`refuse`: a 451, as a relay that is busy)."""

    messages: list[EmailMessage] = field(default_factory=list)
    refuse: int = 0  # how many DATA commands to refuse from now on
    refused: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse > 0:
            self.refuse -= 1
            self.refused += 1
            return "451 4.3.0 try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        message["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SmtpServer:
    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp(settings) -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
    settings.SITE_URL = "https://club.example"
    settings.NOTICE_REMINDER_HOURS = 6
    try:
        yield server
    finally:
        server.stop()


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
