"""Table life, measured: how evenly bots move at each speed, and how soon a member who closes the table's page
shows offline and has their turn played by the bot.

    .venv/bin/python -m bench.table_pace [--moves 60] [--repeats 5] [--speeds brisk,normal,slow] [--graces 15,0]

How, and why that way (bench/README.md has the figures):
- One Daphne on a fresh SQLite file (migrated first), the table clock at the club's setting (TABLE_CLOCK_SECONDS).
  Members, sessions and tables are made from this process in the same database through the site's own services
  (create_table, join_table, add_bot), as bench.setup_tables does; from then on everything goes through the
  server as a browser would: each member's socket to /ws/table/<code>/ and htmx's POSTs (move, ready, leave)
  carrying the version of the board the socket last showed.
- Members move by POST rather than by calling the service here: the POST commits in the server's process, which
  wakes that process's clock at once, so the bot move after a member's is paced like any other (a service call
  made here would reach the clock only at its next poll, up to TABLE_CLOCK_SECONDS later).
- Spacing: every board a member's socket receives is time-stamped on arrival. Afterwards the table's moves are read
  from the database (each Move holds the version it produced) and each round replayed by the engine to tell which
  move closed a trick, so each gap between two consecutive versions that ends in a bot's move is filed by what
  came before it: a bot's move, a bot's move that closed a trick (the longer pause), a member's move, a deal. Gaps
  across a version the socket did not receive are left out (and counted). The server's own spacing
  (Move.created_at) stands beside the socket's, so the clock's accuracy and the push's delay can be told apart.
  The three games of a speed run at the same time, at one table each, with one member and bots.
- Offline and takeover: a two-member Hawsker table, both members' sockets open; when it is member X's turn, X's
  socket is closed, and the other member's socket is watched for (a) a board marking X's seat
  `data-presence="offline"` (where the board has no such mark yet, the database's Seat.offline_since is polled
  instead, every POLL_SECONDS; the output says which), (b) the first new version at all, and (c) a board where X
  is no longer to act (and the database's actor of that move: "absent" is the bot standing in). X's socket then
  opens again, the table plays on (by POST) to X's next turn, and again, for each grace period asked for.
- Numbers are written, never asserted: a move or mark that never comes within its timeout is printed as such.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import shutil
import string
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.board_on_page import BoardOnPage
from bench.httpc import Pool
from bench.loadgen import cpu_and_rss, percentile
from tests.servers import Daphne, free_port, manage

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdefghijkl",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "INFO",
    "PYTHONUNBUFFERED": "1",
}
PACE_GAMES: tuple[tuple[str, int], ...] = (("hawk", 4), ("puskiyon", 4), ("sheepshead", 5))
TAKEOVER_GAME = "hawsker"
# Matches that cannot end during the run (a finished match would stop the table).
LONG_MATCH: dict[str, dict[str, Any]] = {"hawk": {"rounds": 50}, "puskiyon": {"target": 1000},
                                         "sheepshead": {"rounds": 50}, "hawsker": {}}
TURN_SECONDS = 600  # the bench's members never run out of time: every bot move here is paced, not a timeout
POLL_SECONDS = 0.025
CSRF_ALPHABET = string.ascii_letters + string.digits

BOARD = re.compile(r'<section id="board"[^>]*?\bdata-version="(\d+)"')
SEAT_TAG = re.compile(r'<[a-z]+\b[^>]*?\bdata-seat="(\d+)"[^>]*>')
CLASSES = re.compile(r'\bclass="([^"]*)"')
PRESENCE = re.compile(r'\bdata-presence="([^"]*)"')
MOVE = re.compile(r'\bdata-move="([^"]+)"')
ROUND = re.compile(r"round (\d+)</span>")

# What came before a bot's move, in the order the table prints them; the pace that applies after it.
KINDS: tuple[tuple[str, str, str], ...] = (
    ("bot", "a bot's move", "move"),
    ("bot_trick", "a bot's move closing a trick", "trick"),
    ("member", "the member's move (POST)", "move"),
    ("member_trick", "the member's move closing a trick", "trick"),
    ("deal", "a deal (after the member's ready)", "move"),
)


def now() -> float:
    return time.perf_counter()


def loadavg() -> list[float]:
    with open("/proc/loadavg") as handle:
        return [float(x) for x in handle.read().split()[:3]]


# -- boards ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatMark:
    to_act: bool
    presence: str | None  # None: the board has no data-presence on this seat (yet)


@dataclass(frozen=True)
class Board:
    """One board as a socket received it, with what the bench reads from it."""

    version: int
    t: float
    seats: dict[int, SeatMark]
    moves: tuple[str, ...]
    ready_offered: bool
    round_key: str

    @classmethod
    def parse(cls, html: str, t: float) -> Board | None:
        found = BOARD.search(html, 0, 2000)
        if found is None:
            return None
        seats: dict[int, SeatMark] = {}
        for tag in SEAT_TAG.finditer(html):
            position = int(tag.group(1))
            if position in seats:  # the seats list comes first; a later data-seat is a card on the felt
                continue
            classes = CLASSES.search(tag.group(0))
            presence = PRESENCE.search(tag.group(0))
            seats[position] = SeatMark("to-act" in (classes.group(1).split() if classes else []),
                                       presence.group(1) if presence else None)
        round_found = ROUND.search(html)
        return cls(int(found.group(1)), t, seats, tuple(MOVE.findall(html)),
                   "/ready/" in html and "The match is over" not in html,
                   round_found.group(1) if round_found else "?")

    def to_act(self) -> int | None:
        return next((p for p, s in self.seats.items() if s.to_act), None)


class Socket:
    """One member's table socket: every board it receives, time-stamped, and a way to wait for one."""

    def __init__(self, port: int, code: str, session: str) -> None:
        self.port, self.code, self.session = port, code, session
        self.boards: list[Board] = []
        self.latest: Board | None = None
        self.changed = asyncio.Condition()
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.errors: list[str] = []

    async def open(self, timeout: float = 30.0) -> Board:
        self.ws = await connect(f"ws://127.0.0.1:{self.port}/ws/table/{self.code}/",
                                origin=f"http://127.0.0.1:{self.port}",
                                additional_headers={"Cookie": f"sessionid={self.session}"}, compression=None,
                                max_size=1 << 22, ping_interval=None, proxy=None, open_timeout=timeout)
        self.reader = asyncio.create_task(self._read(self.ws))
        first = await self.wait_for(lambda board: True, timeout)
        if first is None:
            raise RuntimeError(f"table {self.code}: the socket opened but sent no board in {timeout} s")
        return first

    async def _read(self, ws: ClientConnection) -> None:
        page = BoardOnPage()  # the socket sends the parts each version changed: rebuilt as the page does
        try:
            async for message in ws:
                arrived = now()
                text = message if isinstance(message, str) else message.decode()
                board = Board.parse(page.take(text) if 'id="board"' in text[:600] else text, arrived)
                if board is None:
                    continue
                self.boards.append(board)
                if self.latest is None or board.version > self.latest.version:
                    self.latest = board
                async with self.changed:
                    self.changed.notify_all()
        except ConnectionClosed as error:
            self.errors.append(f"closed: {error}")

    async def wait_for(self, predicate: Callable[[Board], bool], timeout: float) -> Board | None:
        """The newest board once it satisfies `predicate`, or None after `timeout` seconds."""
        deadline = now() + timeout
        async with self.changed:
            while True:
                if self.latest is not None and predicate(self.latest):
                    return self.latest
                left = deadline - now()
                if left <= 0:
                    return None
                try:
                    await asyncio.wait_for(self.changed.wait(), left)
                except TimeoutError:
                    return None

    async def close(self) -> float:
        """Close as a browser tab does; returns the moment just before the close was sent."""
        started = now()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        return started


@dataclass
class Member:
    user_id: int
    username: str
    session: str


@dataclass
class Site:
    """The server, as htmx talks to it: POSTs with the session, a CSRF token and the board's version."""

    port: int
    pool: Pool
    csrf: str = field(default_factory=lambda: "".join(secrets.choice(CSRF_ALPHABET) for _ in range(32)))
    errors: list[str] = field(default_factory=list)

    async def post(self, member: Member, code: str, kind: str, fields: dict[str, str]) -> Board | None:
        headers = {
            "Cookie": f"sessionid={member.session}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf,
            "Origin": f"http://127.0.0.1:{self.port}", "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        response = await self.pool.request("POST", f"/t/{code}/{kind}/", headers=headers,
                                           body=urlencode(fields).encode())
        if response.status != 200:
            snippet = re.sub(r"<[^>]+>|\s+", " ", response.text)[:160].strip()
            self.errors.append(f"{member.username} {kind} at {code}: HTTP {response.status}: {snippet}")
            return None
        return Board.parse(response.text, now())


# -- the database, from this process (always off the event loop's thread) ---------------------------------------


def make_members(prefix: str, count: int) -> list[Member]:
    """Members with a logged-in session each (the rows a login writes; no password hashing to wait for)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from bench.history import bulk_members

    members = []
    for user in bulk_members(prefix, count):
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        members.append(Member(user.pk, user.username, store.session_key or ""))
    return members


def make_table(*, game: str, players: int, members: list[Member], speed: str, grace: int = 15) -> tuple[int, str]:
    """A running table through the club's services: the members in the first seats, bots in the rest."""
    from accounts.models import User
    from tables.play.services.tables import add_bot, create_table, join_table

    users = [User.objects.get(pk=m.user_id) for m in members]
    table = create_table(creator=users[0], game=game, players=players, options=LONG_MATCH[game],
                         turn_seconds=TURN_SECONDS, bot_speed=speed, grace_seconds=grace)
    for user in users[1:]:
        join_table(table_id=table.pk, user=user)
    for _ in range(players - len(users)):
        add_bot(table_id=table.pk, user=users[0])
    return table.pk, table.code


def bot_moves_since(table_id: int, version: int) -> int:
    from tables.models import Move

    return Move.objects.filter(round__match__table_id=table_id, actor=Move.Actor.BOT,
                               table_version__gt=version).count()


@dataclass(frozen=True)
class Fact:
    actor: str
    seat: int
    closed_trick: bool
    created_at: datetime


def move_facts(table_id: int) -> tuple[dict[int, Fact], int]:
    """Every move of the table by the version it produced, and whether it closed a trick (each round replayed by
    the engine from its seed); and how many rounds did not replay to their stored state (0, or the facts are off)."""
    from rules.engine import registry
    from rules.engine.api import Config
    from rules.engine.api import Match as EngineMatch
    from rules.engine.moves import Move as EngineMove
    from tables.models import Match

    match = Match.objects.select_related("table").get(table_id=table_id)
    key = match.table.game
    game = registry.game(key)
    config = Config.from_json(match.config)
    facts: dict[int, Fact] = {}
    mismatched = 0
    for rnd in match.rounds.order_by("number"):
        state = game.new_round(config, rnd.seed, EngineMatch.from_json(rnd.match_before))
        first = rnd.moves.order_by("seq").values_list("table_version", flat=True).first()
        # The deal's version is the one before the round's first move; Round.started_at is its time.
        if first is not None and first - 1 not in facts:
            facts[first - 1] = Fact("deal", -1, False, rnd.started_at)
        for move in rnd.moves.order_by("seq"):
            before = registry.tricks_done(key, state)
            state = game.apply(state, move.seat, EngineMove.parse(move.text))
            facts[move.table_version] = Fact(move.actor, move.seat, registry.tricks_done(key, state) > before,
                                             move.created_at)
        mismatched += game.to_json(state) != rnd.state
    return facts, mismatched


def offline_since(seat_id: int) -> datetime | None:
    from tables.models import Seat

    return Seat.objects.filter(pk=seat_id).values_list("offline_since", flat=True).first()


def seat_ids(table_id: int) -> dict[int, int]:
    from tables.models import Seat

    return dict(Seat.objects.filter(table_id=table_id).values_list("position", "pk"))


def takeover_moves(table_id: int, seat: int, after: int, upto: int) -> list[tuple[int, str]]:
    """`seat`'s moves between two versions: (version, actor); the bot standing in for an offline member is
    "absent"."""
    from tables.models import Move

    return list(Move.objects.filter(round__match__table_id=table_id, seat=seat, table_version__gt=after,
                                    table_version__lte=upto).order_by("table_version")
                .values_list("table_version", "actor"))


def close_connections() -> None:
    from django.db import connections

    connections.close_all()


async def db(func: Callable[..., Any], /, **kwargs: Any) -> Any:
    """The ORM on a thread of its own (never on the event loop), its connection closed after."""
    def call() -> Any:
        try:
            return func(**kwargs)
        finally:
            close_connections()

    return await asyncio.to_thread(call)


# -- 1. bot move spacing -----------------------------------------------------------------------------------------


@dataclass
class Gap:
    kind: str
    seconds: float
    server_seconds: float | None


async def pace_table(site: Site, *, game: str, players: int, speed: str, member: Member, target: int,
                     timeout: float, rng: random.Random) -> dict[str, Any]:
    """One table at `speed`: the member plays every turn the moment its board offers it, until the bots have made
    `target` moves; then the member leaves (the bots finish the round and the table closes)."""
    table_id, code = await db(make_table, game=game, players=players, members=[member], speed=speed)
    sock = Socket(site.port, code, member.session)
    first = await sock.open()
    start_version = first.version
    acted: set[int] = set()
    readied: set[str] = set()
    member_posts = 0
    deadline = now() + timeout
    checked = 0.0
    made = 0
    while now() < deadline:
        board = await sock.wait_for(lambda b: b.version not in acted, 0.5)
        if board is not None:
            acted.add(board.version)
            if board.moves:
                await site.post(member, code, "move", {"move": rng.choice(board.moves), "version": str(board.version)})
                member_posts += 1
            elif board.ready_offered and board.round_key not in readied:
                readied.add(board.round_key)
                await site.post(member, code, "ready", {"version": str(board.version)})
        if now() - checked > 1.0:
            checked = now()
            made = await db(bot_moves_since, table_id=table_id, version=start_version)
            if made >= target:
                break
    left_at = now()
    await site.post(member, code, "leave", {})
    await sock.close()
    facts, mismatched = await db(move_facts, table_id=table_id)
    arrivals: dict[int, float] = {}
    for board in sock.boards:
        if board.t < left_at and board.version not in arrivals:
            arrivals[board.version] = board.t
    gaps: list[Gap] = []
    skipped = 0
    last_seen = max(arrivals)
    for version in sorted(arrivals):
        fact = facts.get(version)
        # The board before must be one pushed as it was made: the socket's first board arrived when it opened, and
        # the first round was dealt by this process (the server's clock saw it only at its next poll).
        if fact is None or fact.actor != "bot" or version - 1 <= start_version:
            continue
        if version - 1 not in arrivals:
            skipped += 1
            continue
        before = facts.get(version - 1)
        if before is None:  # a version no move or deal made (presence): not a bot's pace
            continue
        kind = before.actor if before.actor in ("bot", "deal") else "member"
        kind += "_trick" if before.closed_trick else ""
        server = (fact.created_at - before.created_at).total_seconds()
        gaps.append(Gap(kind, arrivals[version] - arrivals[version - 1], server))
    never = sorted(v for v, f in facts.items() if start_version < v <= last_seen and v not in arrivals
                   and f.actor != "deal")
    return {
        "game": game, "players": players, "code": code, "speed": speed, "bot_moves": made,
        "member_moves": member_posts, "versions_received": len(arrivals), "gaps": [g.__dict__ for g in gaps],
        "gaps_across_a_missed_version": skipped, "versions_never_received": never,
        "rounds_not_replayed": mismatched, "timed_out": made < target,
    }


def summarize_gaps(gaps: list[dict[str, Any]], speed: str) -> list[dict[str, Any]]:
    from tables.play import pace

    chosen = pace.pace(speed)
    rows = []
    for kind, label, which in KINDS:
        client = [g["seconds"] for g in gaps if g["kind"] == kind]
        server = [g["server_seconds"] for g in gaps if g["kind"] == kind and g["server_seconds"] is not None]
        rows.append({
            "speed": speed, "kind": kind, "after": label, "pace_s": getattr(chosen, which), "n": len(client),
            "median_s": _r(median(client)) if client else None, "p10_s": _r(percentile(client, 10)),
            "p90_s": _r(percentile(client, 90)), "max_s": _r(max(client)) if client else None,
            "server_median_s": _r(median(server)) if server else None,
        })
    return rows


async def measure_pace(site: Site, server_pid: int, speeds: list[str], moves: int,
                       members: dict[tuple[str, str], Member], seed: int) -> list[dict[str, Any]]:
    from tables.play import pace

    out = []
    for speed in speeds:
        per_table = -(-moves // len(PACE_GAMES))
        chosen = pace.pace(speed)
        timeout = 30 + per_table * (chosen.trick + 0.5) * 2
        load_start, cpu_start, started = loadavg(), cpu_and_rss(server_pid)[0], now()
        tables = await asyncio.gather(*(
            pace_table(site, game=game, players=players, speed=speed, member=members[(speed, game)],
                       target=per_table, timeout=timeout, rng=random.Random(f"{seed}-{speed}-{game}"))
            for game, players in PACE_GAMES))
        seconds = now() - started
        gaps = [g for table in tables for g in table["gaps"]]
        out.append({
            "speed": speed, "pace": chosen._asdict(), "seconds": _r(seconds),
            "server_cpu_s": _r(cpu_and_rss(server_pid)[0] - cpu_start), "loadavg_start": load_start,
            "loadavg_end": loadavg(), "rows": summarize_gaps(gaps, speed), "tables": tables,
        })
        print(f"  {speed}: {sum(t['bot_moves'] for t in tables)} bot moves at {len(tables)} tables in {seconds:.0f} s",
              file=sys.stderr, flush=True)
    return out


# -- 2. offline mark and takeover --------------------------------------------------------------------------------


async def first_offline_in_db(seat_id: int, timeout: float) -> float | None:
    """When this process first saw the seat's offline_since set (polled every POLL_SECONDS)."""
    deadline = now() + timeout
    while now() < deadline:
        if await db(offline_since, seat_id=seat_id) is not None:
            return now()
        await asyncio.sleep(POLL_SECONDS)
    return None


async def takeover(site: Site, *, grace: int, repeats: int, x: Member, y: Member,
                   rng: random.Random) -> dict[str, Any]:
    """Member X (seat 0) closes their page on their turn, `repeats` times; member Y (seat 1) watches."""
    table_id, code = await db(make_table, game=TAKEOVER_GAME, players=2, members=[x, y], speed="normal", grace=grace)
    seats = await db(seat_ids, table_id=table_id)
    sx, sy = Socket(site.port, code, x.session), Socket(site.port, code, y.session)
    await sx.open()
    await sy.open()
    by_seat = {0: (x, sx), 1: (y, sy)}
    rows: list[dict[str, Any]] = []
    acted: set[tuple[int, int]] = set()
    readied: set[tuple[int, str]] = set()
    limit = grace + 30.0
    deadline = now() + repeats * (limit + 30)
    load_start = loadavg()
    while len(rows) < repeats and now() < deadline:
        # Both pages show the same, newest version before anyone acts on it.
        top = max(sx.latest.version, sy.latest.version)  # type: ignore[union-attr]
        await sx.wait_for(lambda b, top=top: b.version >= top, 2.0)
        await sy.wait_for(lambda b, top=top: b.version >= top, 2.0)
        bx, by = sx.latest, sy.latest
        assert bx is not None and by is not None
        if bx.version != by.version:
            continue
        if by.to_act() == 0:
            rows.append(await _close_and_watch(site, table_id, seats[0], sx, sy, by, limit))
            sx = Socket(site.port, code, x.session)
            back = await sx.open()
            by_seat[0] = (x, sx)
            await sy.wait_for(lambda b, v=back.version: b.version >= v, 5.0)
            await asyncio.sleep(0.5)
            continue
        progressed = False
        for position, (member, sock) in by_seat.items():
            board = sock.latest
            assert board is not None
            if board.moves and (position, board.version) not in acted:
                acted.add((position, board.version))
                await site.post(member, code, "move", {"move": rng.choice(board.moves), "version": str(board.version)})
                progressed = True
                break
            if board.ready_offered and (position, board.round_key) not in readied:
                readied.add((position, board.round_key))
                await site.post(member, code, "ready", {"version": str(board.version)})
                progressed = True
                break
        if not progressed:
            await sy.wait_for(lambda b, v=by.version: b.version > v, 1.0)
    for member, sock in by_seat.values():
        await site.post(member, code, "leave", {})
        await sock.close()
    marks = {r["mark_via"] for r in rows}
    return {
        "grace_s": grace, "code": code, "rows": rows, "loadavg_start": load_start, "loadavg_end": loadavg(),
        "mark_via": "/".join(sorted(marks)) if marks else None,
        "median": {key: _r(median(vals)) if (vals := [r[key] for r in rows if r[key] is not None]) else None
                   for key in ("offline_s", "offline_in_db_s", "first_board_s", "bot_move_s", "turn_done_s")},
        "missing": {key: sum(1 for r in rows if r[key] is None) for key in ("offline_s", "bot_move_s", "turn_done_s")},
    }


async def _close_and_watch(site: Site, table_id: int, seat_x: int, sx: Socket, sy: Socket, at: Board,
                           limit: float) -> dict[str, Any]:
    v0 = at.version
    polling = asyncio.create_task(first_offline_in_db(seat_x, limit))
    t0 = await sx.close()
    played = await sy.wait_for(lambda b: b.version > v0 and b.to_act() != 0, limit)
    seen_in_db = await polling
    after = [b for b in sy.boards if b.t >= t0 and b.version > v0]
    marked = next((b for b in after if b.seats.get(0, SeatMark(False, None)).presence == "offline"), None)
    has_markup = any(b.seats.get(0, SeatMark(False, None)).presence is not None for b in sy.boards)
    offline = (marked.t - t0 if marked else None) if has_markup else (seen_in_db - t0 if seen_in_db else None)
    moves = await db(takeover_moves, table_id=table_id, seat=0, after=v0, upto=played.version) if played else []
    first_bot = next((b for b in after if moves and b.version >= moves[0][0]), None)
    return {
        "version_closed_at": v0, "mark_via": "board" if has_markup else "database",
        "offline_s": _r(offline), "offline_in_db_s": _r(seen_in_db - t0) if seen_in_db else None,
        "first_board_s": _r(after[0].t - t0) if after else None,
        "bot_move_s": _r(first_bot.t - t0) if first_bot else None,
        "turn_done_s": _r(played.t - t0) if played else None,
        "turn_done_version": played.version if played else None, "moves": moves,
        "actors": [actor for _, actor in moves],
    }


async def measure_takeover(site: Site, graces: list[int], repeats: int, members: dict[int, tuple[Member, Member]],
                           seed: int) -> list[dict[str, Any]]:
    out = []
    for grace in graces:
        x, y = members[grace]
        result = await takeover(site, grace=grace, repeats=repeats, x=x, y=y, rng=random.Random(f"{seed}-{grace}"))
        out.append(result)
        print(f"  grace {grace} s: {len(result['rows'])} closes", file=sys.stderr, flush=True)
    return out


# -- the run -----------------------------------------------------------------------------------------------------


async def run(args: argparse.Namespace, server: Daphne) -> dict[str, Any]:
    assert server.process is not None
    pid = server.process.pid
    site = Site(server.port, Pool("127.0.0.1", server.port, size=8))
    speeds = [s for s in args.speeds.split(",") if s]
    graces = [int(g) for g in args.graces.split(",") if g]
    people = await db(make_members, prefix="pace-", count=len(speeds) * len(PACE_GAMES) + 2 * len(graces))
    pace_members = {(speed, game): people.pop(0) for speed in speeds for game, _ in PACE_GAMES}
    pair_members = {grace: (people.pop(0), people.pop(0)) for grace in graces}
    result: dict[str, Any] = {"loadavg_start": loadavg()}
    print("bot move spacing", file=sys.stderr, flush=True)
    result["pace"] = await measure_pace(site, pid, speeds, args.moves, pace_members, args.seed)
    print("offline mark and takeover", file=sys.stderr, flush=True)
    result["takeover"] = await measure_takeover(site, graces, args.repeats, pair_members, args.seed)
    result["loadavg_end"] = loadavg()
    result["http_errors"] = site.errors[:50]
    await site.pool.close()
    return result


def report(result: dict[str, Any]) -> str:
    lines = [f"table_pace: {result['started']}, table clock every {result['clock_seconds']} s, "
             f"load average {_load(result['loadavg_start'])} at start, {_load(result['loadavg_end'])} at end", ""]
    lines.append("1. Bot move spacing: seconds from the board before a bot's move to the bot's board, at the member's "
                 "socket (server: Move.created_at)")
    lines.append(f"{'speed':<7} {'after':<36} {'pace':>5} {'n':>4} {'median':>7} {'p10':>6} {'p90':>6} {'max':>6} "
                 f"{'server':>7}")
    for speed in result["pace"]:
        for row in speed["rows"]:
            if not row["n"]:
                continue
            lines.append(f"{row['speed']:<7} {row['after']:<36} {row['pace_s']:>5.2f} {row['n']:>4} "
                         f"{_f(row['median_s']):>7} {_f(row['p10_s']):>6} {_f(row['p90_s']):>6} {_f(row['max_s']):>6} "
                         f"{_f(row['server_median_s']):>7}")
        tables = speed["tables"]
        missed = sum(len(t["versions_never_received"]) for t in tables)
        lines.append(f"{'':<7} ({speed['seconds']:.0f} s, server CPU {speed['server_cpu_s']:.1f} s, load "
                     f"{_load(speed['loadavg_start'])} -> {_load(speed['loadavg_end'])}; versions never received "
                     f"{missed}, tables that timed out {sum(t['timed_out'] for t in tables)}, rounds not replayed "
                     f"{sum(t['rounds_not_replayed'] for t in tables)})")
    lines.append("")
    lines.append("2. Offline mark and bot takeover: seconds from closing X's socket on X's turn (2-member Hawsker), "
                 "at the other member's socket")
    lines.append(f"{'grace':>5} {'#':>2} {'offline':>8} {'via':<9} {'in db':>6} {'1st board':>9} {'bot move':>9} "
                 f"{'X done':>7}  X's moves")
    for block in result["takeover"]:
        for i, row in enumerate(block["rows"], 1):
            lines.append(f"{block['grace_s']:>5} {i:>2} {_f(row['offline_s']):>8} {row['mark_via']:<9} "
                         f"{_f(row['offline_in_db_s']):>6} {_f(row['first_board_s']):>9} {_f(row['bot_move_s']):>9} "
                         f"{_f(row['turn_done_s']):>7}  {','.join(row['actors']) or '-'}")
        med, missing = block["median"], block["missing"]
        lines.append(f"{block['grace_s']:>5} {'md':>2} {_f(med['offline_s']):>8} {block['mark_via'] or '-':<9} "
                     f"{_f(med['offline_in_db_s']):>6} {_f(med['first_board_s']):>9} {_f(med['bot_move_s']):>9} "
                     f"{_f(med['turn_done_s']):>7}  (never came: mark {missing['offline_s']}, bot move "
                     f"{missing['bot_move_s']}; load {_load(block['loadavg_start'])} -> {_load(block['loadavg_end'])})")
    lines.append("")
    lines.append(f"server log: {result['server_log_errors']} errors or tracebacks ({result['server_log']})")
    if result["http_errors"]:
        lines.append("")
        lines.append(f"HTTP errors ({len(result['http_errors'])}): " + "; ".join(result["http_errors"][:5]))
    return "\n".join(lines)


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _f(value: float | None) -> str:
    return "never" if value is None else f"{value:.3f}"


def _load(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60, help="bot moves per speed (shared by its three tables)")
    parser.add_argument("--repeats", type=int, default=5, help="closes per grace period")
    parser.add_argument("--speeds", default="brisk,normal,slow")
    parser.add_argument("--graces", default="15,0", help="grace periods (seconds) of the takeover tables")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-database", action="store_true", help="leave the SQLite file (and say where)")
    args = parser.parse_args(argv)

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (ROOT / "var").mkdir(exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="table_pace-", dir=ROOT / "var"))
    env = {**ENV, "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}"}
    os.environ.pop("REDIS_URL", None)  # one process: the in-memory channel layer
    os.environ.update(env)  # this process writes the members and tables into the server's database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    started = time.monotonic()
    manage("migrate", "-v", "0", env=env)
    import django

    django.setup()
    from django.conf import settings

    server = Daphne(free_port(), env, RESULTS / f"table_pace-{stamp}.daphne.log").start()
    try:
        result = asyncio.run(run(args, server))
    finally:
        server.stop()
    server_log = server.log()
    result.update({"started": stamp, "clock_seconds": settings.TABLE_CLOCK_SECONDS, "args": vars(args),
                   "total_seconds": round(time.monotonic() - started, 1), "server_log": str(server.log_path),
                   "server_log_errors": len(re.findall(r"Traceback|ERROR", server_log))})
    out = RESULTS / f"table_pace-{stamp}.json"
    out.write_text(json.dumps(result, indent=1, default=str))
    print(report(result))
    print(f"\n{result['total_seconds']:.0f} s in all; {out}")
    if args.keep_database:
        print(f"database kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
