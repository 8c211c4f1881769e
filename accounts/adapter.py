"""allauth's account adapter, signing the account emails with the club's name.

The club does not install django.contrib.sites, so allauth falls back to `RequestSite`, whose name is the
host name ("Hello from cardclub.example!", "[127.0.0.1:8000] Password Reset Email"). The sites framework
would fix the name with a database row per deployment, kept in step with ALLOWED_HOSTS by hand; here the
name is a setting (`CLUB_NAME`, from the environment) and the domain stays the request's own, the one the
email's links already point to. allauth's own email templates are used unchanged.

Each email is written in its recipient's language when they saved one (accounts.languages), whatever browser asked
for it (a password reset is asked for logged out); otherwise in the language of the request that sent it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import translation
from django.utils.encoding import force_str

from accounts.languages import saved_language
from accounts.models import User
from accounts.names import has_hidden_characters, is_reserved, username_problem


@dataclass(frozen=True)
class ClubSite:
    """What allauth's email templates read from `current_site`."""

    name: str
    domain: str


def club_site() -> ClubSite:
    request = context.request
    return ClubSite(name=settings.CLUB_NAME, domain=request.get_host() if request is not None else "")


class ClubAccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, then the club's (issue 39): a username is shown beside each chat line, so it may not
        read like another member's name, hold hidden characters, or be a name kept for the club."""
        username = super().clean_username(username, shallow=shallow)
        if shallow:  # allauth making up a username: no database look-up wanted
            if has_hidden_characters(username) or is_reserved(username):
                raise self.validation_error("username_blacklisted")
            return username
        problem = username_problem(username, member_id=None)
        if problem:
            raise ValidationError(problem)
        return username

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        """The display name goes in with the first save: saved without it, the new member would be shown by the
        username for a moment, and that name might read like another's that the display name does not."""
        user = super().save_user(request, user, form, commit=False)
        user.display_name = form.cleaned_data.get("display_name", "") or ""
        if commit:
            user.save()
        return user

    def format_email_subject(self, subject: str) -> str:
        if app_settings.EMAIL_SUBJECT_PREFIX is not None:  # an explicit ACCOUNT_EMAIL_SUBJECT_PREFIX wins
            return super().format_email_subject(subject)
        return f"[{settings.CLUB_NAME}] {force_str(subject)}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        recipient = context.get("user") or User.objects.filter(email__iexact=email).first()
        with translation.override(saved_language(recipient) or translation.get_language()):
            super().send_mail(template_prefix, email, {**context, "current_site": club_site()})
