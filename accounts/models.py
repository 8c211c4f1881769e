"""The club's member: Django's user plus the name shown at tables, their time zone, their table-page
preferences and which emails they want."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.names import name_keys
from accounts.time_zones import default_time_zone, time_zone_choices


def _name_key_field(verbose_name: Any, help_text: Any) -> models.CharField:
    return models.CharField(verbose_name, max_length=64, unique=True, null=True, blank=True, editable=False,
                            help_text=help_text)


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

    # How the table plays for this member (issue 41). Forced cards and premoves are on by default: a card the rules
    # leave no choice about, or one chosen ahead, asks nothing of the member. Card sounds are off, as the turn tone is.
    auto_play_forced = models.BooleanField(
        _("play forced cards for me"), default=True,
        help_text=_("When the rules leave you a single card or move, it is played for you after a short pause."),
    )
    premoves = models.BooleanField(
        _("premoves"), default=True,
        help_text=_("Choose your card before your turn; it is played when your turn comes, if it is still legal."),
    )
    trick_pause = models.CharField(
        _("how long a taken trick stays"), max_length=8, default="normal",
        choices=[("short", _("Short")), ("normal", _("Normal")), ("long", _("Long"))],
        help_text=_("How long the cards of a finished trick stay in front of you before they go to the taker."),
    )
    card_sounds = models.BooleanField(
        _("card sounds"), default=False,
        help_text=_("A soft sound when a card is played and when a trick is taken."),
    )
    # Off by default, as the sounds are: a notification at a live table is for a member who asked for it, on a device
    # that allowed it (static/js/turn.js shows it while the table's tab is in the background; issue 44).
    live_turn_notices = models.BooleanField(
        _("notify me at live tables"), default=False,
        help_text=_("When it becomes your turn at a live table while its tab is in the background, show a "
                    "notification on this device (it asks your browser first)."),
    )

    # The club's emails about correspondence tables (issue 44; tables.notices sends them). "Your turn" comes by
    # default for each turn, as a move a day is easily missed without it; `daily` gathers them into one morning
    # email, `never` sends none. Reminders (and the word that time ran out) and the end of a match are on too.
    class TurnEmails(models.TextChoices):
        EACH = "each", _("For each turn")
        DAILY = "daily", _("One summary a day")
        NEVER = "never", _("Never")

    turn_emails = models.CharField(
        _("“your turn” emails"), max_length=8, choices=TurnEmails.choices, default=TurnEmails.EACH,
        help_text=_("At correspondence tables: an email when it is your turn, or one each morning listing every "
                    "table waiting for you."),
    )
    deadline_emails = models.BooleanField(
        _("deadline reminders"), default=True,
        help_text=_("An email a few hours before your time for a move runs out, and one if it ran out."),
    )
    match_emails = models.BooleanField(
        _("“match over” emails"), default=True,
        help_text=_("An email when a match at one of your correspondence tables is over."),
    )

    # A person the club's staff entered for its physical tables (issue 45: tables.tournaments.club_players): no login
    # of their own, so never seated at an online table. Given a login later (a usable password, from the admin's
    # usual password reset), they can come online, and `save` clears the mark.
    plays_only_at_club = models.BooleanField(
        _("plays only at the club"), default=False,
        help_text=_("Entered by the club's staff without a login of their own; cleared once they have a password."),
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

    # The keys no two members' names may share (accounts.names): of the shown name and of the username, each
    # ignoring case and as written. Empty for a name from before they were kept that read like an earlier member's
    # (migration 0006); set again when that member changes it.
    shown_key = _name_key_field(_("shown name key"), _("The shown name's skeleton, ignoring case (UTS #39), hashed."))
    shown_look = _name_key_field(_("shown name look"), _("The shown name's skeleton as written (UTS #39), hashed."))
    username_key = _name_key_field(_("username key"), _("The username's skeleton, ignoring case (UTS #39), hashed."))
    username_look = _name_key_field(_("username look"), _("The username's skeleton as written (UTS #39), hashed."))

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> User:
        member = super().from_db(db, field_names, values)
        member._names_as_loaded = (member.__dict__.get("username"), member.__dict__.get("display_name"))
        return member

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        super().refresh_from_db(*args, **kwargs)
        fields = kwargs.get("fields") or (args[1] if len(args) > 1 else None)
        loaded = getattr(self, "_names_as_loaded", (None, None))
        self._names_as_loaded = (
            self.__dict__.get("username") if fields is None or "username" in fields else loaded[0],
            self.__dict__.get("display_name") if fields is None or "display_name" in fields else loaded[1])

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The name keys follow the names they are of. Only when a name changed: a name kept from before the keys
        (whose key is empty) stays the member's as long as they keep it. A player of the club's tables only who now
        has a password can log in, so is one no longer."""
        loaded = getattr(self, "_names_as_loaded", None)
        keyed: list[str] = []
        if loaded is None or loaded[0] != self.username:
            self.username_key, self.username_look = name_keys(self.username)
            keyed += ["username_key", "username_look"]
        if loaded is None or (loaded[0], loaded[1]) != (self.username, self.display_name):
            self.shown_key, self.shown_look = name_keys(self.shown_name)
            keyed += ["shown_key", "shown_look"]
        if self.plays_only_at_club and self.has_usable_password():
            self.plays_only_at_club = False
            keyed.append("plays_only_at_club")
        if kwargs.get("update_fields") is not None and keyed:
            kwargs["update_fields"] = {*kwargs["update_fields"], *keyed}
        super().save(*args, **kwargs)
        self._names_as_loaded = (self.username, self.display_name)

    def __str__(self) -> str:
        return self.shown_name


class PushSubscription(models.Model):
    """One device (a browser profile) that agreed to be told things by Web Push: the push service's address for it and
    the keys its messages are encrypted to (RFC 8291). Removed when the member turns it off there, or when the push
    service says it is gone (accounts.webpush)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"), on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("device key"), max_length=120)
    auth = models.CharField(_("device secret"), max_length=40)
    user_agent = models.CharField(_("browser"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} · {self.user_agent or self.endpoint[:40]}"
