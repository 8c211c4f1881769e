"""Club tournaments (issue 45): the event, its entry list, its rounds and the tables each round draws.

Why the draw is kept as rows and not recomputed: a round's tables are what members were told and where they sat,
and the draw is a function of earlier results that staff may still correct (a voided table), so the record must
show what was drawn then. The pairing core (tables.tournaments.sessions and .swiss) can replay any round from
these rows and the tournament's seed, which is why the seed is stored and kept from members until the end.
Everything here is written by tables.tournaments.services under the tournament's row lock.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.models.play import Table, game_choices


def new_tournament_seed() -> str:
    return secrets.token_hex(16)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SESSIONS = "sessions", _("sessions at assigned tables")
        SWISS = "swiss", _("Swiss rounds")
        ROUND_ROBIN = "round_robin", _("round robin")

    class Status(models.TextChoices):
        DRAFT = "draft", _("in preparation")
        ENTRIES_OPEN = "entries_open", _("entries open")
        ENTRIES_CLOSED = "entries_closed", _("entries closed")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(verbose_name=_("name"), max_length=80)
    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices)
    format = models.CharField(verbose_name=_("format"), max_length=12, choices=Format.choices)
    status = models.CharField(verbose_name=_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT,
                              db_index=True)
    rounds = models.PositiveSmallIntegerField(verbose_name=_("rounds"),
        help_text=_("Sessions or Swiss rounds to play; a round robin's is set by its schedule at the first draw."))
    hands_per_session = models.PositiveSmallIntegerField(verbose_name=_("hands per session"), default=0,
        help_text=_("How many hands each table plays in a session (0: one match per pairing, as Swiss rounds and "
                    "round robins play)."))
    seed = models.CharField(verbose_name=_("seed"), max_length=64, default=new_tournament_seed, editable=False,
        help_text=_("Every draw is made from it; shown only when the tournament is over, so nobody can work out "
                    "a draw ahead of time."))
    options = models.JSONField(verbose_name=_("options"), default=dict, blank=True)
    rated = models.BooleanField(verbose_name=_("rated"), default=False)
    current_round = models.PositiveSmallIntegerField(verbose_name=_("current round"), default=0,
        help_text=_("The number of the last round drawn (0: none yet)."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.PROTECT,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    starts_at = models.DateTimeField(verbose_name=_("starts at"), null=True, blank=True,
        help_text=_("When play is planned to begin; empty: when the organiser starts it."))
    no_show_minutes = models.PositiveSmallIntegerField(verbose_name=_("minutes before a no-show"), default=10,
        help_text=_("At an online table, how long after a round starts a member who has not come counts as a "
                    "no-show, and a bot plays their seat."))
    entry_fee_cents = models.PositiveIntegerField(verbose_name=_("entry fee (cents)"), default=0,
        help_text=_("0: free to enter."))
    prize_shares = models.JSONField(verbose_name=_("prize shares"), default=list, blank=True,
        help_text=_("The share of the entry fees for each place, in percent, best place first (e.g. 50, 30, 20)."))
    paused_at = models.DateTimeField(verbose_name=_("paused at"), null=True, blank=True)
    pause_reason = models.CharField(verbose_name=_("reason for the pause"), max_length=300, blank=True)
    cancel_reason = models.CharField(verbose_name=_("reason for cancelling"), max_length=300, blank=True)
    published_at = models.DateTimeField(verbose_name=_("results published at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def house_rules(self) -> dict:
        """The game's options, without the tournament's own bookkeeping kept beside them (keys starting with "_",
        e.g. the re-draw counts), which the engine's configuration would refuse."""
        return {key: value for key, value in (self.options or {}).items() if not key.startswith("_")}


class Entry(models.Model):
    """A member's entry. Withdrawing keeps the row (who entered and left is part of the record); entering again
    makes a new one, so at most one live entry per member and tournament (the constraint)."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                   related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"), on_delete=models.PROTECT,
                             related_name="tournament_entries")
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=Status.choices,
                              default=Status.ENTERED)
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], condition=Q(status="entered"),
                                    name="one_live_entry_per_member"),
        ]

    def __str__(self) -> str:
        return gettext("%(member)s in %(tournament)s") % {"member": self.user, "tournament": self.tournament}


class TournamentRound(models.Model):
    """A session (the session format) or a round (Swiss, round robin)."""

    class Status(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        PLAYING = "playing", _("playing")
        DONE = "done", _("done")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                   related_name="round_set")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(verbose_name=_("status"), max_length=8, choices=Status.choices, default=Status.DRAWN)
    drawn_at = models.DateTimeField(verbose_name=_("drawn at"), default=timezone.now)

    class Meta:
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        ordering = ["tournament", "number"]
        constraints = [
            # Two draws of one round at once cannot both land, whatever the database does with row locks.
            models.UniqueConstraint(fields=["tournament", "number"], name="one_draw_per_round"),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, round %(number)s") % {"tournament": self.tournament, "number": self.number}


class TournamentTable(models.Model):
    """One table of a round: its seats in order (the first deals or moves first), a Swiss bye as [player, None].

    A result is the winner (Swiss, round robin) or the points per player (sessions); a voided table keeps what
    was recorded, for the record, but counts for nobody."""

    round = models.ForeignKey(TournamentRound, verbose_name=_("round"), on_delete=models.CASCADE,
                              related_name="tables")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    seats = models.JSONField(verbose_name=_("seats"),
        help_text=_("The members' ids in seat order; empty (null) for a bye."))
    class Where(models.TextChoices):
        ONLINE = "online", _("online")
        CLUB = "club", _("at the club")

    where = models.CharField(verbose_name=_("played"), max_length=8, choices=Where.choices, default=Where.ONLINE)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    no_shows = models.JSONField(verbose_name=_("no-shows"), default=list, blank=True,
        help_text=_("The members who did not come to this online table in time: a bot played their seat."))
    replacements = models.JSONField(verbose_name=_("replacements"), default=list, blank=True,
        help_text=_("Who replaced whom at this table, when and by whose decision."))
    table = models.ForeignKey(Table, verbose_name=_("play table"), on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="tournament_tables",
                              help_text=_("The table it is played at online, once seated."))
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("winner"), on_delete=models.PROTECT,
                               null=True, blank=True, related_name="tournament_wins",
                               help_text=_("Swiss and round robin: who won the match (a bye: its player)."))
    points = models.JSONField(verbose_name=_("points"), null=True, blank=True,
        help_text=_("Sessions: each member's points at this table (member id: points), once recorded."))
    void_reason = models.CharField(verbose_name=_("reason for voiding"), max_length=300, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("voided by"), on_delete=models.PROTECT,
                                  null=True, blank=True, related_name="+")
    voided_at = models.DateTimeField(verbose_name=_("voided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_tournament_table_per_number"),
            models.CheckConstraint(condition=Q(voided_at__isnull=True) | ~Q(void_reason=""),
                                   name="voided_tournament_tables_name_a_reason"),
        ]

    def __str__(self) -> str:
        return gettext("%(round)s, table %(number)s") % {"round": self.round, "number": self.number}

    @property
    def void(self) -> bool:
        return self.voided_at is not None

    @property
    def players(self) -> list[int]:
        return [seat for seat in self.seats if seat is not None]

    @property
    def is_bye(self) -> bool:
        return None in self.seats
