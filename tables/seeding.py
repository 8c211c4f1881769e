"""Demo data from `seeds/`: safe to load again and again (it only adds what is missing).

At the app's top level, beside `management/`, not in a feature: it is the whole club's demo (members, open
tables, finished matches whose ledger entries the ledger writes as for any round), made through play's services."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from tables.models import Round, Seat, Table
from tables.play.services.errors import TableError
from tables.play.services.play import play_move, ready_for_next_round
from tables.play.services.tables import add_bot, create_table, join_table
from tables.play.table_names import PRACTICE

SEEDS_DIR = Path(settings.BASE_DIR) / "seeds"


@dataclass(frozen=True)
class SeedReport:
    members_created: int
    members_existing: int


DEMO_TABLE_NAME = PRACTICE  # shown in the reader's language (tables.play.table_names)


def seed_members(*, seeds_dir: Path = SEEDS_DIR) -> SeedReport:
    data = tomllib.loads((seeds_dir / "members.toml").read_text())
    created = existing = 0
    with transaction.atomic():
        for entry in data["members"]:
            user, was_created = User.objects.get_or_create(
                username=entry["username"],
                defaults={"email": entry["email"], "display_name": entry.get("display_name", "")},
            )
            if was_created:
                staff = bool(entry.get("staff", False))
                user.is_staff = user.is_superuser = staff
                user.set_password(data["password"])
                user.save()
                EmailAddress.objects.get_or_create(
                    user=user, email=entry["email"], defaults={"verified": True, "primary": True}
                )
                created += 1
            else:
                existing += 1
    return SeedReport(members_created=created, members_existing=existing)


def seed_open_tables() -> list[Table]:
    """One open table per game, every seat a bot but the first: sit down and the match starts.

    They are the club's own (no creator): a member's open tables are limited (tables.play.services.table_limits),
    and the demo's four must not use up a staff member's share, as they did when the first staff member opened them
    (older demo databases are handed back to the club here)."""
    created = []
    with transaction.atomic():
        Table.objects.filter(name=DEMO_TABLE_NAME, status=Table.Status.OPEN, created_by__is_staff=True).update(
            created_by=None)
        for spec in registry.all_specs():
            if Table.objects.filter(game=spec.key, name=DEMO_TABLE_NAME, status=Table.Status.OPEN).exists():
                continue
            config = spec.make_config()
            table = Table.objects.create(
                game=spec.key, name=DEMO_TABLE_NAME, seat_count=config.players, options=dict(config.options),
            )
            now = timezone.now()
            Seat.objects.bulk_create(
                Seat(table=table, position=p, is_bot=p > 0, joined_at=now if p > 0 else None)
                for p in range(config.players)
            )
            created.append(table)
    return created


FINISHED_DEMO_PREFIX = "Demo match"

# (game, demo members in seat order, bots after them, the table's options): short matches, so that
# `manage.py seed` stays quick, played to the end through the same services as any table.
FINISHED_DEMO_MATCHES: tuple[tuple[str, tuple[str, ...], int, dict[str, object]], ...] = (
    ("sheepshead", ("alice", "bob"), 3, {"rounds": 2}),
    ("sheepshead", ("carol",), 4, {"rounds": 1, "stake_cents": 50}),
    ("hawk", ("alice",), 3, {"rounds": 1}),
    ("hawk", ("bob", "frank"), 2, {"rounds": 1}),
    ("hawsker", ("dave",), 1, {"short": True}),
    ("hawsker", ("erin",), 1, {"short": True}),
    ("puskiyon", ("alice", "erin"), 2, {"target": 20}),
    ("puskiyon", ("frank",), 2, {"target": 20}),
    # A second evening, so standings and ratings have more than one match a member to tell apart.
    ("sheepshead", ("dave", "erin", "frank"), 2, {"rounds": 2}),
    ("sheepshead", ("alice", "carol"), 1, {"rounds": 3}),
    ("hawk", ("carol", "dave"), 2, {"rounds": 1}),
    ("hawk", ("erin", "alice", "bob", "frank"), 0, {"rounds": 1}),
    ("hawsker", ("alice",), 1, {"short": True}),
    ("hawsker", ("bob", "carol"), 0, {"short": True}),
    ("puskiyon", ("bob", "carol", "dave"), 1, {"target": 20}),
    ("puskiyon", ("dave", "erin"), 2, {"target": 20}),
)
SEED_MOVES_LIMIT = 3000


@dataclass(frozen=True)
class FinishedReport:
    created: int
    existing: int
    skipped: list[str]


def seed_finished_matches() -> FinishedReport:
    """A few finished matches of each game, played by demo members and bots through the real services.

    The members' moves are chosen by the game's bot from the member's own view and sent with
    `play_move` like any click, so every round is dealt, recorded move by move, settled into the
    ledger and replayable exactly as a real one. Tables are found again by name, so running the
    seed again adds nothing (and finishes a match an interrupted run left unfinished).
    """
    created = existing = 0
    skipped: list[str] = []
    for number, (game, usernames, bots, options) in enumerate(FINISHED_DEMO_MATCHES, start=1):
        name = f"{FINISHED_DEMO_PREFIX} {number}: {registry.spec(game).title}"
        table = Table.objects.filter(name=name, game=game).exclude(status=Table.Status.ABANDONED).first()
        if table is not None and table.status == Table.Status.FINISHED:
            existing += 1
            continue
        members = list(User.objects.filter(username__in=usernames))
        members.sort(key=lambda user: usernames.index(user.username))
        if len(members) != len(usernames):
            skipped.append(f"{name}: the demo members are missing")
            continue
        try:
            if table is None:
                table = _start_demo_table(name=name, game=game, members=members, bots=bots, options=options)
            _play_to_the_end(table, members)
        except TableError as error:
            skipped.append(f"{name}: {error}")
            continue
        created += 1
    return FinishedReport(created=created, existing=existing, skipped=skipped)


def _start_demo_table(*, name: str, game: str, members: list[User], bots: int, options: dict[str, object]) -> Table:
    # Played to the end while `seed` runs: bots answer at once (a paced table would wait for the table clock).
    table = create_table(creator=members[0], game=game, players=len(members) + bots, options=options,
                         bot_speed=Table.BotSpeed.INSTANT)
    Table.objects.filter(pk=table.pk).update(name=name)  # the name finds the table again on the next run
    for member in members[1:]:
        join_table(table_id=table.pk, user=member)
    for _ in range(bots):
        add_bot(table_id=table.pk, user=members[0])
    table.refresh_from_db()
    return table


def _play_to_the_end(table: Table, members: list[User]) -> None:
    """The members play every round themselves (each move a `play_move`, chosen by the game's bot from the
    member's own view), so each demo match is theirs in results, history and ratings. (Leaving it to the house
    after the first round saved a second of `seed`, but a member away most of a match gets no place in it, and the
    demo members' histories then held only the matches that happened to end in one round.)"""
    game = registry.game(table.game)
    choose = registry.bot(table.game).choose
    by_id = {member.pk: member for member in members}
    members_seats = Seat.objects.filter(table=table, user__isnull=False)
    for _ in range(SEED_MOVES_LIMIT):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            members_seats.update(away=False)
            return
        current = Round.objects.filter(match__table=table).order_by("-number").first()
        if current is None:
            raise RuntimeError(f"{table} is running without a round")
        if current.over:
            for seat in list(members_seats.filter(ready=False)):
                version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
                ready_for_next_round(table_id=table.pk, user=by_id[seat.user_id], expected_version=version)
                if Round.objects.filter(match__table=table).order_by("-number").first().pk != current.pk:
                    break
            continue
        state = game.from_json(current.state)
        seat_number = game.to_act(state)
        seat = Seat.objects.get(table=table, position=seat_number)
        move = choose(game.view(state, seat_number), game.legal_moves(state, seat_number))
        play_move(table_id=table.pk, user=by_id[seat.user_id], move_text=str(move), expected_version=table.version)
    raise RuntimeError(f"the demo match at {table} did not finish")
