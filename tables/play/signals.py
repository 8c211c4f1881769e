"""What play tells the features built on it, which it may not import: a round has finished, a match has ended.

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

match_ended = Signal()
"""Sent once per match, inside the transaction that ends it, by every path that ends a running table's match:
`Live._finish_round` when the last round makes the match over (`ending` "played"), `Live.close_for_nobody`
(every member left or went offline: `leave_table`, the table clock) and the admin's `close_table` (`ending`
"closed"). With `match` (its `state` the engine's match as it ends: totals of the finished rounds), `table`,
`seats` (in position order, read under the table's lock) and `now` (when it ended). The ledger records the
match's result from it; like `round_finished` it is sent with `send`, so a receiver that fails rolls the end back.
"""

table_stopped_waiting = Signal()
"""Sent inside the transaction in which an open table stops waiting for players, with `table` and `ending`:
"started" (the seat that filled it began the match: `begin_match`; the table's status is written later in the
same transaction) or "closed" (the last member left it, or an admin closed it; an admin's close of a running table
sends it too, harmlessly). Invitations end theirs here, so an invited member's lobby stops offering the seat as
the table starts or closes, not at the next reload. Sent with `send`: a receiver that fails rolls the change back.
"""
