"""A club night's score sheet while it is being entered: work in progress on the server, not the books.

A draft is not append-only (unlike tables/models/ledger.py): its rows are changed, inserted, voided and removed
while the treasurer copies the paper. It lives in the database so that a closed browser loses nothing and any staff
member can carry on from any device; `version` goes up by one with every change, and every change names the
version it was made against, so an edit made on a page that another device has changed since is refused (optimistic
concurrency, as the live tables do). Signing the sheet off books it once (its `token` becomes the ClubNight's
unique token) and links the night; the draft then stays, read-only, as the sheet as it was entered (voided hands
included, which the books do not hold).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models.ledger import ClubNight
from tables.models.play import game_choices


class NightDraft(models.Model):
    """The sheet's heading (game, day, players in seat order, options) and its state; its hands are DraftRows."""

    token = models.CharField(verbose_name=_("token"), max_length=64, unique=True,
                             help_text=_("The sheet's key; the saved night carries the same token."))
    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices)
    played_on = models.DateField(verbose_name=_("played on"))
    seats = models.JSONField(verbose_name=_("seats"), help_text=_("The players' member ids, in seat order."))
    options = models.JSONField(verbose_name=_("options"), default=dict, blank=True,
                               help_text=_("The night's stake and house rules."))
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)
    tournament_table = models.ForeignKey("tables.TournamentTable", verbose_name=_("tournament table"),
                                         on_delete=models.PROTECT, null=True, blank=True, related_name="drafts",
                                         help_text=_("The in-person tournament table this sheet is kept for."))
    version = models.PositiveIntegerField(verbose_name=_("version"), default=1)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.PROTECT,
                                   related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("updated by"), on_delete=models.PROTECT,
                                   related_name="+")
    updated_at = models.DateTimeField(verbose_name=_("updated at"), default=timezone.now, db_index=True)
    night = models.OneToOneField(ClubNight, verbose_name=_("night"), on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="draft",
                                 help_text=_("The night this sheet was signed off as; empty while it is open."))
    signed_off_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("signed off by"),
                                      on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="+")
    signed_off_at = models.DateTimeField(verbose_name=_("signed off at"), null=True, blank=True)

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.played_on.isoformat()} ({self.token[:8]})"

    @property
    def signed_off(self) -> bool:
        return self.night_id is not None


class DraftRow(models.Model):
    """One hand of a sheet as typed (`data`: member ids and numbers as text, re-checked whenever it is priced).

    `number` is the hand's number on the paper, unique on its sheet; rows are shown and booked in that order. A
    voided row keeps its number and place and counts nothing."""

    draft = models.ForeignKey(NightDraft, verbose_name=_("draft"), on_delete=models.CASCADE, related_name="rows")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    data = models.JSONField(verbose_name=_("data"))
    void = models.BooleanField(verbose_name=_("void"), default=False)
    void_reason = models.CharField(verbose_name=_("void reason"), max_length=200, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("entered by"), on_delete=models.PROTECT,
                                   related_name="+")
    entered_at = models.DateTimeField(verbose_name=_("entered at"), default=timezone.now)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("changed by"), on_delete=models.PROTECT,
                                   null=True, blank=True,
                                   related_name="+")
    changed_at = models.DateTimeField(verbose_name=_("changed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("score sheet row")
        verbose_name_plural = _("score sheet rows")
        ordering = ["draft", "number"]
        constraints = [
            models.UniqueConstraint(fields=["draft", "number"], name="one_row_per_number_of_a_sheet"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="a_sheet_row_number_is_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.number}"
