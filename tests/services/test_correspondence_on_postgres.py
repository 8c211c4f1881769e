"""Issue 44's "done when" on PostgreSQL (services tier): a correspondence Sheepshead table of two members and three
bots across simulated days, the clock's sweep and the notices' job run as a serving process runs them, each member
told by email (a real SMTP server, aiosmtpd) and by Web Push (a push service that decrypts what it gets) exactly
once per turn, never of a card (tests/tables/notices/across_days.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.push_service import PushService, push_service
from tests.tables.notices.across_days import check_told_once_per_turn, play_across_days
from tests.tables.notices.conftest import SmtpServer
from tests.tables.play.table_life import fake_time

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def smtp(settings) -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
    settings.SITE_URL = "https://club.example"
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pushes(settings) -> Iterator[PushService]:
    key = ec.generate_private_key(ec.SECP256R1())
    settings.WEBPUSH_VAPID_PRIVATE_KEY = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with push_service() as running:
        settings.WEBPUSH_ENDPOINTS = [re.escape(running.base)]
        yield running


def test_a_correspondence_table_across_days_on_postgres(make_member, smtp, pushes,
                                                        django_capture_on_commit_callbacks, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    outcome = play_across_days(make_member=make_member, smtp=smtp, pushes=pushes,
                               capture=django_capture_on_commit_callbacks, time=time, turns_wanted=20, seed=5)
    check_told_once_per_turn(outcome, smtp, pushes)
