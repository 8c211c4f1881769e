"""The club's play, one package per feature: `play` (the base the others build on), `lobby`, `quickplay`, `ledger`.
Models stay in `tables.models`, shared by all; this package's own modules (apps, urls, routing, admin, seeding)
only wire the features together."""
