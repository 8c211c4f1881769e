"""The club's member: Django's user plus the name shown at tables."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="The name other members see at tables; your username if empty."
    )

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.shown_name
