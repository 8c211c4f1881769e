"""The organiser's controls over a whole tournament: plan it, pause and resume it, cancel it, publish its results,
and draw the drawn round again before it starts. Each is one transaction, staff only, the tournament's row locked
first (services._locked), and a refusal changes nothing.

Kept apart from services.py (entries, draws, results: the tournament's ordinary course) because these act on the
course itself; the draw they touch is still made by services, so one code path draws every round.

A re-draw must give a new draw that can still be replayed: the number of re-draws of each round is kept in
`Tournament.options` under a private key (services.REDRAWS) and goes into that round's draw seed
(services.draw_seed). Whoever builds a game configuration from `options` reads `game_options` instead, which
leaves the private keys out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Tournament, TournamentRound
from tables.play.services.errors import TableError
from tables.tournaments import money, services
from tables.tournaments.push import tournament_changed
from tables.tournaments.services import REASON_LENGTH, REDRAWS, _ensure_staff, _locked

MAX_NO_SHOW_MINUTES = 120
MAX_ENTRY_FEE_CENTS = 100_000


def game_options(tournament: Tournament) -> dict[str, Any]:
    """The game's house rules, without the tournament's private bookkeeping (keys starting with "_")."""
    return tournament.house_rules


def _reason(reason: str, *, missing: str) -> str:
    why = " ".join(reason.split())
    if not why:
        raise TableError(missing)
    if len(why) > REASON_LENGTH:
        raise TableError(gettext("A reason can be at most %(count)s characters.") % {"count": REASON_LENGTH})
    return why


def check_prize_shares(shares: Sequence[int]) -> list[int]:
    """Each place's share in whole percent, best place first: each above 0, together at most 100."""
    values = list(shares)
    if any(not isinstance(share, int) or isinstance(share, bool) or share < 1 for share in values):
        raise TableError(gettext("Prize shares are whole percentages above 0."))
    if sum(values) > 100:
        raise TableError(gettext("The prize shares add up to more than 100 percent."))
    return values


def organise(
    *,
    organiser: User,
    name: str,
    game: str,
    format: str,
    rounds: int | None = None,
    hands_per_session: int | None = None,
    options: Mapping[str, Any] | None = None,
    rated: bool = False,
    starts_at: datetime | None = None,
    no_show_minutes: int = 10,
    entry_fee_cents: int = 0,
    prize_shares: Sequence[int] = (),
) -> Tournament:
    """A tournament in preparation with its schedule, fee and prizes: services.create_tournament and the rest in
    one transaction, so a bad fee leaves no half-made tournament behind."""
    with transaction.atomic():
        if not 1 <= no_show_minutes <= MAX_NO_SHOW_MINUTES:
            raise TableError(gettext("A no-show counts after 1 to %(count)s minutes.") % {"count": MAX_NO_SHOW_MINUTES})
        if not 0 <= entry_fee_cents <= MAX_ENTRY_FEE_CENTS:
            raise TableError(gettext("That entry fee is out of range."))
        shares = check_prize_shares(prize_shares)
        if shares and not entry_fee_cents:
            raise TableError(gettext("Prizes are shares of the entry fees: set an entry fee, or no shares."))
        tournament = services.create_tournament(
            organiser=organiser, name=name, game=game, format=format, rounds=rounds,
            hands_per_session=hands_per_session, options=options, rated=rated,
        )
        tournament.starts_at = starts_at
        tournament.no_show_minutes = no_show_minutes
        tournament.entry_fee_cents = entry_fee_cents
        tournament.prize_shares = shares
        tournament.save(update_fields=["starts_at", "no_show_minutes", "entry_fee_cents", "prize_shares"])
        return tournament


def _ensure_live(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise TableError(gettext("The tournament is finished."))
    if tournament.status == Tournament.Status.CANCELLED:
        raise TableError(gettext("The tournament was cancelled."))


def pause(*, tournament_id: int, staff: User, reason: str) -> Tournament:
    """No round is drawn or started until it resumes; tables already playing play on (their results count)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        _ensure_live(tournament)
        if tournament.paused_at is not None:
            raise TableError(gettext("The tournament is paused already."))
        tournament.pause_reason = _reason(reason, missing=gettext("Say why the tournament is paused."))
        tournament.paused_at = timezone.now()
        tournament.save(update_fields=["paused_at", "pause_reason"])
        tournament_changed(tournament.pk)
        return tournament


def resume(*, tournament_id: int, staff: User) -> Tournament:
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        _ensure_live(tournament)
        if tournament.paused_at is None:
            raise TableError(gettext("The tournament is not paused."))
        tournament.paused_at, tournament.pause_reason = None, ""
        tournament.save(update_fields=["paused_at", "pause_reason"])
        tournament_changed(tournament.pk)
        return tournament


def cancel(*, tournament_id: int, staff: User, reason: str) -> Tournament:
    """Called off, for good, with the reason members read; what was played stays on record. Not once finished."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        _ensure_live(tournament)
        tournament.cancel_reason = _reason(reason, missing=gettext("Say why the tournament is cancelled."))
        tournament.status = Tournament.Status.CANCELLED
        tournament.paused_at, tournament.pause_reason = None, ""
        tournament.save(update_fields=["status", "cancel_reason", "paused_at", "pause_reason"])
        tournament_changed(tournament.pk)
        return tournament


def publish_results(*, tournament_id: int, staff: User) -> Tournament:
    """The final results are announced on the page (once, when the tournament is finished), and the entry fees and
    prizes they decide are booked in the ledger in the same transaction (tables.tournaments.money): a refusal there
    publishes nothing, and the row lock and `published_at` make a second click book nothing more."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.FINISHED:
            raise TableError(gettext("Results can be published once the tournament is finished."))
        if tournament.published_at is not None:
            raise TableError(gettext("The results are published already."))
        tournament.published_at = timezone.now()
        tournament.save(update_fields=["published_at"])
        money.book_fees_and_prizes(tournament)
        tournament_changed(tournament.pk)
        return tournament


def redraw_round(*, tournament_id: int, staff: User) -> TournamentRound:
    """The drawn round, not yet started, drawn again: its tables go and services.draw_next_round draws it from the
    seed with one more re-draw suffix, so the new draw differs from the last and is reproducible. A round robin's
    rounds are its fixed schedule, so it has nothing to draw again."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        _ensure_live(tournament)
        if tournament.paused_at is not None:
            raise TableError(gettext("The tournament is paused: resume it first."))
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            raise TableError(gettext("A round robin follows its schedule: there is nothing to draw again."))
        current = tournament.round_set.filter(number=tournament.current_round).first()
        if current is None or current.status != TournamentRound.Status.DRAWN:
            raise TableError(gettext("Only a drawn round that has not started can be drawn again."))
        tables = current.tables.all()
        if (tables.filter(table__isnull=False).exists() or tables.filter(started_at__isnull=False).exists()
                or tables.filter(night__isnull=False).exists() or tables.filter(drafts__isnull=False).exists()):
            # Seated online or written on a club night's sheet: members were told where to sit.
            raise TableError(gettext("Only a drawn round that has not started can be drawn again."))
        number = current.number
        current.delete()  # its tables go with it (CASCADE)
        redraws = dict((tournament.options or {}).get(REDRAWS, {}))
        redraws[str(number)] = int(redraws.get(str(number), 0)) + 1
        tournament.options = {**(tournament.options or {}), REDRAWS: redraws}
        tournament.current_round = number - 1
        tournament.save(update_fields=["options", "current_round"])
        return services.draw_next_round(tournament_id=tournament.pk, staff=staff)


# The organiser's panel: which of its controls can succeed now.
OPEN_ENTRIES = "open_entries"
CLOSE_ENTRIES = "close_entries"
ADD_ENTRANT = "add_entrant"
DRAW = "draw"
REDRAW = "redraw"
START = "start"
FINISH = "finish"
PAUSE = "pause"
RESUME = "resume"
CANCEL = "cancel"
PUBLISH = "publish"
TABLES = "tables"  # the current round's per-table controls: void a table, replace a player
CONTROLS = frozenset({OPEN_ENTRIES, CLOSE_ENTRIES, ADD_ENTRANT, DRAW, REDRAW, START, FINISH, PAUSE, RESUME, CANCEL,
                      PUBLISH, TABLES})


def controls_available(tournament: Tournament, current_round: TournamentRound | None, *,
                       waiting: Collection[int] = ()) -> set[str]:
    """The organiser's controls that can succeed now, from the tournament's state alone (no query): the panel shows
    these and no others, so an organiser is not offered a button whose only answer is a refusal. `current_round` is
    the round numbered `tournament.current_round` (None before the first draw); `waiting` the numbers of its tables
    still without a result (neither recorded nor void).

    The services keep their own refusals (a stale page, two organisers at once); these conditions restate them, and
    tests/tables/tournaments/test_panel_controls.py walks a tournament through its states trying every control
    against its service, so the two cannot drift apart. Not restated: what depends on the entrants (a field too
    small to seat, a player of the club's tables only at an online table: services.start_round) or on a username
    typed into a form; those the services answer with their reason."""
    status = tournament.status
    paused = tournament.paused_at is not None
    live = status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    drawn = current_round is not None and current_round.status == TournamentRound.Status.DRAWN
    playing = current_round is not None and current_round.status == TournamentRound.Status.PLAYING
    done = current_round is None or current_round.status == TournamentRound.Status.DONE
    rounds_left = tournament.rounds == 0 or tournament.current_round < tournament.rounds  # a round robin's: 0
    available: set[str] = set()
    if status in (Tournament.Status.DRAFT, Tournament.Status.ENTRIES_CLOSED):
        available.add(OPEN_ENTRIES)
    if status == Tournament.Status.ENTRIES_OPEN:
        available.add(CLOSE_ENTRIES)
    if status in services.BEFORE_THE_START:
        available.add(ADD_ENTRANT)
    if status in (Tournament.Status.ENTRIES_CLOSED, Tournament.Status.RUNNING) and not paused and done \
            and rounds_left:
        available.add(DRAW)
    if status == Tournament.Status.RUNNING and drawn and not paused:
        available.add(START)
        if tournament.format != Tournament.Format.ROUND_ROBIN:
            available.add(REDRAW)
    if status == Tournament.Status.RUNNING and playing and not waiting:
        available.add(FINISH)  # a pause stops draws and starts, not the tables already playing
    if live:
        available.update({RESUME} if paused else {PAUSE})
        available.add(CANCEL)
        if drawn or playing:
            available.add(TABLES)
    if status == Tournament.Status.FINISHED and tournament.published_at is None:
        available.add(PUBLISH)
    return available
