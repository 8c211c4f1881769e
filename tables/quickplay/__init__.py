"""Quick play: the matchmaking queue, its form, panel and notices, the per-process sweeper, its admin.
Uses `play` (its services form the tables, its push primitives carry the notices); never `lobby` or `ledger`."""
