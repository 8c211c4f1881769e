"""Running a tournament: entries, draws, results. Each function is one transaction.

Every write locks the tournament's row first and re-checks what it relies on, so two staff members drawing at once,
or a member entering while the organiser closes entries, are taken one at a time; on SQLite (which ignores row
locks but runs IMMEDIATE transactions, one writer at a time) the same holds, and the unique constraints on a
round's number and on a member's live entry back both up.

Starting a round seats its online tables at play tables (tables.tournaments.online). Results are recorded through
one check each (`set_winner`, `set_points`), whether they come from the online tables' end (tables.tournaments.results,
after play's commit) or from the treasurer's sheet (staff, `record_swiss_result` and `record_session_points`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from rules.engine.errors import ConfigError
from tables.models import Entry, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import NoSuchTable, NotAllowed, TableError
from tables.tournaments import online, record, sessions, swiss
from tables.tournaments.push import tournament_changed
from tables.tournaments.table_sizes import SESSION_TABLES, session_table_sizes

DEFAULT_HANDS_PER_SESSION = 12
NAME_LENGTH = 80  # Tournament.name's max_length
REASON_LENGTH = 300  # TournamentTable.void_reason's max_length

BEFORE_THE_START = (Tournament.Status.DRAFT, Tournament.Status.ENTRIES_OPEN, Tournament.Status.ENTRIES_CLOSED)


def _ensure_staff(user: User) -> None:
    if not (user.is_active and user.is_staff):
        raise NotAllowed(gettext("Only the club's staff can run tournaments."))


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NoSuchTable(gettext("There is no such tournament.")) from None


def _locked_table(table_id: int) -> tuple[Tournament, TournamentTable]:
    """The table's tournament locked, then the table read under that lock (not before, or it could be stale)."""
    tournament_id = (TournamentTable.objects.filter(pk=table_id)
                     .values_list("round__tournament_id", flat=True).first())
    if tournament_id is None:
        raise NoSuchTable(gettext("There is no such tournament table."))
    tournament = _locked(tournament_id)
    return tournament, TournamentTable.objects.select_related("round").get(pk=table_id)


def _ensure_not_paused(tournament: Tournament) -> None:
    """A paused tournament draws and starts no round (tables.tournaments.controls pauses and resumes it)."""
    if tournament.paused_at is not None:
        raise TableError(gettext("The tournament is paused: resume it first."))


REDRAWS = "_redraws"  # Tournament.options' private key: {round number (text): how often it was drawn again}


def draw_seed(tournament: Tournament, kind: str, number: int) -> str:
    """The seed a round is drawn from; a round drawn again (controls.redraw_round) gets a suffix per redraw, so
    the new draw differs from the last and can still be replayed from the tournament's seed and options."""
    seed = f"{tournament.seed}|{kind}|{number}"
    redraws = int((tournament.options or {}).get(REDRAWS, {}).get(str(number), 0))
    return f"{seed}|redraw|{redraws}" if redraws else seed


def _two_player(game: str) -> bool:
    return registry.spec(game).max_players == 2


ROUNDS_OPTION = online.ROUNDS_OPTION
TARGET_OPTION = "target"  # Puskiyon's: the game ends after the hand in which a total reaches it


def plays_to_target(game: str) -> bool:
    """Whether a session of `game` is one game to its target rather than a number of hands: a game whose match has
    no length in hands (Puskiyon: it ends after the hand in which somebody's total reaches the target, however many
    hands that takes), so `hands_per_session` means nothing for it."""
    names = {option.name for option in registry.spec(game).options}
    return TARGET_OPTION in names and ROUNDS_OPTION not in names


def session_target(tournament: Tournament) -> int | None:
    """The total a session of a target game is played to (the tournament's house rule, else the game's default);
    None for the games whose sessions are a number of hands, and for Swiss rounds and round robins."""
    if tournament.format != Tournament.Format.SESSIONS or not plays_to_target(tournament.game):
        return None
    spec = registry.spec(tournament.game)
    return int(spec.make_config(spec.default_players, tournament.house_rules).get(TARGET_OPTION))


def create_tournament(
    *,
    organiser: User,
    name: str,
    game: str,
    format: str,
    rounds: int | None = None,
    hands_per_session: int | None = None,
    options: Mapping[str, Any] | None = None,
    rated: bool = False,
) -> Tournament:
    """A tournament in preparation (entries not yet open). Sessions are for the games played at tables of three or
    more, Swiss rounds and round robins for the two-player game: a Swiss pairing is of two. A round robin's rounds
    follow from its field (every pairing once), so it takes none; `hands_per_session` None: the club's default
    for sessions (a Swiss or round-robin pairing plays one match, not a number of hands). A session of a game
    played to a target (Puskiyon, `plays_to_target`) is one game to the tournament's target: it takes no hands
    (stored as 0), and the target is its house rule `target`."""
    with transaction.atomic():
        _ensure_staff(organiser)
        title = " ".join(name.split())
        if not title or len(title) > NAME_LENGTH:
            raise TableError(gettext("A tournament needs a name of at most %(count)s characters.")
                             % {"count": NAME_LENGTH})
        if not registry.known(game):
            raise TableError(gettext("The club plays no game called %(game)s.") % {"game": repr(game)})
        spec = registry.spec(game)
        if format not in Tournament.Format.values:
            raise TableError(gettext("A tournament plays in sessions, Swiss rounds or a round robin."))
        if format == Tournament.Format.SESSIONS:
            if game not in SESSION_TABLES:
                raise TableError(gettext("%(game)s is a two-player game: play it in Swiss rounds or a round "
                                         "robin.") % {"game": spec.title})
            if plays_to_target(game):
                if hands_per_session is not None:
                    raise TableError(gettext("A %(game)s session is one game to its target, not a number of "
                                             "hands.") % {"game": spec.title})
                hands = 0
            else:
                hands = DEFAULT_HANDS_PER_SESSION if hands_per_session is None else hands_per_session
                if hands < 1:
                    raise TableError(gettext("A session plays at least one hand."))
            players = SESSION_TABLES[game].ideal
        else:
            if not _two_player(game):
                raise TableError(gettext("Swiss rounds and round robins are for two-player games; %(game)s is "
                                         "played in sessions at tables.") % {"game": spec.title})
            if hands_per_session is not None:
                raise TableError(gettext("Each pairing plays one match, not a number of hands."))
            hands, players = 0, 2
        if format == Tournament.Format.ROUND_ROBIN:
            if rounds is not None:
                raise TableError(gettext("A round robin plays every pairing once: its rounds follow from the "
                                         "entries."))
            rounds = 0
        elif rounds is None or rounds < 1:
            raise TableError(gettext("A tournament plays at least one round."))
        try:
            config = spec.make_config(players, options)
            if hands and not plays_to_target(game):
                spec.make_config(players, {**dict(config.options), "rounds": hands})  # a session: a match
        except ConfigError as error:
            raise TableError(str(error)) from None
        return Tournament.objects.create(
            name=title, game=game, format=format, rounds=rounds, hands_per_session=hands,
            options=dict(config.options), rated=rated, created_by=organiser,
        )


def open_entries(*, tournament_id: int, staff: User) -> Tournament:
    """Entries open from preparation, or again after closing while nothing is drawn."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.ENTRIES_CLOSED):
            raise TableError(gettext("Entries can only open before the tournament starts."))
        tournament.status = Tournament.Status.ENTRIES_OPEN
        tournament.save(update_fields=["status"])
        tournament_changed(tournament.pk)
        return tournament


def close_entries(*, tournament_id: int, staff: User) -> Tournament:
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.ENTRIES_OPEN:
            raise TableError(gettext("Entries are not open."))
        tournament.status = Tournament.Status.ENTRIES_CLOSED
        tournament.save(update_fields=["status"])
        tournament_changed(tournament.pk)
        return tournament


def _live_entry(tournament: Tournament, user: User) -> Entry | None:
    return Entry.objects.filter(tournament=tournament, user=user, status=Entry.Status.ENTERED).first()


def _new_entry(tournament: Tournament, user: User) -> Entry:
    if not user.is_active:
        raise NotAllowed(gettext("Only active members can enter a tournament."))
    if _live_entry(tournament, user) is not None:
        raise TableError(gettext("%(member)s is already entered.") % {"member": user.shown_name})
    try:
        with transaction.atomic():
            return Entry.objects.create(tournament=tournament, user=user)
    except IntegrityError:
        raise TableError(gettext("%(member)s is already entered.") % {"member": user.shown_name}) from None


def enter(*, tournament_id: int, user: User) -> Entry:
    """A member signs up (again, after withdrawing: a new entry)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.ENTRIES_OPEN:
            raise TableError(gettext("Entries to this tournament are not open."))
        entry = _new_entry(tournament, user)
        tournament_changed(tournament.pk)
        return entry


def withdraw(*, tournament_id: int, user: User) -> Entry:
    """A member withdraws while entries are open; after that only the organiser changes the field (a draw counts
    on it)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.ENTRIES_OPEN:
            raise TableError(gettext("Entries are closed: ask the organiser if you cannot play."))
        entry = _live_entry(tournament, user)
        if entry is None:
            raise TableError(gettext("You are not entered in this tournament."))
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        tournament_changed(tournament.pk)
        return entry


def add_entrant(*, tournament_id: int, staff: User, user: User) -> Entry:
    """Staff enter a member, also after entries closed (a late sign-up at the club), until the first draw."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status not in BEFORE_THE_START:
            raise TableError(gettext("The tournament has started: its field is fixed."))
        entry = _new_entry(tournament, user)
        tournament_changed(tournament.pk)
        return entry


def draw_next_round(*, tournament_id: int, staff: User) -> TournamentRound:
    """The next session's or round's tables, from the pairing core, the record so far and a seed derived from the
    tournament's: the same tournament draws the same tables. The first draw starts the tournament (its field is
    fixed from then on)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status not in (Tournament.Status.ENTRIES_CLOSED, Tournament.Status.RUNNING):
            raise TableError(gettext("Close the entries before drawing."))
        _ensure_not_paused(tournament)
        previous = tournament.round_set.filter(number=tournament.current_round).first()
        if previous is not None and previous.status != TournamentRound.Status.DONE:
            raise TableError(gettext("Round %(number)s is not done yet.") % {"number": previous.number})
        number = tournament.current_round + 1
        if tournament.rounds and number > tournament.rounds:  # a round robin's are 0 until its first draw
            raise TableError(gettext("Every round of this tournament has been drawn."))
        field = record.entrants(tournament)
        if tournament.format == Tournament.Format.SESSIONS:
            tables = _session_draw(tournament, field, number)
        elif tournament.format == Tournament.Format.SWISS:
            tables = _swiss_draw(tournament, field, number)
        else:
            tables = _round_robin_draw(tournament, field, number)
        if number > tournament.rounds:
            raise TableError(gettext("Every round of this tournament has been drawn."))
        try:
            with transaction.atomic():
                drawn = TournamentRound.objects.create(tournament=tournament, number=number)
        except IntegrityError:
            raise TableError(gettext("Round %(number)s has just been drawn.") % {"number": number}) from None
        for index, (seats, winner) in enumerate(tables, start=1):
            TournamentTable.objects.create(round=drawn, number=index, seats=seats, winner_id=winner)
        tournament.current_round = number
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["current_round", "status", "rounds"])
        tournament_changed(tournament.pk)
        return drawn


Drawn = list[tuple[list[int | None], int | None]]  # each table's seats and its winner known at the draw (a bye's)


def _session_draw(tournament: Tournament, field: list[str], number: int) -> Drawn:
    try:
        sizes = session_table_sizes(tournament.game, len(field))
    except ValueError:
        raise TableError(gettext("%(count)s entrants cannot be seated at this game's tournament tables.")
                         % {"count": len(field)}) from None
    met = sessions.pairs_met(record.session_tables(tournament, before=number))
    tables = sessions.draw_session(field, sizes=sizes, met=met, seed=draw_seed(tournament, "session", number))
    return [([int(player) for player in table], None) for table in tables]


def _with_bye(pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...], bye: str | None) -> Drawn:
    """The pairs, then the bye as a table of its own, won by its player at the draw (BYE_POINTS)."""
    drawn: Drawn = [([int(first), int(second)], None) for first, second in pairs]
    if bye is not None:
        drawn.append(([int(bye), None], int(bye)))
    return drawn


def _swiss_draw(tournament: Tournament, field: list[str], number: int) -> Drawn:
    if len(field) < 2:
        raise TableError(gettext("A Swiss round needs at least two entrants."))
    so_far = record.swiss_record(tournament, before=number)
    ranking = swiss.standings_after(field, games=so_far.games, byes=so_far.byes, seed=tournament.seed)
    counts = swiss.tallies(so_far.rounds)
    drawn = swiss.swiss_round(ranking, played=counts.played, byes=counts.byes, first_mover=counts.first_mover,
                              seed=draw_seed(tournament, "round", number))
    return _with_bye(drawn.pairs, drawn.bye)


def _round_robin_draw(tournament: Tournament, field: list[str], number: int) -> Drawn:
    """The round's pairs from the whole schedule, made again each time from the fixed field and the seed; the
    first draw sets the tournament's rounds to the schedule's length."""
    if len(field) < 2:
        raise TableError(gettext("A round robin needs at least two entrants."))
    schedule = swiss.round_robin(field, seed=tournament.seed)
    tournament.rounds = len(schedule)
    if number > len(schedule):
        return []
    pairs = schedule[number - 1]
    paired = {player for pair in pairs for player in pair}
    missing = [player for player in field if player not in paired]
    return _with_bye(pairs, missing[0] if missing else None)


def start_round(*, tournament_id: int, staff: User) -> TournamentRound:
    """The organiser starts the drawn round: its online tables are seated at play tables and begin at once
    (tables.tournaments.online); those at the club are played there and their sheets recorded."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            raise TableError(gettext("There is no drawn round to start."))
        _ensure_not_paused(tournament)
        current = tournament.round_set.filter(number=tournament.current_round).first()
        if current is None or current.status != TournamentRound.Status.DRAWN:
            raise TableError(gettext("There is no drawn round to start."))
        _ensure_online_players_can_come(current)
        current.status = TournamentRound.Status.PLAYING
        current.save(update_fields=["status"])
        online.seat_round(tournament, current)
        tournament_changed(tournament.pk)
        return current


def _ensure_online_players_can_come(round: TournamentRound) -> None:
    """A person who plays only at the club (tables.tournaments.club_players) has no login: at an online table the bot
    would play their whole session. The organiser moves that table to the club (the print page marks it) first."""
    tables = [table for table in round.tables.filter(where=TournamentTable.Where.ONLINE, voided_at__isnull=True)
              .order_by("number") if not table.is_bye]
    seated = [member for table in tables for member in table.players]
    club_only = {member.pk: member for member in User.objects.filter(pk__in=seated, plays_only_at_club=True)}
    for table in tables:
        for member in table.players:
            if member in club_only:
                raise TableError(gettext("Table %(number)s seats %(member)s, who plays only at the club: play that "
                                         "table at the club.") % {"number": table.number,
                                                                  "member": club_only[member].shown_name})


def _ensure_open(table: TournamentTable) -> None:
    if table.round.status == TournamentRound.Status.DONE:
        raise TableError(gettext("That round is over: its results are final."))
    if table.void:
        raise TableError(gettext("That table was voided."))


def record_swiss_result(*, table_id: int, winner: User) -> TournamentTable:
    """A Swiss or round-robin match's winner (called when the match ends). Once recorded, a result stands: the same
    winner again changes nothing; another one is refused (staff void the table instead)."""
    with transaction.atomic():
        tournament, table = _locked_table(table_id)
        return set_winner(tournament, table, winner_id=winner.pk)


def set_winner(tournament: Tournament, table: TournamentTable, *, winner_id: int) -> TournamentTable:
    """The one check and write of a winner, for every path that records one (staff, the online table's end), under
    the tournament's lock the caller holds."""
    if tournament.format == Tournament.Format.SESSIONS:
        raise TableError(gettext("A session's tables record points, not a winner."))
    _ensure_open(table)
    if table.is_bye:
        raise TableError(gettext("A bye has no match to record."))
    if winner_id not in table.seats:
        winner = User.objects.filter(pk=winner_id).first()
        raise TableError(gettext("%(member)s does not play at that table.")
                         % {"member": winner.shown_name if winner else winner_id})
    if table.winner_id is not None and table.winner_id != winner_id:
        raise TableError(gettext("That table's result is already recorded."))
    table.winner_id = winner_id
    table.save(update_fields=["winner"])
    tournament_changed(tournament.pk)
    return table


def record_session_points(*, table_id: int, points: Mapping[int, int], staff: User) -> TournamentTable:
    """A session table's points per member (member id: points), from the treasurer's sheet or the online table's
    end; staff may correct them until the round is done."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        return set_points(tournament, table, points=points)


def set_points(tournament: Tournament, table: TournamentTable, *, points: Mapping[int, int]) -> TournamentTable:
    """The one check and write of a session table's points, for every path that records them (staff, the online
    table's end), under the tournament's lock the caller holds."""
    if tournament.format != Tournament.Format.SESSIONS:
        raise TableError(gettext("A Swiss or round-robin table records its winner, not points."))
    _ensure_open(table)
    given = {int(member): value for member, value in points.items()}
    if sorted(given) != sorted(table.players):
        raise TableError(gettext("Give points for every member at the table and nobody else."))
    if any(not isinstance(value, int) or isinstance(value, bool) for value in given.values()):
        raise TableError(gettext("Points are whole numbers."))
    table.points = {str(member): value for member, value in given.items()}
    table.save(update_fields=["points"])
    tournament_changed(tournament.pk)
    return table


def void_table(*, table_id: int, staff: User, reason: str) -> TournamentTable:
    """The table's session or match counts for nobody (a misdeal, a dispute, a broken connection), with the reason
    kept for the record; what was recorded stays, unused."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament, table = _locked_table(table_id)
        if tournament.status == Tournament.Status.CANCELLED:
            raise TableError(gettext("The tournament was cancelled: none of its tables counts any more."))
        _ensure_open(table)
        why = " ".join(reason.split())
        if not why:
            raise TableError(gettext("Say why the table is voided."))
        if len(why) > REASON_LENGTH:
            raise TableError(gettext("A reason can be at most %(count)s characters.") % {"count": REASON_LENGTH})
        table.void_reason, table.voided_by, table.voided_at = why, staff, timezone.now()
        table.save(update_fields=["void_reason", "voided_by", "voided_at"])
        tournament_changed(table.round.tournament_id)
        return table


def finish_round(*, tournament_id: int, staff: User) -> TournamentRound:
    """The current round is done once every table has its result or is void; after the last one the tournament is
    finished (and its seed may be shown)."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        current = tournament.round_set.filter(number=tournament.current_round).first()
        if current is None or current.status == TournamentRound.Status.DONE:
            raise TableError(gettext("There is no round being played."))
        waiting = [table.number for table in current.tables.all()
                   if not table.void and table.winner_id is None and table.points is None]
        if waiting:
            raise TableError(gettext("Tables still without a result: %(tables)s.")
                             % {"tables": ", ".join(str(number) for number in waiting)})
        current.status = TournamentRound.Status.DONE
        current.save(update_fields=["status"])
        if current.number >= tournament.rounds:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
        tournament_changed(tournament.pk)
        return current
