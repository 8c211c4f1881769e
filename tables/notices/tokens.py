"""The unsubscribe link's token: signed (django.core.signing, with a salt of its own, so no other signed value of
the site is ever taken for one), naming the member and the topic it turns off. It does not expire: a link in an
old email must still work, and it can only ever turn that member's emails of that topic off (or on again)."""

from __future__ import annotations

from django.core import signing

from tables.notices.preferences import TOPICS

SALT = "tables.notices.unsubscribe"


def unsubscribe_token(*, user_id: int, topic: str) -> str:
    if topic not in TOPICS:
        raise ValueError(f"no such topic: {topic!r}")
    return signing.dumps({"u": user_id, "t": topic}, salt=SALT)


def read_token(token: str) -> tuple[int, str]:
    """(member id, topic) of a token this site signed; BadSignature for anything else (tampered, made up, cut)."""
    data = signing.loads(token, salt=SALT)
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or data.get("t") not in TOPICS:
        raise signing.BadSignature("not an unsubscribe token")
    return data["u"], data["t"]
