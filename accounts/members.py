"""Finding the one member a person means by a name: username, display name or email, never a guess.

Every form that names a member (an invitation, the treasurer's sheets, corrections) resolves what was typed
through `find_member`: exactly one active member, or a sentence saying why not. `suggest_members` gives the few
members a half-typed name may mean, for the `<datalist>` the form shows as one types (accounts.views).
Emails are matched only whole and only for staff: a member must not learn another's address by typing its start.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from accounts.models import User

SUGGESTIONS = 8
MIN_SUGGEST_CHARS = 2


@dataclass(frozen=True)
class Found:
    """The one member a name means, or why there is none (`problem`)."""

    member: User | None
    problem: str = ""


def folded(text: str) -> str:
    return " ".join(text.split())


def _exactly(text: str, *, by_email: bool) -> QuerySet[User]:
    lookup = Q(username__iexact=text) | Q(display_name__iexact=text)
    if by_email:
        lookup |= Q(email__iexact=text)
    return User.objects.filter(lookup, is_active=True)


def find_member(text: str, *, by_email: bool = True) -> Found:
    """The active member `text` names exactly (username, display name or, with `by_email`, email; any case).
    Two members answering to one name is a question back, not a pick; a username or email wins over someone
    else's display name, since those are unique."""
    text = folded(text)
    if not text:
        return Found(None, gettext("Type the member's username, display name or email.") if by_email
                     else gettext("Type the member's username or display name."))
    members = list(_exactly(text, by_email=by_email)[:5])
    if not members:
        return Found(None, gettext("No member is called “%(name)s”. Pick one of the suggestions.") % {"name": text})
    low = text.lower()
    unique = [m for m in members if m.username.lower() == low or (by_email and m.email.lower() == low)]
    if len(members) > 1 and len(unique) == 1:
        members = unique
    if len(members) > 1:
        names = ", ".join(sorted(m.username for m in members))
        return Found(None, gettext("Several members answer to “%(name)s” (%(usernames)s); type the username of the one"
                                   " you mean.") % {"name": text, "usernames": names})
    return Found(members[0])


def suggest_members(text: str, *, exclude: Q | None = None, by_email: bool = False) -> list[User]:
    """A few active members whose username or email starts with `text`, or whose display name contains it."""
    text = folded(text)
    if len(text) < MIN_SUGGEST_CHARS:
        return []
    matching = Q(username__istartswith=text) | Q(display_name__icontains=text)
    if by_email:
        matching |= Q(email__istartswith=text)
    found = User.objects.filter(matching, is_active=True)
    if exclude is not None:
        found = found.exclude(exclude)
    return list(found.order_by("display_name", "username")[:SUGGESTIONS])
