"""The ledger's writes (entries, in-person results, corrections) and the fair-deal check.
Uses the engine, the models and play's services and selectors; nothing above it."""
