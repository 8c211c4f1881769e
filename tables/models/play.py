"""What the site stores about play.

A table holds seats and one match; a match holds rounds; a round holds every move in order.
Each round keeps its seed, its configuration and the match as it stood when it was dealt, so any
round replays exactly from the database and nothing is derived from memory. `Table.version`
counts every change at the table: moves carry the version they were made against.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from rules.engine import registry
from tables.play.table_names import shown_name

# What stands in, everywhere staff look (admin fields, titles, history, exports), for what a round not over keeps
# secret; marked for translation here, translated where shown (`gettext(HIDDEN)`), kept English in a CSV.
HIDDEN = gettext_noop("hidden until the round is over")


def game_choices() -> list[tuple[str, str]]:
    """Every game the registry holds now, by its title: read at run time (Django calls it each time it needs
    the choices), so a game registered after start-up is valid and shown by name like the club's own four."""
    return [(spec.key, spec.title) for spec in registry.all_specs()]


def default_bot_speed() -> str:
    """The club's bot speed for a new table (TABLE_BOT_SPEED), read when the table is made."""
    return settings.TABLE_BOT_SPEED


def new_table_code() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        RUNNING = "running", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("closed")

    class BotSpeed(models.TextChoices):
        """How fast bots (and seats played for absent members) move: each move is its own version, pushed to
        every viewer, this long after the one before (tables.play.pace holds the seconds)."""

        INSTANT = "instant", _("instant")
        BRISK = "brisk", _("brisk")
        NORMAL = "normal", _("normal")
        SLOW = "slow", _("slow")

    class MissedMove(models.TextChoices):
        """What a missed deadline does at a correspondence table (the creator's choice): the bot makes that one move,
        or the member counts as having left the seat, as by "Leave" (the bot finishes the round for them, the house
        plays their seat from the next round until they take it back)."""

        BOT_MOVES = "bot", _("the bot makes that move")
        LEAVES = "leave", _("the player leaves the seat until they take it back")

    class BotLevel(models.TextChoices):
        """How well bots (and the bot standing in for an absent member) play: the game's quick heuristics, or
        a search over guessed deals at two budgets (rules.engine.search.LEVELS; a search decision takes up to a
        fifth of a second, so the table clock makes it, never a member's request: tables.play.services.clock)."""

        EASY = "easy", pgettext_lazy("bot level", "easy")
        NORMAL = "normal", pgettext_lazy("bot level", "normal")  # not the bot speed's "normal": German says "mittel"
        STRONG = "strong", pgettext_lazy("bot level", "strong")

    code = models.CharField(verbose_name=_("code"), max_length=16, unique=True, default=new_table_code, editable=False)
    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    name = models.CharField(verbose_name=_("name"), max_length=60, blank=True)
    seat_count = models.PositiveSmallIntegerField(verbose_name=_("number of seats"))
    options = models.JSONField(verbose_name=_("options"), default=dict, blank=True)
    private = models.BooleanField(verbose_name=_("private"),
        default=False, help_text=_("Hidden from the lobby; anyone with the link may join."))
    # A table the club seated (a tournament's round, tables.play.services.seated): private, so nobody else sits, but
    # any member may watch it as a spectator, as the club's members watch the club's tournament tables.
    anyone_may_watch = models.BooleanField(verbose_name=_("any member may watch"), default=False,
        help_text=_("A private table whose seats the club decided: every signed-in member may watch it."))
    turn_seconds = models.PositiveSmallIntegerField(verbose_name=_("seconds per turn"), default=60)
    # A correspondence table (issue 44): a move a day rather than a sitting. Its members are not expected to be there:
    # offline is nobody's absence, the bots move at once, and each member's turn has this many hours.
    move_hours = models.PositiveSmallIntegerField(verbose_name=_("hours per move"),
        default=0, help_text=_("A correspondence table: each player has this many hours for a move (0: a live "
                             "table, timed by the seconds per turn)."))
    missed_move = models.CharField(verbose_name=_("a missed move"), max_length=8, choices=MissedMove.choices,
                                   default=MissedMove.BOT_MOVES,
                                   help_text=_("At a correspondence table: what a move whose time ran out does."))
    bot_speed = models.CharField(verbose_name=_("bot speed"),
        max_length=10, choices=BotSpeed.choices, default=default_bot_speed)
    bot_level = models.CharField(verbose_name=_("bot level"),
        max_length=10, choices=BotLevel.choices, default=BotLevel.EASY,
        help_text=_("How well the bots play here (a bot seat may have its own level)."))
    grace_seconds = models.PositiveSmallIntegerField(verbose_name=_("grace period (seconds)"),
        default=15, help_text=_("How long a member may be offline before the bot plays their turns."))
    due_at = models.DateTimeField(verbose_name=_("due at"),
        null=True, blank=True, db_index=True,
        help_text=_("When the server next acts here by itself (a bot's move, a time-out, the next round, presence)."))
    status = models.CharField(verbose_name=_("status"),
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0)
    played_version = models.PositiveIntegerField(verbose_name=_("played version"),
        default=0, help_text=_("The version at which the game last changed (a deal or a move); later versions only "
                             "changed who is there, so a move made against any of them still stands."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"),
        on_delete=models.PROTECT, related_name="tables_created", null=True, blank=True
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("closed by"),
        on_delete=models.PROTECT, related_name="tables_closed", null=True, blank=True,
        help_text=_("The admin who closed the table (at `finished_at`); empty if it ended by play."),
    )
    close_reason = models.CharField(verbose_name=_("reason for closing"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(closed_by__isnull=True) | (Q(status="abandoned") & ~Q(close_reason="")),
                name="closed_tables_name_a_reason",
            ),
        ]

    def __str__(self) -> str:
        if self.name:
            return shown_name(self.name)
        return gettext("%(game)s table %(code)s") % {"game": self.get_game_display(), "code": self.code}

    @property
    def correspondence(self) -> bool:
        """Played across days, a move at a time (`move_hours`), not at one sitting."""
        return self.move_hours > 0


class Seat(models.Model):
    """A place at a table: empty, a member's, or a bot's. A member who left a running table keeps
    the seat with `away` set, and the bot plays it until they come back: the round they left in for them, each
    round dealt while they are away for the house (`Round.house_seats`)."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.PROTECT, related_name="seats", null=True, blank=True
    )
    is_bot = models.BooleanField(verbose_name=_("bot"), default=False)
    bot_level = models.CharField(verbose_name=_("bot level"),
        max_length=10, choices=Table.BotLevel.choices, blank=True,
        help_text=_("A bot seat's level; blank: the table's."))
    away = models.BooleanField(verbose_name=_("away"), default=False)
    ready = models.BooleanField(verbose_name=_("ready"), default=False, help_text=_("Ready for the next round."))
    offline_since = models.DateTimeField(verbose_name=_("offline since"),
        null=True, blank=True, help_text=_("Since when the member is shown offline (no page of this table open)."))
    gone_at = models.DateTimeField(verbose_name=_("gone at"),
        null=True, blank=True,
        help_text=_("The member's last page of the table closed: unless one opens again, offline from this moment."))
    joined_at = models.DateTimeField(verbose_name=_("joined at"), null=True, blank=True)
    away_from = models.PositiveIntegerField(verbose_name=_("away from round"),
        null=True, blank=True,
        help_text=_("The round in which the member went away (left, or offline): what was played for them since is "
                    "shown to them when they are back, until they close it."))
    # The member's card chosen ahead of their turn (tables.play.autoplay): private to them, like their hand (the
    # admin's seat inline does not show it), played by the table clock when their turn comes if still legal.
    premove = models.CharField(verbose_name=_("premove"),
        max_length=200, blank=True, help_text=_("The move chosen ahead of the turn."))
    premove_serial = models.PositiveIntegerField(verbose_name=_("premove number"),
        default=0, help_text=_("Counts changes of the premove: a request made against an older count is refused."))
    premove_dropped = models.CharField(verbose_name=_("premove dropped"),
        max_length=200, blank=True, help_text=_("The premove that could no longer be played, told to its member."))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="one_seat_per_member"
            ),
            models.CheckConstraint(
                condition=~(Q(is_bot=True) & Q(user__isnull=False)), name="bot_seats_have_no_member"
            ),
        ]

    def __str__(self) -> str:
        return gettext("seat %(number)s of %(table)s") % {"number": self.position, "table": self.table}

    @property
    def empty(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.away

    def level_at(self, table: Table) -> str:
        """How well the bot plays this seat at `table` (the seat's table, passed in so nothing is read again):
        the seat's own level, else the table's. A member's seat has none of its own: the bot that plays it for
        them (left, offline, out of time) plays at the table's level."""
        return self.bot_level or table.bot_level


class Match(models.Model):
    """The match at a table: the engine's match record (dealer, totals, what carries over)."""

    table = models.OneToOneField(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="match")
    config = models.JSONField(verbose_name=_("configuration"))
    seed = models.CharField(verbose_name=_("seed"), max_length=64)
    state = models.JSONField(verbose_name=_("state"),
        help_text=_("The engine's match: rounds finished, dealer, running totals."))
    over = models.BooleanField(verbose_name=_("over"), default=False)
    winners = models.JSONField(verbose_name=_("winners"), default=list, blank=True)
    sheet = models.JSONField(verbose_name=_("score sheet"),
        default=list, blank=True,
        help_text='The score sheet: each finished round\'s result, oldest first, as {"round": number, "deltas": '
                  '[one per seat]}. A voided round has none. Kept here, written as the round ends, so the board '
                  '(built from a snapshot of the table, without reading its rounds) can show it.')
    started_at = models.DateTimeField(verbose_name=_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return gettext("match at %(table)s") % {"table": self.table}


class Round(models.Model):
    """One deal. `seed` stays secret until the round is over; `commitment` is public from the deal.

    An admin may void a round that is not over: it is then over (its seed and moves may be reviewed)
    with no result and no ledger entries, and `voided_at`, `voided_by` and `void_reason` say so. The club
    voids one itself (`voided_by` empty) when it ends before any member has moved in its match
    (tables.play.services.play.Live.members_moved): bots alone played it.
    """

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(verbose_name=_("number"))
    seed = models.CharField(verbose_name=_("seed"), max_length=64)
    salt = models.CharField(verbose_name=_("salt"), max_length=64)
    commitment = models.CharField(verbose_name=_("commitment"),
        max_length=64, help_text=_("SHA-256 of seed:salt, shown before the deal."))
    match_before = models.JSONField(verbose_name=_("match before the deal"),
        help_text=_("The engine's match as it stood when this round was dealt."))
    state = models.JSONField(verbose_name=_("state"),
        help_text=_("The engine state now (replayable from seed and moves)."))
    over = models.BooleanField(verbose_name=_("over"), default=False)
    result = models.JSONField(verbose_name=_("result"), null=True, blank=True)
    deadline = models.DateTimeField(verbose_name=_("deadline"),
        null=True, blank=True, help_text=_("When the seat to act runs out of time."))
    moves_made = models.PositiveIntegerField(verbose_name=_("moves made"),
        default=0, help_text=_("Moves recorded so far (the last one's seq)."))
    moved_at = models.DateTimeField(verbose_name=_("last move at"), null=True, blank=True,
        help_text=_("When the last move was made (bots pace from it)."))
    log = models.JSONField(verbose_name=_("log"),
        default=list, blank=True,
        help_text=_("What happened, move by move, as each seat and a spectator may read it (tables.play.move_log)."))
    started_at = models.DateTimeField(verbose_name=_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)
    voided_at = models.DateTimeField(verbose_name=_("voided at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("voided by"),
        on_delete=models.PROTECT, related_name="rounds_voided", null=True, blank=True
    )
    void_reason = models.CharField(verbose_name=_("reason for voiding"), max_length=300, blank=True)
    house_seats = models.JSONField(verbose_name=_("house seats"),
        default=list, blank=True,
        help_text=_("The members' seats the house played in this round: their members were away (left, or offline) "
                    "when it was dealt, so its results for those seats are the house's, not the members'."))
    wait_until = models.DateTimeField(verbose_name=_("waiting until"),
        null=True, blank=True,
        help_text=_("After this round, the members chose to wait for one who is away: the next round is dealt when "
                    "they are back and ready, or at this time."))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True)
                | (Q(over=True) & Q(result__isnull=True) & ~Q(void_reason="")),
                name="voided_rounds_are_over_unpaid_and_explained",
            ),
        ]

    def __str__(self) -> str:
        return gettext("round %(number)s of %(match)s") % {"number": self.number, "match": self.match}

    @property
    def voided(self) -> bool:
        return self.voided_at is not None

    @property
    def revealed(self) -> bool:
        """The one rule for what staff may see of a round: its seed, hands, result, the match before the deal and
        its moves' texts (a bury or a discard names a hidden card) stay hidden from everyone, staff who also play
        included, until the round is over: played out, or voided by an admin. Every place that shows a round or a
        move (its fields, its name, the admin's titles and history, exports, replays) asks this, never `over`."""
        return self.over


class Move(models.Model):
    class Actor(models.TextChoices):
        MEMBER = "member", _("member")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("bot, after time ran out")
        ABSENT = "absent", _("bot, for a member who was offline")
        HOUSE = "house", _("the house's bot, in the seat of a member who was away at the deal")
        # The member's only legal card, played for them by their option (accounts.User.auto_play_forced): not a
        # move they made, so it does not count as one (tables.play.services.play.Live.members_moved).
        FORCED = "forced", _("their only card, played for the member")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(verbose_name=_("sequence number"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    text = models.CharField(verbose_name=_("text"), max_length=200)
    actor = models.CharField(verbose_name=_("played by"), max_length=10, choices=Actor.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.PROTECT, related_name="moves", null=True, blank=True
    )
    table_version = models.PositiveIntegerField(verbose_name=_("table version"),
        help_text=_("The table's version this move produced."))
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["round", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        """The admin's title, breadcrumb and history name a move by this: its text only once its round is revealed."""
        move = self.text if self.round.revealed else gettext(HIDDEN)
        return gettext("%(seq)s. seat %(seat)s: %(move)s") % {"seq": self.seq, "seat": self.seat, "move": move}
