"""What play tells the features built on it, which it may not import: a round has finished.

The ledger writes a finished round's entries; play must not import the ledger, so the play service sends
`round_finished` and the ledger's receiver (connected in `TablesConfig.ready`) writes them. The signal is
sent with `send`, not `send_robust`, inside the transaction that finishes the round: the entries commit or
roll back with the round, and a receiver that refuses (a ledger that would not balance) rolls it back.
"""

from __future__ import annotations

from django.dispatch import Signal

round_finished = Signal()
"""Sent by `Live._finish_round` with `round` (over, with its result, and a row of its own), `table` and
`seats` (the table's seats as the transaction read them, under the table's lock)."""
