"""The club's ledger: what every finished round (online or at the physical table) paid each seat.

Entries are append-only because they are the club's books: a balance is only ever the sum of
entries, so an edited or deleted entry would silently rewrite history. The model refuses updates
and deletes, its queryset refuses `update()`/`delete()`/`bulk_update()`, foreign keys into the
ledger PROTECT it from cascades, and the admin grants no change or delete permission. A mistake
is corrected by a pair of new entries (one reversing the old amount, one with the right amount)
that name the admin and the reason, so the original, the reversal and the correction all stay.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.i18n import Money, say_with_money, sentence_from_data
from tables.models.play import Round, game_choices
from tables.play.amounts import points_text
from tables.play.services.errors import NotAllowed

UNIT_CHOICES = [("cents", _("cents (money)")), ("points", _("points"))]


class EntryIsFinal(NotAllowed):
    """Raised by every path that would change or remove a ledger row."""


_FINAL = "Ledger records are final: correct them with a reversing entry and a new one, never by editing or deleting."


class AppendOnlyQuerySet(models.QuerySet):
    """A queryset that can add and read rows, and nothing else."""

    def update(self, **kwargs: Any) -> int:
        raise EntryIsFinal(_FINAL)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise EntryIsFinal(_FINAL)

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        raise EntryIsFinal(_FINAL)

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if kwargs.get("update_conflicts") or kwargs.get("update_fields"):
            raise EntryIsFinal(_FINAL)
        return super().bulk_create(objs, *args, **kwargs)


class AppendOnlyModel(models.Model):
    """Rows are inserted once and never saved again nor deleted."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, **kwargs: Any) -> None:
        if not self._state.adding or kwargs.get("force_update") or kwargs.get("update_fields"):
            raise EntryIsFinal(_FINAL)
        kwargs["force_insert"] = True
        super().save(**kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise EntryIsFinal(_FINAL)

    def _do_update(self, base_qs: Any, using: Any, pk_val: Any, *args: Any, **kwargs: Any) -> bool:
        """Paths that skip `save()` (e.g. `loaddata` calls `save_base` with a primary key) may insert a new
        row, never overwrite one that exists."""
        if base_qs.filter(pk=pk_val).exists():
            raise EntryIsFinal(_FINAL)
        return False


class ClubNight(AppendOnlyModel):
    """An evening at one of the club's physical tables, entered by the treasurer on one score sheet and saved whole.

    `seats` holds the players' member ids in seat order; each hand of the night is an InPersonRecord pointing here.
    `token` is the sheet's own key (made when the sheet was opened): a sheet saved twice (a double click, a retried
    POST) finds its night already there and records nothing more."""

    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    played_on = models.DateField(verbose_name=_("played on"))
    seats = models.JSONField(verbose_name=_("seats"), help_text=_("The players' member ids, in seat order."))
    options = models.JSONField(verbose_name=_("options"),
        default=dict, blank=True, help_text=_("The night's stake and house rules."))
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)
    tournament_table = models.OneToOneField("tables.TournamentTable", verbose_name=_("tournament table"),
        on_delete=models.PROTECT, null=True, blank=True, related_name="night",
        help_text=_("Set when the night is an in-person tournament table's session: its hands count in points "
                    "for the tournament, not in money."))
    token = models.CharField(verbose_name=_("sheet key"), max_length=64, unique=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("recorded by"),
        on_delete=models.PROTECT, related_name="club_nights")
    recorded_at = models.DateTimeField(verbose_name=_("recorded at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")
        ordering = ["-played_on", "-id"]
        base_manager_name = "objects"

    def __str__(self) -> str:
        return gettext("%(game)s night on %(day)s") % {"game": self.get_game_display(),
                                                       "day": date_format(self.played_on)}


class InPersonRecord(AppendOnlyModel):
    """A Sheepshead hand or a Hawk round played at the club's physical table, as an admin wrote it down.

    `facts` keeps what the admin entered (members by username, in seat order) and `score` what the
    engine's scoring helpers made of it, so the ledger entries can always be traced to their inputs.
    """

    class Kind(models.TextChoices):
        SHEEPSHEAD_HAND = "sheepshead_hand", _("Sheepshead hand")
        SHEEPSHEAD_LEASTER = "sheepshead_leaster", _("Sheepshead leaster")
        HAWK_ROUND = "hawk_round", _("Hawk round")

    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    kind = models.CharField(verbose_name=_("kind"), max_length=20, choices=Kind.choices)
    facts = models.JSONField(verbose_name=_("facts"), help_text=_("What the admin entered."))
    score = models.JSONField(verbose_name=_("score"),
        help_text=_("What the engine's scoring helpers computed from it."))
    summary = models.CharField(verbose_name=_("summary (English)"),
        max_length=300, help_text=_("The summary in English, as recorded."))
    summary_said = models.JSONField(verbose_name=_("summary as a sentence"),
        null=True, blank=True,
        help_text=_("The summary as a sentence to read in each reader's language (tables.ledger.summaries); empty for "
                    "a record whose English summary is all there is."))
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)
    played_on = models.DateField(verbose_name=_("played on"), default=timezone.localdate)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("recorded by"),
        on_delete=models.PROTECT, related_name="in_person_records"
    )
    recorded_at = models.DateTimeField(verbose_name=_("recorded at"), default=timezone.now, db_index=True)
    night = models.ForeignKey(
        ClubNight, verbose_name=_("club night"), on_delete=models.PROTECT, related_name="hands", null=True, blank=True,
        help_text=_("The club night whose score sheet held this hand, if it was entered on one."))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"), null=True, blank=True,
        help_text=_("The hand's row on its night's sheet."))
    replaces = models.OneToOneField(
        "self", verbose_name=_("replaces"), on_delete=models.PROTECT, related_name="replaced_by", null=True, blank=True,
        help_text=_("The record this one corrects: its entries were reversed in the same transaction."))
    reason = models.CharField(verbose_name=_("reason"),
        max_length=300, blank=True, help_text=_("Why the record it replaces was wrong."))

    class Meta:
        verbose_name = _("in-person result")
        verbose_name_plural = _("in-person results")
        ordering = ["-recorded_at", "-id"]
        base_manager_name = "objects"
        constraints = [
            models.CheckConstraint(condition=Q(replaces__isnull=True) | ~Q(reason=""),
                                   name="a_replacement_names_its_reason"),
            models.UniqueConstraint(fields=["night", "number"], condition=Q(night__isnull=False),
                                    name="one_hand_per_row_of_a_night"),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s at the club on %(day)s: %(summary)s") % {
            "kind": self.get_kind_display(), "day": date_format(self.played_on), "summary": self.summary_shown}

    @property
    def summary_sentence(self) -> Any:
        """The summary as its sentence (a Said, read in any language), or the English text a record from before the
        sentences were kept has only."""
        return sentence_from_data(self.summary_said) if self.summary_said else self.summary

    @property
    def summary_shown(self) -> str:
        """The summary in the reader's language, money in the reader's format (a record from before: its English)."""
        return say_with_money(self.summary_sentence)


CHAIN_FORM = 1  # the version of the canonical form below, itself part of what is hashed


def entry_digest(*, previous: str, position: int, game: str, unit: str, member_id: int | None, is_bot: bool,
                 seat: int, label: str, amount: int, round_id: int | None, in_person_id: int | None, kind: str,
                 reverses_id: int | None, corrects_id: int | None, reason: str, made_by_id: int | None,
                 created_at: datetime, tournament_id: int | None = None) -> str:
    """The SHA-256 (hex) of one ledger entry's canonical form (see LedgerEntry) chained to the entry before it.

    Plain values in, so the writing service, `check_books` and the migration that chained the existing rows all
    hash exactly the same thing. `tournament` joins the form only when it is set (a tournament's fees and prizes):
    every entry written before that source existed, and every entry of a round or an in-person result since, hashes
    exactly as it did."""
    content = {
        "v": CHAIN_FORM, "previous": previous, "position": position, "game": game, "unit": unit,
        "member": member_id, "is_bot": bool(is_bot), "seat": seat, "label": label, "amount": amount,
        "round": round_id, "in_person": in_person_id, "kind": kind, "reverses": reverses_id,
        "corrects": corrects_id, "reason": reason, "made_by": made_by_id,
        "created_at": created_at.astimezone(UTC).isoformat(timespec="microseconds"),
    }
    if tournament_id is not None:
        content["tournament"] = tournament_id
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def digest_of(entry: Any, *, previous: str) -> str:
    """`entry_digest` of a ledger entry, or of anything with its fields (the migration's historical model: 0030's
    has no `tournament`, which every entry it chained would have had unset anyway)."""
    return entry_digest(
        previous=previous, position=entry.position, game=entry.game, unit=entry.unit, member_id=entry.member_id,
        is_bot=entry.is_bot, seat=entry.seat, label=entry.label, amount=entry.amount, round_id=entry.round_id,
        in_person_id=entry.in_person_id, kind=entry.kind, reverses_id=entry.reverses_id,
        corrects_id=entry.corrects_id, reason=entry.reason, made_by_id=entry.made_by_id, created_at=entry.created_at,
        tournament_id=getattr(entry, "tournament_id", None))


class LedgerEntry(AppendOnlyModel):
    """One seat's result of one round, or one half of a correction.

    Member seats point to the member; bot seats point to no member (the house side), so a round played
    for money (its game's unit is cents) has entries that sum to exactly zero. Exactly one of `round`
    (played online), `in_person` (played at the club's table) and `tournament` (a tournament's entry fees and
    prizes, booked when its results are published: one entry per entrant, fee and prize netted, seat = place order,
    and the house's rest last; tables.tournaments.money) is set.

    The ledger is tamper-evident: each game's entries form one hash chain. `position` numbers a game's entries
    1, 2, 3, ... in the order they were written (the writer holds the game's ChainHead row while it appends, so two
    processes never take the same place), and `digest` is the SHA-256, in hex, of this canonical form: the JSON
    object (keys sorted, separators "," and ":", ASCII only) of
        v (1, the form's version), previous (the digest of the entry at position - 1 of the same game; "" at 1),
        position, game, unit, member (id or null), is_bot, seat, label, amount, round (id or null),
        in_person (id or null), kind, reverses (id or null), corrects (id or null), reason, made_by (id or null),
        created_at (in UTC, ISO 8601 with microseconds, e.g. "2026-12-04T19:00:00.000000+00:00"),
        and, only when the entry has one, tournament (its id; an entry without a tournament has no such key, so the
        entries written before that source existed keep their digests),
    encoded as ASCII (`entry_digest`). An entry changed, moved, deleted or inserted behind the services' back breaks
    the chain at that place; `check_books` recomputes every chain and names the first entry that breaks it. The
    chain proves the books were not edited by someone who could not also recompute the digests after their edit;
    against one who could, compare the head digest `check_books` prints with one noted down earlier.
    """

    class Kind(models.TextChoices):
        RESULT = "result", _("result")
        REVERSAL = "reversal", _("reversal of an entry")
        CORRECTION = "correction", _("corrected result")

    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    unit = models.CharField(verbose_name=_("unit"), max_length=10, choices=UNIT_CHOICES)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.PROTECT, related_name="ledger_entries", null=True, blank=True
    )
    is_bot = models.BooleanField(verbose_name=_("bot"),
        default=False, help_text=_("A bot's seat: the house side of the game."))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    label = models.CharField(verbose_name=_("shown as"),
        max_length=60, help_text=_("Who sat there, as shown at the time."))
    amount = models.IntegerField(verbose_name=_("amount"),
        help_text=_("In the entry's unit: cents for a game played for money, else points."))
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="ledger_entries", null=True, blank=True
    )
    in_person = models.ForeignKey(
        InPersonRecord, verbose_name=_("in-person result"),
        on_delete=models.PROTECT, related_name="ledger_entries", null=True, blank=True
    )
    tournament = models.ForeignKey(
        "tables.Tournament", verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="ledger_entries",
        null=True, blank=True, help_text=_("Set for a tournament's entry fees and prizes."))
    kind = models.CharField(verbose_name=_("kind"), max_length=12, choices=Kind.choices, default=Kind.RESULT)
    reverses = models.OneToOneField(
        "self", verbose_name=_("reverses"), on_delete=models.PROTECT, related_name="reversed_by", null=True, blank=True,
        help_text=_("The entry this one cancels (each entry can be reversed once)."),
    )
    corrects = models.ForeignKey(
        "self", verbose_name=_("corrects"),
        on_delete=models.PROTECT, related_name="corrected_by", null=True, blank=True,
        help_text=_("The entry this one replaces."),
    )
    reason = models.CharField(verbose_name=_("reason"), max_length=300, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("made by"),
        on_delete=models.PROTECT, related_name="ledger_corrections", null=True, blank=True
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now, db_index=True)
    # Both are written with every entry; NULL is allowed only so that SQLite could add the columns without rebuilding
    # the table (a rebuilt table's columns change order, and a restored backup's schema must be the migrations'
    # exactly: tables.treasury.services.backup_schema). `check_books` names an entry without them as the chain's break.
    position = models.PositiveIntegerField(
        _("place in the chain"), null=True, help_text=_("The entry's place in its game's hash chain, from 1."))
    digest = models.CharField(  # noqa: DJ001 (see above)
        _("digest"), max_length=64, null=True,
        help_text=_("SHA-256 of the entry's content and the digest of the entry before it."))

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["created_at", "id"]
        base_manager_name = "objects"
        indexes = [models.Index(fields=["member", "game", "created_at"], name="ledger_member_game_at")]
        constraints = [
            models.CheckConstraint(
                condition=(Q(round__isnull=False) & Q(in_person__isnull=True) & Q(tournament__isnull=True))
                | (Q(round__isnull=True) & Q(in_person__isnull=False) & Q(tournament__isnull=True))
                | (Q(round__isnull=True) & Q(in_person__isnull=True) & Q(tournament__isnull=False)),
                name="ledger_entry_has_one_source",
            ),
            models.CheckConstraint(
                condition=(Q(is_bot=True) & Q(member__isnull=True)) | (Q(is_bot=False) & Q(member__isnull=False)),
                name="ledger_entry_member_or_bot",
            ),
            models.CheckConstraint(condition=Q(unit__in=["cents", "points"]), name="ledger_entry_unit"),
            models.CheckConstraint(
                condition=(Q(kind="reversal") & Q(reverses__isnull=False) & Q(corrects__isnull=True))
                | (Q(kind="correction") & Q(corrects__isnull=False) & Q(reverses__isnull=True))
                | (Q(kind="result") & Q(reverses__isnull=True) & Q(corrects__isnull=True)),
                name="ledger_entry_kind_links",
            ),
            models.CheckConstraint(
                condition=Q(kind="result") | (Q(made_by__isnull=False) & ~Q(reason="")),
                name="ledger_correction_names_admin_and_reason",
            ),
            models.UniqueConstraint(
                fields=["round", "seat"], condition=Q(kind="result", round__isnull=False),
                name="one_result_per_seat_per_round",
            ),
            models.UniqueConstraint(
                fields=["in_person", "seat"], condition=Q(kind="result", in_person__isnull=False),
                name="one_result_per_seat_per_in_person_record",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seat"], condition=Q(kind="result", tournament__isnull=False),
                name="one_result_per_seat_per_tournament",
            ),
            models.UniqueConstraint(fields=["game", "position"], condition=Q(position__isnull=False),
                                    name="one_entry_per_place_in_a_chain"),
        ]

    def __str__(self) -> str:
        shown = (Money(self.amount, signed=bool(self.amount)).shown() if self.unit == "cents"
                 else points_text(self.amount, signed=True))
        return f"{self.label}: {shown} ({self.get_kind_display()})"

    def computed_digest(self, previous: str) -> str:
        """This entry's digest as its content says, after the entry whose digest is `previous`."""
        return digest_of(self, previous=previous)

    @property
    def source_label(self) -> str:
        if self.round_id is not None:
            return gettext("online round %(id)s") % {"id": self.round_id}
        if self.tournament_id is not None:
            return gettext("entry fees and prizes of tournament %(id)s") % {"id": self.tournament_id}
        return gettext("in-person result %(id)s") % {"id": self.in_person_id}


class ChainHead(models.Model):
    """The end of one game's hash chain: how many entries it holds and the last one's digest.

    The ledger's writer locks this row (`select_for_update`) before it appends, so appends to one game's chain are
    taken one after the other across processes (SQLite's IMMEDIATE transactions already do), and `check_books` can
    tell a chain whose last entries were deleted from a shorter one. It is the one ledger row that is updated."""

    game = models.CharField(_("game"), max_length=20, choices=game_choices, unique=True)
    length = models.PositiveIntegerField(_("entries"), default=0)
    digest = models.CharField(_("digest"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("ledger chain head")
        verbose_name_plural = _("ledger chain heads")

    def __str__(self) -> str:
        return f"{self.game}: {self.length}, {self.digest[:12]}"


class Settlement(AppendOnlyModel):
    """The treasurer squared the books of one game up to a moment: who owed what, and the payments that settle it.

    Balances after a settlement start again from zero by reading only entries after `through_entry` (the last ledger
    entry of the game it covered); no entry is edited. `balances` maps member ids (as strings) to cents or points,
    `payments` lists {"payer": id, "payee": id, "amount": cents}, the shortest list the treasurer was shown."""

    game = models.CharField(verbose_name=_("game"), max_length=20, choices=game_choices, db_index=True)
    unit = models.CharField(verbose_name=_("unit"), max_length=10, choices=UNIT_CHOICES)
    after_entry = models.ForeignKey(
        LedgerEntry, verbose_name=_("after entry"), on_delete=models.PROTECT, related_name="+", null=True, blank=True,
        help_text=_("The last entry of the settlement before this one (empty: from the start of the books)."))
    through_entry = models.ForeignKey(
        LedgerEntry, verbose_name=_("through entry"), on_delete=models.PROTECT, related_name="settled_by",
        help_text=_("The last ledger entry of the game this settlement covers."))
    balances = models.JSONField(verbose_name=_("balances"))
    payments = models.JSONField(verbose_name=_("payments"), default=list, blank=True)
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("settled by"),
        on_delete=models.PROTECT, related_name="settlements")
    settled_at = models.DateTimeField(verbose_name=_("settled at"), default=timezone.now, db_index=True)
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("settlement")
        verbose_name_plural = _("settlements")
        ordering = ["-settled_at", "-id"]
        base_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(fields=["game", "through_entry"], name="one_settlement_per_game_and_entry"),
        ]

    def __str__(self) -> str:
        return gettext("%(game)s settled on %(day)s") % {"game": self.get_game_display(),
                                                         "day": date_format(timezone.localdate(self.settled_at))}


class NightPayment(AppendOnlyModel):
    """Money that changed hands at the table for one club night: `payer` gave `payee` `amount` cents on `paid_on`.

    The ledger says what each player won or lost; these rows say what has been paid of it since. A night's
    balance still owed is its ledger total plus what the player paid minus what they received, so a partial payment
    leaves the rest owed (an IOU carried forward) without touching any ledger entry. `token` is the payment form's
    own key (made when the form was drawn): the same form sent twice finds its payment and records nothing more."""

    night = models.ForeignKey(ClubNight, verbose_name=_("night"), on_delete=models.PROTECT, related_name="payments")
    payer = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("payer"), on_delete=models.PROTECT,
                              related_name="night_payments_made")
    payee = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("payee"), on_delete=models.PROTECT,
                              related_name="night_payments_received")
    amount = models.PositiveIntegerField(verbose_name=_("amount"), help_text=_("In cents."))
    paid_on = models.DateField(verbose_name=_("paid on"), help_text=_("The day the money changed hands."))
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)
    token = models.CharField(verbose_name=_("token"), max_length=64, unique=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("recorded by"), on_delete=models.PROTECT,
                                    related_name="night_payments_recorded")
    recorded_at = models.DateTimeField(verbose_name=_("recorded at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("payment of a club night")
        verbose_name_plural = _("payments of club nights")
        ordering = ["paid_on", "id"]
        base_manager_name = "objects"
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="a_night_payment_pays_something"),
            models.CheckConstraint(condition=~Q(payer=models.F("payee")), name="a_night_payment_has_two_parties"),
        ]

    def __str__(self) -> str:
        return gettext("%(payer)s paid %(payee)s %(amount)s on %(day)s") % {
            "payer": self.payer.shown_name, "payee": self.payee.shown_name,
            "amount": Money(self.amount, signed=False).shown(), "day": date_format(self.paid_on)}
