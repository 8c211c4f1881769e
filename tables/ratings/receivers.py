"""The ratings' side of the ledger's `match_recorded`: a recorded match is rated in the same transaction.

It raises as `rate_match` does, so a result whose rating fails is rolled back with it (the ledger sends
with `send`, not `send_robust`): a result is never kept unrated, and the rebuild's order stays the truth.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tables.ledger.signals import match_recorded
from tables.models import MatchResult
from tables.ratings.services.ratings import rate_match


@receiver(match_recorded, dispatch_uid="tables.ratings.rate_recorded_match")
def rate_recorded_match(sender: Any, *, result: MatchResult, **kwargs: Any) -> None:
    rate_match(result=result)
