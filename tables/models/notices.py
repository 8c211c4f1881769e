"""The outbox of the club's emails about correspondence tables (issue 44; tables.notices writes and sends it).

Why a row per email, written before anything is sent: an event (a member's turn, a deadline near, time run out, a
match over) is found by a scan that may run in several processes, again after a restart, and every 30 seconds; the
row's `key` names the event and the member and is unique, so the event makes one row however often it is found,
and the row says whether its email went out. Sending reads committed rows only, claims each one by a conditional
UPDATE (`claimed_until`), so two processes never send one row, and marks it `sent_at` after the SMTP server took
it; a failed try is kept (`attempts`, `last_error`) and tried again at `next_try_at`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tables.models.play import Table


class Notice(models.Model):
    class Channel(models.TextChoices):
        """How it reaches the member: an email, or a Web Push message to each device they subscribed
        (tables.notices.pushes). The same event makes one row per channel (a push's key is the email's, prefixed)."""

        EMAIL = "email", _("email")
        PUSH = "push", _("push notification")

    class Kind(models.TextChoices):
        TURN = "turn", _("your turn")
        DIGEST = "digest", _("daily summary of turns")
        REMINDER = "reminder", _("deadline reminder")
        TIMEOUT = "timeout", _("time ran out")
        MATCH_OVER = "match_over", _("match over")

    key = models.CharField(_("key"), max_length=120, unique=True,
                           help_text=_("Names the event and the member: one email per event and member."))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    channel = models.CharField(_("channel"), max_length=8, choices=Channel.choices, default=Channel.EMAIL)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"), on_delete=models.CASCADE,
                             related_name="notices")
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, null=True, blank=True,
                              related_name="notices", help_text=_("Empty for a daily summary (it names several)."))
    data = models.JSONField(_("data"), default=dict, blank=True,
                            help_text=_("What the email needs besides the table: the round and move it is about."))
    created_at = models.DateTimeField(_("created at"))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0, help_text=_("Failed tries so far."))
    next_try_at = models.DateTimeField(_("next try at"), null=True, blank=True,
                                       help_text=_("When it is sent (again); empty once sent or given up."))
    claimed_until = models.DateTimeField(
        _("claimed until"), null=True, blank=True,
        help_text=_("A process is sending it until then; after that another may (the first one stopped)."))
    given_up_at = models.DateTimeField(
        _("given up at"), null=True, blank=True,
        help_text=_("Not sent, and never will be: too many failed tries, or no longer true or wanted "
                    "(the reason is the last error)."))
    last_error = models.CharField(_("last error"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("email notice")
        verbose_name_plural = _("email notices")
        ordering = ["-created_at"]
        indexes = [
            # What the sender reads on each look: the rows still to send, soonest first.
            models.Index(fields=["next_try_at"], condition=Q(sent_at__isnull=True, next_try_at__isnull=False),
                         name="notices_to_send"),
        ]

    def __str__(self) -> str:
        return self.key
