"""Each pytest-xdist worker on a Redis database of its own (the `services` tier runs in two workers).

pytest-django already gives each worker a database of its own (test_<name>_gw0, ...), so two workers' tables share
ids: in one Redis database the snapshots, sessions and channel groups keyed by those ids would be read by the other
worker's servers. This module is a plugin (`-p tests.worker_redis` in pyproject's addopts, importable through its
`pythonpath`), which pytest imports before pytest-django reads the settings, so REDIS_URL is rewritten while it
still counts: worker gwN uses database N past the one the URL names, and the Daphne processes the tests start
inherit it through `settings.REDIS_URL`.
"""

from __future__ import annotations

import os
import re


def worker_redis_url(url: str, worker: str | None) -> str:
    """`url` with its database moved up by the worker's number (gw0 keeps it): redis://host:port/D -> /D+N."""
    if not url or not worker or not (number := re.fullmatch(r"gw(\d+)", worker)):
        return url
    match = re.match(r"^(rediss?://[^/?#]*)(?:/(\d*))?(.*)$", url)
    if match is None:
        return url
    base, database, rest = match.groups()
    return f"{base}/{int(database or 0) + int(number.group(1))}{rest}"


if url := os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(url, os.environ.get("PYTEST_XDIST_WORKER"))
