"""The chaos soak's bookkeeping, apart from the servers and the database: what the load generator saw, and the
checks that compare it with what the database holds afterwards.

Why apart: these are the parts that decide PASS or FAIL, so they are pure functions over small records that a
unit test can feed by hand (tests/bench/test_chaos_checks.py), and the soak (bench/chaos.py) only gathers the
records and prints the verdicts.

The rule the move check follows is the browser's: a move whose answer never came (the connection was reset,
the server died, nginx said 502) may or may not have been applied; the client finds out from the next board,
never by sending it again. So a move row in the database must be explained either by exactly one accepted POST
(a 200 reply carrying the new version) or by one POST whose outcome the client never learnt; an accepted POST
with no row is a lost move, one with two rows a duplicate, and a member's row that no POST explains a phantom.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

Outcome = Literal["accepted", "refused", "unsent", "unknown"]
"""accepted: 200 with a board carrying the new version; refused: the site said no (409 stale, 400 illegal...),
nothing changed; unsent: the connection was refused, so the request never reached a server; unknown: it may
have reached one (reset, closed, timed out, 5xx from the front), so the move may or may not stand."""


@dataclass
class Attempt:
    """One POST by one simulated member."""

    table: str
    username: str
    kind: str  # "move" or "ready"
    move: str  # the move's text ("" for ready)
    sent_version: int  # the version of the board the member moved from
    t0: float
    t1: float = 0.0
    outcome: Outcome = "unknown"
    reply_version: int | None = None  # accepted: the version the reply's board carries
    status: int | None = None
    error: str = ""  # the error's kind, for the report (e.g. "HTTP 409", "ConnectionResetError")


@dataclass(frozen=True)
class MoveRow:
    """A member's move as the database holds it (Move with actor "member")."""

    table: str
    username: str
    text: str
    table_version: int


@dataclass
class MoveCheck:
    accepted: int = 0
    matched: int = 0
    lost: list[Attempt] = field(default_factory=list)  # accepted, no row in its version window
    duplicated: list[tuple[Attempt, int]] = field(default_factory=list)  # accepted, that many rows
    wrong_text: list[tuple[Attempt, MoveRow]] = field(default_factory=list)  # a row in its window, another move
    applied_unanswered: int = 0  # rows explained by a POST whose answer was lost
    phantoms: list[MoveRow] = field(default_factory=list)  # member rows no POST explains

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.wrong_text or self.phantoms)

    def describe(self) -> str:
        parts = [f"{self.accepted} accepted moves, {self.matched} found once"]
        if self.lost:
            parts.append(f"{len(self.lost)} LOST (e.g. table {self.lost[0].table} v{self.lost[0].sent_version} "
                         f"{self.lost[0].move!r} by {self.lost[0].username})")
        if self.duplicated:
            attempt, count = self.duplicated[0]
            parts.append(f"{len(self.duplicated)} DUPLICATED (e.g. table {attempt.table} {attempt.move!r}: "
                         f"{count} rows)")
        if self.wrong_text:
            attempt, row = self.wrong_text[0]
            parts.append(f"{len(self.wrong_text)} with another move recorded (e.g. {attempt.move!r} sent, "
                         f"{row.text!r} stored at v{row.table_version})")
        if self.phantoms:
            row = self.phantoms[0]
            parts.append(f"{len(self.phantoms)} PHANTOM rows no POST explains (e.g. table {row.table} "
                         f"v{row.table_version} {row.text!r})")
        parts.append(f"{self.applied_unanswered} applied though their answer was lost")
        return "; ".join(parts)


def check_moves(attempts: list[Attempt], rows: list[MoveRow]) -> MoveCheck:
    """Every accepted move in the database exactly once, every member's row explained by a POST.

    An accepted move made from version e whose reply showed version r produced its row in (e, r]: the table was
    locked from reading e to committing, and r is at least the version the move made (the reply may show a later
    board, never an earlier one). Only this member's own moves count: a bot playing their seat while they were
    offline is actor "absent", not "member".
    """
    check = MoveCheck()
    by_member: dict[tuple[str, str], list[MoveRow]] = defaultdict(list)
    for row in rows:
        by_member[(row.table, row.username)].append(row)
    claimed: set[MoveRow] = set()
    for attempt in attempts:
        if attempt.kind != "move" or attempt.outcome != "accepted":
            continue
        check.accepted += 1
        top = attempt.reply_version if attempt.reply_version is not None else attempt.sent_version
        window = [row for row in by_member[(attempt.table, attempt.username)]
                  if attempt.sent_version < row.table_version <= top]
        if not window:
            check.lost.append(attempt)
            continue
        if len(window) > 1:
            check.duplicated.append((attempt, len(window)))
        elif window[0].text != attempt.move:
            check.wrong_text.append((attempt, window[0]))
        else:
            check.matched += 1
        claimed.update(window)
    # What is left must come from a POST whose outcome the client never learnt: the same member, the same move,
    # a version after the one it was made from. Each such POST explains at most one row.
    unanswered: dict[tuple[str, str], list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        if attempt.kind == "move" and attempt.outcome == "unknown":
            unanswered[(attempt.table, attempt.username)].append(attempt)
    for row in sorted(set(rows) - claimed, key=lambda r: (r.table, r.table_version)):
        candidates = unanswered[(row.table, row.username)]
        found = next((a for a in candidates if a.move == row.text and a.sent_version < row.table_version), None)
        if found is None:
            check.phantoms.append(row)
        else:
            candidates.remove(found)
            check.applied_unanswered += 1
    return check


@dataclass
class Unplayable:
    """Per table, the longest stretch from a failed or blocked attempt to the next sign of life."""

    longest: dict[str, float] = field(default_factory=dict)
    open_at_end: list[str] = field(default_factory=list)  # tables still blocked when the load stopped

    def worst(self) -> tuple[str, float] | None:
        if not self.longest:
            return None
        table = max(self.longest, key=lambda code: self.longest[code])
        return table, self.longest[table]


def unplayable_time(events: dict[str, list[tuple[float, str]]], end: float) -> Unplayable:
    """`events`: per table, (time, "blocked" | "progress"). A stretch opens at the first "blocked" after the last
    progress (a POST that failed or was refused, a tick with no board to move from) and closes at the next
    "progress" (an accepted move, or a newer board at any of the table's sockets); one still open when the load
    stopped closes at `end`. Tables that never blocked are left out."""
    result = Unplayable()
    for table, table_events in events.items():
        opened: float | None = None
        longest = 0.0
        for t, kind in sorted(table_events):
            if kind == "blocked":
                if opened is None:
                    opened = t
            elif kind == "progress":
                if opened is not None:
                    longest = max(longest, t - opened)
                    opened = None
            else:
                raise ValueError(f"unknown event kind {kind!r}")
        if opened is not None:
            longest = max(longest, end - opened)
            result.open_at_end.append(table)
        if longest > 0 or opened is not None:
            result.longest[table] = longest
    return result


def stale_sockets(socket_versions: dict[tuple[str, str], int], table_versions: dict[str, int]) -> list[str]:
    """Each member socket whose newest board is not the table's version in the database, said in words."""
    stale = []
    for (table, username), version in sorted(socket_versions.items()):
        wanted = table_versions.get(table)
        if version != wanted:
            stale.append(f"{username} at {table}: socket shows v{version}, the database v{wanted}")
    return stale


def error_kinds(attempts: list[Attempt]) -> dict[str, int]:
    """How many attempts ended each way other than accepted, by kind."""
    kinds: dict[str, int] = defaultdict(int)
    for attempt in attempts:
        if attempt.outcome != "accepted":
            kinds[f"{attempt.outcome}: {attempt.error}"] += 1
    return dict(sorted(kinds.items()))
