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
from django.utils import translation
from django.utils.encoding import force_str

from accounts.languages import saved_language
from accounts.models import User


@dataclass(frozen=True)
class ClubSite:
    """What allauth's email templates read from `current_site`."""

    name: str
    domain: str


def club_site() -> ClubSite:
    request = context.request
    return ClubSite(name=settings.CLUB_NAME, domain=request.get_host() if request is not None else "")


class ClubAccountAdapter(DefaultAccountAdapter):
    def format_email_subject(self, subject: str) -> str:
        if app_settings.EMAIL_SUBJECT_PREFIX is not None:  # an explicit ACCOUNT_EMAIL_SUBJECT_PREFIX wins
            return super().format_email_subject(subject)
        return f"[{settings.CLUB_NAME}] {force_str(subject)}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        recipient = context.get("user") or User.objects.filter(email__iexact=email).first()
        with translation.override(saved_language(recipient) or translation.get_language()):
            super().send_mail(template_prefix, email, {**context, "current_site": club_site()})
