"""Who has the lobby open, counted the same by every Daphne process."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Presence(models.Model):
    """One open lobby socket. Rows live in the database so every Daphne process counts the same."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences")
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user} on {self.channel_name}"
