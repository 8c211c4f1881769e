"""The club's member: Django's user plus the name shown at tables, their time zone and their table-page
preferences."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.time_zones import default_time_zone, time_zone_choices


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True,
        help_text=_("The name other members see at tables; your username if empty."),
    )
    # Off by default: a sound nobody asked for is a nuisance at work or at night. static/js/turn.js plays it.
    turn_sound = models.BooleanField(
        _("sound on my turn"), default=False,
        help_text=_("Play a short, quiet tone when it becomes your turn while the table's tab is in the background."),
    )

    # Times on the site show in this zone, named ("18:05 CET"); accounts.middleware activates it per request.
    time_zone = models.CharField(
        _("time zone"), max_length=64, choices=time_zone_choices, default=default_time_zone,
        help_text=_("Times on the site are shown in this zone."),
    )

    # The site's language for this member (pages, and the boards their sockets receive); empty: as the browser
    # asks (Accept-Language). Issue 23. The languages are named in their own words ("Deutsch"), as a reader of
    # that language looks for them.
    language = models.CharField(
        _("language"), max_length=8, blank=True, default="",
        choices=[("", _("As my browser asks")), *settings.LANGUAGES],
        help_text=_("The language of the site for you."),
    )

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.shown_name
