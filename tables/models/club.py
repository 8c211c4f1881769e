"""What the club remembers beyond the ledger: who won each match, ratings, seasons, invitations and chat.

Match results and rating changes are written once, in the transaction that ends the match, and never edited:
standings and profiles read them, and `manage.py rebuild_ratings` replays the rating changes from them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.models.play import Match, Table, game_choices


class MatchResult(models.Model):
    """A match as it ended: played out, or cut short because its table closed (then ranked on the totals so far).

    One row per match (a match that ended before its first round finished has none: nothing to rank)."""

    class Ending(models.TextChoices):
        PLAYED = "played", _("played out")
        CLOSED = "closed", _("table closed")

    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="result")
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="match_results")
    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    unit = models.CharField(verbose_name=_("unit"),
        max_length=10, help_text=_("cents (money) or points, as the game's ledger entries."))
    ending = models.CharField(verbose_name=_("ending"), max_length=10, choices=Ending.choices)
    rounds = models.PositiveIntegerField(verbose_name=_("rounds"),
        help_text=_("Rounds finished and scored (voided rounds not counted)."))
    finished_at = models.DateTimeField(verbose_name=_("finished at"), db_index=True)
    rating_seq = models.PositiveIntegerField(verbose_name=_("rating order"),
        null=True, blank=True,
        help_text=_("The order in which this game's ratings took the match in (rebuild_ratings replays in it)."))

    class Meta:
        verbose_name = _("match result")
        verbose_name_plural = _("match results")
        ordering = ["-finished_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "rating_seq"], name="one_rating_step_per_game_and_seq"),
        ]

    def __str__(self) -> str:
        return gettext("%(game)s match at %(table)s (%(ending)s)") % {
            "game": self.get_game_display(), "table": self.table, "ending": self.get_ending_display()}


class MatchPlace(models.Model):
    """One seat's line of a match result: who sat there (a member, or a bot), their total and their place.

    `place` is 1 for the best total; seats with equal totals share a place, and `won` marks the match's
    winners as the rules decide them (a tie for the best total shares the win)."""

    result = models.ForeignKey(MatchResult, verbose_name=_("match result"),
        on_delete=models.CASCADE, related_name="places")
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.PROTECT, related_name="match_places", null=True, blank=True)
    bot = models.CharField(verbose_name=_("bot"),
        max_length=40, blank=True,
        help_text=_("When a bot held the seat: the level it played at (easy, normal, strong), which the ratings rate "
                    "as a player of its own."))
    total = models.IntegerField(verbose_name=_("total"))
    place = models.PositiveSmallIntegerField(verbose_name=_("place"))
    won = models.BooleanField(verbose_name=_("won"), default=False)

    class Meta:
        verbose_name = _("match place")
        verbose_name_plural = _("match places")
        ordering = ["result", "place", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="one_place_per_seat"),
            models.CheckConstraint(condition=Q(user__isnull=True) ^ Q(bot=""), name="a_place_is_a_member_or_a_bot"),
        ]

    def __str__(self) -> str:
        return gettext("seat %(seat)s: place %(place)s of %(result)s") % {
            "seat": self.seat, "place": self.place, "result": self.result}


class Rating(models.Model):
    """A player's current OpenSkill (Plackett-Luce) rating in one game: a member, or a bot level ("easy", "normal",
    "strong": each level is a player of its own)."""

    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.CASCADE, related_name="ratings", null=True, blank=True)
    bot = models.CharField(verbose_name=_("bot"), max_length=40, blank=True)
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    matches = models.PositiveIntegerField(verbose_name=_("matches"), default=0)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], condition=Q(user__isnull=False),
                                    name="one_rating_per_member_and_game"),
            models.UniqueConstraint(fields=["game", "bot"], condition=~Q(bot=""), name="one_rating_per_bot_and_game"),
            models.CheckConstraint(condition=Q(user__isnull=True) ^ Q(bot=""), name="a_rating_is_a_member_or_a_bot"),
        ]

    def __str__(self) -> str:
        return f"{self.user or self.bot}: {self.game} {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one match did to one player's rating: the history a profile charts and the rebuild checks."""

    result = models.ForeignKey(MatchResult, verbose_name=_("match result"),
        on_delete=models.CASCADE, related_name="rating_changes")
    rating = models.ForeignKey(Rating, verbose_name=_("rating"), on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu_after = models.FloatField(verbose_name=_("mu after"))
    sigma_after = models.FloatField(verbose_name=_("sigma after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["result__rating_seq", "pk"]
        constraints = [models.UniqueConstraint(fields=["result", "rating"], name="one_change_per_match_and_rating")]

    def __str__(self) -> str:
        return gettext("%(rating)s: %(before)s to %(after)s") % {
            "rating": self.rating, "before": f"{self.mu_before:.2f}", "after": f"{self.mu_after:.2f}"}


class Season(models.Model):
    """A stretch of the club's year, set by its admins; standings offer "this season" (the one holding today)."""

    name = models.CharField(verbose_name=_("name"), max_length=60)
    starts = models.DateField(verbose_name=_("starts"))
    ends = models.DateField(verbose_name=_("ends"))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts"]
        constraints = [
            models.CheckConstraint(condition=Q(ends__gte=models.F("starts")), name="a_season_ends_after_it_starts"),
        ]

    def __str__(self) -> str:
        return self.name


class Invitation(models.Model):
    """A private table's creator asks a member to sit down; the member takes the seat by the link, or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("expired")
        WITHDRAWN = "withdrawn", _("withdrawn")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="invitations")
    invited = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("invited member"),
        on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("invited by"),
        on_delete=models.CASCADE, related_name="invitations_sent")
    status = models.CharField(verbose_name=_("status"),
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(verbose_name=_("expires at"), db_index=True)
    answered_at = models.DateTimeField(verbose_name=_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "invited"], condition=Q(status="pending"),
                                    name="one_open_invitation_per_table_and_member"),
        ]

    def __str__(self) -> str:
        return gettext("%(member)s invited to %(table)s") % {"member": self.invited, "table": self.table}


class ChatMessage(models.Model):
    """A line of a table's chat (`table` set) or of the lobby's (`table` empty). Kept when staff hide it.

    `spectator` marks a line written by someone not seated at the table; during a round (`round_number`, the
    round being played when it was written) such lines are kept from the players: no coaching from the rail."""

    table = models.ForeignKey(Table, verbose_name=_("table"),
        on_delete=models.CASCADE, related_name="chat", null=True, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
        on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(verbose_name=_("text"), max_length=500)
    spectator = models.BooleanField(verbose_name=_("spectator"), default=False)
    round_number = models.PositiveIntegerField(verbose_name=_("round number"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True, db_index=True)
    hidden_at = models.DateTimeField(verbose_name=_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("hidden by"),
        on_delete=models.PROTECT, related_name="chat_hidden", null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["table", "created_at"], name="chat_by_table_and_time")]
        constraints = [
            models.CheckConstraint(condition=Q(hidden_at__isnull=True) | Q(hidden_by__isnull=False),
                                   name="hidden_chat_names_who_hid_it"),
        ]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class ChatMute(models.Model):
    """A member no longer sees another member's chat lines (in any chat)."""

    member = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("muted member"),
        on_delete=models.CASCADE, related_name="chat_muted_by")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.UniqueConstraint(fields=["member", "muted"], name="one_mute_per_pair"),
            models.CheckConstraint(condition=~Q(member=models.F("muted")), name="no_muting_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("%(member)s mutes %(muted)s") % {"member": self.member, "muted": self.muted}
