"""Sockets end with what let them in: a log-out closes the sockets of that session, and a new
password or a deactivated (or deleted) account closes those of every session of the member.

A socket's member is read once, when it connects, so without these it would go on showing that
member's hand until it next timed out. The events go through `tables.play.push` after the commit.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.models import User
from tables.play import push


@receiver(user_logged_out, dispatch_uid="accounts.close_sockets_on_logout")
def close_session_sockets(sender: Any, request: HttpRequest, **kwargs: Any) -> None:
    """Sent before the session is flushed, so its key is still the one its sockets joined with."""
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None)
    if session_key:
        push.session_ended(session_key=session_key)


@receiver(post_save, sender=User, dispatch_uid="accounts.close_sockets_on_password_or_deactivation")
def close_member_sockets(
    sender: type[User], instance: User, created: bool, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    """`set_password` leaves the raw password on the instance until its `save` has finished (Django
    hands it to the password validators then), so this sees every path that sets one: allauth's
    change and reset, the admin's form, `manage.py changepassword`. A rehash at login clears it
    first and closes nothing. The admin's "disable password" sets no raw password, hence the second test."""
    if created or (update_fields is not None and not update_fields & {"password", "is_active"}):
        return
    new_password = getattr(instance, "_password", None) is not None or not instance.has_usable_password()
    if new_password or not instance.is_active:
        push.account_sessions_ended(user_id=instance.pk)


@receiver(post_delete, sender=User, dispatch_uid="accounts.close_sockets_on_delete")
def close_deleted_member_sockets(sender: type[User], instance: User, **kwargs: Any) -> None:
    push.account_sessions_ended(user_id=instance.pk)
