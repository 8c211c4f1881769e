"""On PostgreSQL no lock wait hangs a table's clock for ever: the connections' lock_timeout ends it with an error.

Run with DATABASE_URL on PostgreSQL (`-m services`). A second process, configured from the environment as the
site's processes are (small timeouts here), ends a match of a game whose rating lock this test holds: its wait ends
in an error after the lock timeout and the whole match's transaction rolls back, where without it the process would
wait for as long as the lock is held. `migrate` runs without the statement timeout and leaves the connection with
its own afterwards (config/database.py says why).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models.signals import pre_migrate

from tables.models import MatchResult
from tables.ratings.services.ratings import lock_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HANG = 60  # seconds: only a guard against a process that would wait for ever; nothing here is timed

ENDS_A_MATCH = """
import json, time, django
django.setup()
from django.db import connection, transaction, OperationalError
from accounts.models import User
from tests.tables.ratings.factories import record_match

ann = User.objects.get(username="ann")
began = time.monotonic()
try:
    record_match("hawk", [ann, "easy", "strong"], [3, 2, 1])
    outcome = "recorded"
except OperationalError as error:
    outcome = type(error.__cause__).__name__
took = time.monotonic() - began
try:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(5)")
    runaway = "finished"
except OperationalError as error:
    runaway = type(error.__cause__).__name__
print(json.dumps({"outcome": outcome, "seconds": took, "runaway": runaway}))
"""


def site_process(code: str, **environment: str) -> dict:
    """Run `code` in a process of its own on the test database, with the site's settings and `environment`."""
    db = connection.settings_dict
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    url = f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{host}/{db['NAME']}"
    base = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    done = subprocess.run([sys.executable, "-c", code], env={**base, "DATABASE_URL": url,
                          "DJANGO_SETTINGS_MODULE": "config.settings", **environment},
                          capture_output=True, text=True, cwd=settings.BASE_DIR, timeout=HANG)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def show(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


def test_a_match_waiting_for_its_game_s_rating_lock_fails_after_the_lock_timeout_instead_of_hanging(
        make_member) -> None:
    assert connection.vendor == "postgresql", "run this file with DATABASE_URL on PostgreSQL (-m services)"
    make_member("ann")
    with transaction.atomic():
        lock_game("hawk")  # as a long job holding the game's lock would
        ended = site_process(ENDS_A_MATCH, DATABASE_LOCK_TIMEOUT="0.3", DATABASE_STATEMENT_TIMEOUT="0.5")
    assert ended["outcome"] == "LockNotAvailable"  # PostgreSQL's "canceling statement due to lock timeout"
    assert ended["runaway"] == "QueryCanceled"  # and a statement running past the statement timeout is ended too
    assert not MatchResult.objects.exists()  # the match's whole transaction rolled back: the clock tries it again
    print(f"lock wait ended after {ended['seconds']:.2f} s")


def test_the_site_s_connections_have_the_configured_timeouts_and_migrate_runs_without_the_statement_one() -> None:
    assert connection.vendor == "postgresql", "run this file with DATABASE_URL on PostgreSQL (-m services)"
    configured = settings.DATABASES["default"]["OPTIONS"]["options"]
    assert (show("lock_timeout"), show("statement_timeout")) != ("0", "0")
    assert f"-c lock_timeout={_ms(show('lock_timeout'))}" in configured
    assert f"-c statement_timeout={_ms(show('statement_timeout'))}" in configured
    during = []

    def look(**kwargs: object) -> None:
        during.append((show("lock_timeout"), show("statement_timeout")))

    pre_migrate.connect(look, dispatch_uid="look-during-migrate")
    try:
        call_command("migrate", verbosity=0)
    finally:
        pre_migrate.disconnect(dispatch_uid="look-during-migrate")
    assert during and all(statement == "0" and lock != "0" for lock, statement in during)
    assert f"-c statement_timeout={_ms(show('statement_timeout'))}" in configured  # its own again after


def _ms(shown: str) -> int:
    """PostgreSQL shows 10000 ms as "10s" and 300 ms as "300ms"."""
    for unit, factor in (("ms", 1), ("s", 1000), ("min", 60_000)):
        if shown.endswith(unit) and shown[:-len(unit)].isdigit():
            return int(shown[:-len(unit)]) * factor
    return int(shown)
