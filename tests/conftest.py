"""Fixtures every tier shares: members, logged-in clients and sockets."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import connections
from django.test import Client
from django.utils import translation

from accounts.models import User
from tests.e2e.timings import TIMINGS, TITLE, run_timings

PASSWORD = "a-long-test-password-42"
# The database DATABASE_URL names, read before pytest-django points `default` at a test database made from it.
CONFIGURED_DATABASE = settings.DATABASES["default"]["NAME"]


@pytest.fixture(scope="session", autouse=True)
def _no_connection_outlives_the_run(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Sockets run their database work on threads of their own, and test helpers call the ORM through
    asgiref's shared thread: each keeps a connection Django closes only in that thread. On PostgreSQL the
    test database can only be dropped once nobody uses it, so before it is dropped (this fixture's
    teardown runs first) every other session of this run on it is ended. A run whose tests need no database
    (one file of them) makes none, and `default` is then the database DATABASE_URL names, perhaps one in use:
    nothing is ended there."""
    yield
    with django_db_blocker.unblock():
        connection = connections["default"]
        if connection.vendor == "postgresql" and connection.settings_dict["NAME"] != CONFIGURED_DATABASE:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        connections.close_all()


@pytest.fixture(scope="session", autouse=True)
def _german_compiled() -> None:
    """German tests read the compiled catalogue: compile it when the .po is newer (as `make install` does), so a
    catalogue edited since the last install is what every test sees."""
    catalogue = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES" / "django.po"
    compiled = catalogue.with_suffix(".mo")
    if catalogue.exists() and (not compiled.exists() or compiled.stat().st_mtime < catalogue.stat().st_mtime):
        subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(catalogue)], check=True)


@pytest.fixture(autouse=True)
def _language_of_its_own() -> Iterator[None]:
    """A request in German leaves German active in this thread (LocaleMiddleware never switches back): each test
    starts and ends in the site's default language."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Hashing strength is Django's business; the tests only need passwords to work."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _a_cache_of_its_own() -> None:
    """The database is rolled back after each test but the per-process cache is not: a rate limit one test hit
    (allauth's one confirmation email per address in three minutes) or a session or snapshot kept under an id
    the database hands out again would reach the next test. Redis (the `services` tier) is shared by parallel
    workers and not cleared; its tests use names of their own."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all():
        if isinstance(cache, LocMemCache):
            cache.clear()


@pytest.fixture(autouse=True)
def _no_background_sweeps(settings) -> None:
    """Sockets started in tests do not sweep quick play in the background unless a test asks for it."""
    settings.QUICK_PLAY_SWEEP_SECONDS = 0
    settings.TABLE_CLOCK_SECONDS = 0  # tests move the table clock themselves (tables.play.services.clock)
    # Bots answer inside the member's move, as at an `instant` table, unless a test is about their pace
    # (tests/tables/play/test_paced_bots.py makes its tables at the club's real default speed).
    settings.TABLE_BOT_SPEED = "instant"


@pytest.fixture(autouse=True)
def _a_search_budget_of_its_own(monkeypatch) -> None:
    """The table clock's search budget lives as long as the process (tables.play.services.clock.club_budget): each
    test starts with a full one, whatever the tests before it searched."""
    from tables.play.services import clock

    monkeypatch.setattr(clock, "_budget", None)


@pytest.fixture
def fifth() -> Iterator[None]:
    """Little Tricks (tests/tables/fifth_game.py), registered for the test: the site must play any game it is given."""
    from rules.engine import registry
    from tests.tables import fifth_game

    registry.register(fifth_game, bot=fifth_game)
    try:
        yield
    finally:
        registry.unregister(fifth_game.KEY)


@pytest.fixture
def make_member(db: None) -> Callable[..., User]:
    counter = {"n": 0}

    def make(username: str | None = None, **extra: object) -> User:
        counter["n"] += 1
        name = username or f"member{counter['n']}"
        # Forced cards (on by default for real members) are played by the clock whenever the deal leaves a member one
        # card: a test of something else would see it by chance. Their own tests ask for it.
        extra.setdefault("auto_play_forced", False)
        user = User.objects.create_user(username=name, email=f"{name}@example.org", password=PASSWORD, **extra)
        # As a member who signed up and followed the confirmation link: the club requires a confirmed address to
        # log in (ACCOUNT_EMAIL_VERIFICATION, see config/settings.py).
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
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


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands the e2e figures it measured to the controller (see the hooks below); and the test
    database's leftovers go (next paragraph)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None and TIMINGS in session.config.stash:
        output["e2e_timings"] = run_timings(session.config).lines()
    remove_wal_files()


def remove_wal_files() -> None:
    """Django destroys the test database's file but not SQLite's WAL and shared-memory files beside it: without
    this every run left two files in var/ (the name carries the process id, so they were never reused)."""
    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if not name or "sqlite" not in settings.DATABASES["default"]["ENGINE"]:
        return
    for suffix in ("-wal", "-shm"):
        leftover = Path(f"{name}{suffix}")
        if not Path(name).exists():
            leftover.unlink(missing_ok=True)


# The e2e tier's figures (tests/e2e/timings.py). These hooks are here, in the root conftest, because with the tier
# spread over xdist workers the controller collects nothing and never loads tests/e2e/conftest.py.
@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller takes the figures a worker measured (its `workeroutput`, filled at the worker's session end)."""
    lines = getattr(node, "workeroutput", {}).get("e2e_timings", [])
    if lines:
        run_timings(node.config).from_workers.extend(lines)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The figures this run measured, after the results (nothing when it measured none, as in the default tier)."""
    lines = run_timings(config).summary() if TIMINGS in config.stash else []
    if lines:
        terminalreporter.write_sep("=", TITLE)
        for line in lines:
            terminalreporter.write_line(line)
