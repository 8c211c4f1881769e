"""Club tournaments (issue 45). The pairing core lives in plain modules that know nothing of Django
(`table_sizes`, `sessions`, `swiss`): a tournament's next session or round is a pure function of the standings
so far and a seed, which makes it testable by properties and replayable by the club's admins from the record."""
