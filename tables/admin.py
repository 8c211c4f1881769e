"""The club's admin: one module per concern, registered when Django autodiscovers `tables.admin`."""

from __future__ import annotations

from tables.admin import ledger, play, queue  # noqa: F401
