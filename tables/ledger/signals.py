"""What the ledger tells the features built on it: a match's result is recorded.

Sent inside the transaction that records it (the one that ends the match), with `send`, not `send_robust`:
whatever a receiver writes (the match's rating changes) commits or rolls back with the result.
"""

from __future__ import annotations

from django.dispatch import Signal

match_recorded = Signal()
"""Sent by `tables.ledger.services.results.record_match` with `result` (a saved MatchResult, its places saved)."""
