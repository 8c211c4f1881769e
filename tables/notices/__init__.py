"""Emails about correspondence tables (issue 44): "your turn" (or one summary a day), "your deadline is near",
"your time ran out" and "the match is over".

The table clock runs `job.NoticeJob` on its passes: it scans the correspondence tables (never the live ones) for
events (`events`), writes one outbox row per event and member (`outbox`, tables.models.Notice), and, after that
commit, sends the rows due (`sending`), each rendered in its member's language and zone (`emails`) with a signed
one-click unsubscribe link (`tokens`, `views`). What each member wants is on their account (`preferences`).
"""
