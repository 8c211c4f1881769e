from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Members")  # allauth's own app is "Accounts" (its email addresses): one heading each in the admin

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the receivers)
