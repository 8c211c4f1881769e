"""The ledger: entries of finished rounds, history, standings, replays, fair deals, in-person results and
corrections, with the treasurer's admin. Uses `play` (and hears of finished rounds through play's signal);
never `lobby` or `quickplay`."""
