"""A rematch: the members of a finished match asked to play again at the same table (issue 41).

Why a row of its own: the finished table stays as it was (its match, rounds, ledger entries and results are the
record of what was played), so a rematch is a new table, made from the old one's game, house rules, seats and bots
once its members have answered. Until then the answers are kept here, one row per finished table (`table` is
unique: one rematch a table, whoever asks and however often), and the new table is linked from it (`new_table` is
unique too: one old table's rematch, never two). Everything here is written under the old table's row lock
(tables.play.services.rematch).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.models.play import Table


class Rematch(models.Model):
    class State(models.TextChoices):
        ASKED = "asked", _("waiting for answers")
        STARTED = "started", _("started")  # every member accepted: the new table plays
        OPENED = "opened", _("opened with seats free")  # not everyone: the new table waits for players
        CANCELLED = "cancelled", _("cancelled")

    class Reason(models.TextChoices):
        """Why a rematch was cancelled (the board says it in the reader's language)."""

        NOBODY = "nobody", _("nobody accepted")
        LIMIT = "limit", _("the member who would open it has as many tables as the club allows")

    table = models.OneToOneField(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="rematch",
                                 help_text=_("The finished table whose members were asked."))
    new_table = models.OneToOneField(Table, verbose_name=_("new table"),
        on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="rematch_of", help_text=_("The table the rematch is played at."))
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("asked by"),
        on_delete=models.PROTECT, related_name="rematches_asked")
    accepted = models.JSONField(verbose_name=_("accepted by"), default=list, blank=True,
                                help_text=_("The members who accepted (their ids, in the order they did)."))
    declined = models.JSONField(verbose_name=_("declined by"),
        default=list, blank=True, help_text=_("The members who declined (their ids)."))
    state = models.CharField(verbose_name=_("state"), max_length=10, choices=State.choices, default=State.ASKED)
    reason = models.CharField(verbose_name=_("reason"), max_length=10, choices=Reason.choices, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(verbose_name=_("expires at"),
        help_text=_("When the members who have not answered are no longer waited for."))
    resolved_at = models.DateTimeField(verbose_name=_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")
        constraints = [
            models.CheckConstraint(condition=~Q(state__in=["asked", "cancelled"]) | Q(new_table__isnull=True),
                                   name="rematches_not_made_have_no_table"),
        ]

    def __str__(self) -> str:
        return gettext("rematch of %(table)s") % {"table": self.table}
