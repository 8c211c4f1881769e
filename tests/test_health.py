"""GET /health/ (config/health.py): the database, Redis when the site has it, and this process's table clock, for
nginx, systemd and monitoring. No login needed, nothing of the club's in the answer. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL (the database check opens a connection of its own in a worker thread)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import OperationalError
from django.test import Client

from tables.play import background
from tests.tables.helpers import full_table

pytestmark = pytest.mark.django_db

DATABASE, CLOCK_ON, CLOCK_OFF = "Database(alias='default')", "TableClock(state='on')", "TableClock(state='off')"


@pytest.fixture
def process_clock(settings, monkeypatch) -> Iterator[background.Clock]:
    """This process's clock as a serving process has it, its last pass finished just now (nothing runs it here:
    each test sets the times it needs)."""
    settings.TABLE_CLOCK_SECONDS = 1.0
    settings.TABLE_CLOCK_PASS_TIMEOUT = 10.0
    loop = asyncio.new_event_loop()
    clock = background.Clock(sweep=lambda: None, seconds=1.0, loop=loop, pass_timeout=10.0)
    clock.last_pass = time.monotonic()
    monkeypatch.setattr(background, "_clock", clock)
    try:
        yield clock
    finally:
        loop.close()


def health(**headers: str) -> tuple[int, dict[str, str]]:
    response = Client().get("/health/", headers=headers or {"accept": "application/json"})
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, json.loads(response.content)


def test_a_process_with_a_database_and_a_clock_that_just_passed_is_healthy_and_says_no_more(
        process_clock, make_member) -> None:
    alice = make_member("alice", display_name="Alice Example")
    full_table("hawk", [alice], bots=3)
    status, checks = health()
    assert status == 200
    assert checks == {DATABASE: "OK", CLOCK_ON: "OK"}  # the default site has no Redis: no cache check
    status, same = health(accept="*/*")  # curl's, and a browser's: JSON all the same
    assert (status, same) == (200, checks)
    body = Client().get("/health/?format=text").content.decode()
    assert body.splitlines() == [f"{DATABASE}: OK", f"{CLOCK_ON}: OK"]
    for answer in (json.dumps(checks), body):
        assert "alice" not in answer.lower() and "hawk" not in answer


def test_a_clock_with_no_pass_for_too_long_fails_the_check_and_says_how_long(process_clock) -> None:
    limit = background.HEALTHY_WITHIN_POLLS * 1.0 + 10.0
    process_clock.last_pass = time.monotonic() - limit + 2
    assert health() == (200, {DATABASE: "OK", CLOCK_ON: "OK"})
    process_clock.last_pass = time.monotonic() - limit - 5
    status, checks = health()
    assert status == 500
    assert checks[DATABASE] == "OK"
    # (nothing runs this clock here: its task is not running either)
    assert checks[CLOCK_ON] == f"Unavailable: no pass has finished for {limit + 5:.0f} s; its task is not running"


def test_a_hung_pass_shows_as_the_pass_under_way(process_clock) -> None:
    process_clock.last_pass = time.monotonic() - 60
    process_clock.running = background.Pass(lambda: None)
    process_clock.running.began = time.monotonic() - 45
    status, checks = health()
    assert status == 500
    assert checks[CLOCK_ON] == "Unavailable: no pass has finished for 60 s; the pass under way began 45 s ago"


def test_a_serving_process_without_its_clock_is_not_healthy(settings, monkeypatch) -> None:
    settings.TABLE_CLOCK_SECONDS = 1.0
    monkeypatch.setattr(background, "_clock", None)
    status, checks = health()
    assert status == 500
    assert checks[CLOCK_ON] == "Unavailable: the table clock is not running in this process"


def test_a_clock_turned_off_says_so_without_failing(settings, monkeypatch) -> None:
    settings.TABLE_CLOCK_SECONDS = 0
    monkeypatch.setattr(background, "_clock", None)
    assert health() == (200, {DATABASE: "OK", CLOCK_OFF: "OK"})


def test_a_database_that_does_not_answer_fails_the_check_without_its_error_text(process_clock, monkeypatch) -> None:
    def refused(self: BaseDatabaseWrapper) -> None:
        raise OperationalError('connection to server at "10.1.2.3", port 5432 failed: role "cardclub" is unknown')

    monkeypatch.setattr(BaseDatabaseWrapper, "temporary_connection", refused)
    status, checks = health()
    assert status == 500
    assert checks == {DATABASE: "Unavailable: the database does not answer", CLOCK_ON: "OK"}


def test_with_redis_the_cache_is_checked_too(process_clock, settings) -> None:
    """The default tier's cache is the process's own; the check runs against whatever the cache is (the services
    tier's test behind nginx sees it answer from real Redis)."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    status, checks = health()
    assert (status, checks) == (200, {DATABASE: "OK", "Cache(alias='default')": "OK", CLOCK_ON: "OK"})
