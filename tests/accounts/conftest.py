"""Fixtures of the accounts' tests."""

from __future__ import annotations

from tests.push_service import pushes  # noqa: F401 (a fixture: the push service of the Web Push tests)
