"""Member profiles: a page per member with their games, ratings, recent matches and best results.

Its own feature, not part of the ratings: a profile gathers the ledger's (replays, who may see them), the
match results' and the ratings' reads, while the ratings stay a thing the profile (and quick play, some day)
reads without knowing about pages of members.
"""
