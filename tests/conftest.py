"""Fixtures every tier shares: members, logged-in clients and sockets."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User

PASSWORD = "a-long-test-password-42"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Hashing strength is Django's business; the tests only need passwords to work."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_background_sweeps(settings) -> None:
    """Sockets started in tests do not sweep quick play in the background unless a test asks for it."""
    settings.QUICK_PLAY_SWEEP_SECONDS = 0


@pytest.fixture
def make_member(db: None) -> Callable[..., User]:
    counter = {"n": 0}

    def make(username: str | None = None, **extra: object) -> User:
        counter["n"] += 1
        name = username or f"member{counter['n']}"
        user = User.objects.create_user(username=name, email=f"{name}@example.org", password=PASSWORD, **extra)
        return user

    return make


@pytest.fixture
def member(make_member: Callable[..., User]) -> User:
    return make_member("alice", display_name="Alice")


@pytest.fixture
def member_client(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client
