"""The only code that writes play state: typed, keyword-only functions, one transaction each.
Uses the engine, the models and play's selectors, snapshots and push; announces finished rounds through
`tables.play.signals` (the ledger listens), so it calls no other feature."""
