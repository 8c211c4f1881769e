"""Which notices a member wants: each kind of email answers to one of the member's three choices (their "topic"),
which the settings page and the unsubscribe link both change."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables.models import Notice

TURN, DEADLINE, MATCH = "turn", "deadline", "match"
TOPICS = (TURN, DEADLINE, MATCH)
# The time-ran-out email goes with the reminders: both are about the member's time for a move.
TOPIC_OF_KIND = {
    Notice.Kind.TURN: TURN, Notice.Kind.DIGEST: TURN, Notice.Kind.REMINDER: DEADLINE, Notice.Kind.TIMEOUT: DEADLINE,
    Notice.Kind.MATCH_OVER: MATCH,
}


def wants(user: User, kind: str) -> bool:
    """Whether `user` wants emails of `kind` now (an active member with an address, and the choice on)."""
    if not user.is_active or not user.email:
        return False
    if kind == Notice.Kind.TURN:
        return user.turn_emails == User.TurnEmails.EACH
    if kind == Notice.Kind.DIGEST:
        return user.turn_emails == User.TurnEmails.DAILY
    if kind in (Notice.Kind.REMINDER, Notice.Kind.TIMEOUT):
        return user.deadline_emails
    if kind == Notice.Kind.MATCH_OVER:
        return user.match_emails
    raise ValueError(f"no such kind of notice: {kind!r}")


def topic_is_on(user: User, topic: str) -> bool:
    if topic == TURN:
        return user.turn_emails != User.TurnEmails.NEVER
    return user.deadline_emails if topic == DEADLINE else user.match_emails


def turn_off(*, user_id: int, topic: str) -> str:
    """The unsubscribe link's work: the topic off at once. Returns what the member had (for turning it back on:
    "each" or "daily" for turns, "on" or "off" for the others)."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if topic == TURN:
            had = user.turn_emails
            user.turn_emails = User.TurnEmails.NEVER
            user.save(update_fields=["turn_emails"])
            return had
        field = "deadline_emails" if topic == DEADLINE else "match_emails"
        had = "on" if getattr(user, field) else "off"
        setattr(user, field, False)
        user.save(update_fields=[field])
        return had


def turn_on(*, user_id: int, topic: str, turn_emails: str = User.TurnEmails.EACH) -> None:
    """The unsubscribe page's button: the topic on again (turns as `turn_emails`, each or daily)."""
    if turn_emails not in (User.TurnEmails.EACH, User.TurnEmails.DAILY):
        raise ValueError(f"not a way to send turns: {turn_emails!r}")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if topic == TURN:
            user.turn_emails = turn_emails
            user.save(update_fields=["turn_emails"])
            return
        field = "deadline_emails" if topic == DEADLINE else "match_emails"
        setattr(user, field, True)
        user.save(update_fields=[field])
