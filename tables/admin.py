"""The club's admin: each feature's admin module, registered when Django autodiscovers `tables.admin`."""

from __future__ import annotations

from tables.chat import admin as chat_admin  # noqa: F401
from tables.ledger import admin as ledger_admin  # noqa: F401
from tables.play import admin as play_admin  # noqa: F401
from tables.quickplay import admin as quickplay_admin  # noqa: F401
