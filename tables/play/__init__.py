"""Play: tables, seats, matches, rounds and moves; the table page and socket, pushes after commit, snapshots,
the admin's table tools, and the small helpers every feature shares (errors, request numbers, amounts).
Uses the engine (`rules.engine`), `accounts` and `tables.models`; never `lobby`, `quickplay` or `ledger`."""
