"""A real SMTP server for the tests (aiosmtpd on a free port of 127.0.0.1) and the `smtp` fixture that points Django's
SMTP backend at it: the notices' emails go through the same code as in production, to a server that keeps them."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller


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
