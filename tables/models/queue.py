"""Quick play: a member's standing request for a table, kept in the database until it is settled.

A request outlives the page that made it (the member may go away and come back), so it is a row,
not a socket's memory. Rows are never deleted when settled: the state says how each ended
(matched, cancelled, expired) and the admin shows them. A partial unique constraint keeps at most
one waiting request per member, whatever two processes try at the same moment.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.models.play import Table, game_choices


class QueueRequest(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        MATCHED = "matched", _("matched")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.CASCADE, related_name="queue_requests")
    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices)
    players = models.PositiveSmallIntegerField(verbose_name=_("players"),
        null=True, blank=True, help_text=_("How many players at the table; empty: any number the game allows.")
    )
    band = models.CharField(verbose_name=_("rating band"),
        max_length=20, blank=True, help_text=_("The stake or target band (see quick play's bands); empty: any.")
    )
    options = models.JSONField(verbose_name=_("options"),
        default=dict, blank=True, help_text=_("The table's other house rules, complete (defaults filled in).")
    )
    bots_after_seconds = models.PositiveIntegerField(verbose_name=_("bots after (seconds)"),
        null=True, blank=True, help_text=_("Play with bots after this wait; empty: only with members.")
    )
    state = models.CharField(verbose_name=_("state"),
        max_length=10, choices=State.choices, default=State.WAITING, db_index=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now, db_index=True)
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    ended_at = models.DateTimeField(verbose_name=_("ended at"),
        null=True, blank=True, help_text=_("When it was matched, cancelled or expired."))
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.SET_NULL, null=True, blank=True, related_name="queue_requests",
        help_text=_("The table it was matched to."),
    )
    with_bots = models.BooleanField(verbose_name=_("with bots"),
        default=False, help_text=_("Matched at a table with bots after the wait."))

    class Meta:
        verbose_name = _("quick-play request")
        verbose_name_plural = _("quick-play requests")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(state="waiting"), name="one_waiting_request_per_member"
            ),
            models.CheckConstraint(
                condition=Q(players__isnull=True) | Q(players__gte=2), name="queue_players_at_least_two"
            ),
        ]
        indexes = [models.Index(fields=["game", "state", "created_at"], name="queue_game_state_created")]

    def __str__(self) -> str:
        return gettext("%(member)s for %(game)s (%(state)s)") % {"member": self.user, "game": self.get_game_display(),
                                                                  "state": self.get_state_display()}

    @property
    def waiting(self) -> bool:
        return self.state == self.State.WAITING
