from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Members"  # allauth's own app is "Accounts" (its email addresses): one heading each in the admin

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the receivers)
