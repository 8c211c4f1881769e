"""What Jinja2 saves on the table's board: the same boards rendered by Jinja2 and by a Django-template port.

Why: the board (templates/jinja2/tables/play/) is the site's one Jinja2 corner, kept for speed, and a second
template language is a cost to every contributor. This says what it saves today. It builds real `Board`s for
every game at several moments (a round's start with a hand, mid-round, a round's result; a seated member and
a spectator), checks that the port in bench/board_dtl/ prints the same HTML as the Jinja2 templates (up to
whitespace, and `&#34;`/`&quot;` and `&#39;`/`&#x27;`, which spell the same characters), then times both
engines on each board, interleaved (the engines alternate, board by board, in shuffled rounds) so a loaded
machine weighs on both alike. Last it plays moves through bench.profile_move with the board render timed
inside them, to put the render in proportion to a move's server CPU.

Everything runs in one process on a fresh SQLite file in a temporary folder (the site's db.sqlite3 and any
DATABASE_URL or REDIS_URL are left alone), with DEBUG off as in production:

    python -m bench.board_templates [--rounds 1000] [--moves 300] [--check-only]
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import re
import statistics
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from datetime import date
from io import StringIO
from pathlib import Path
from typing import Any

GAMES = ("puskiyon", "hawk", "hawsker", "sheepshead")
PLAYERS = {"puskiyon": 4, "hawk": 4, "hawsker": 2, "sheepshead": 5}  # two members, bots in the other seats
SHORT_MATCH: dict[str, dict[str, Any]] = {  # for the check, which plays whole matches
    "puskiyon": {"target": 20}, "hawk": {"rounds": 2}, "hawsker": {"short": True}, "sheepshead": {"rounds": 2}}
DTL_DIR = Path(__file__).resolve().parent / "board_dtl"
JINJA_BOARD = "tables/play/board.html"
ENGINES = ("jinja2", "dtl")
_SPACE = re.compile(r"\s+")
_SAME_ENTITIES = (("&#34;", "&quot;"), ("&#39;", "&#x27;"))  # markupsafe's spelling, Django's spelling

Render = Callable[[Any, Any, bool], str]


@dataclass
class Case:
    """One board to time: a viewer's board of one game at one moment."""

    game: str
    moment: str
    viewer: str
    board: Any
    user: Any

    @property
    def label(self) -> str:
        return f"{self.game} / {self.moment} / {self.viewer}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1000, help="timing rounds (each renders every board once "
                                                                "with each engine)")
    parser.add_argument("--moves", type=int, default=300, help="moves played by bench.profile_move (0: skip)")
    parser.add_argument("--tables", type=int, default=6, help="tables bench.profile_move plays at")
    parser.add_argument("--check-only", action="store_true", help="check the port, time nothing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"date {date.today().isoformat()}, load average before: {_loadavg()}")
    with tempfile.TemporaryDirectory(prefix="board-bench-") as tmp:
        _setup_django(Path(tmp))
        rng = random.Random(args.seed)
        render_dtl = _dtl_renderer()
        checked = check_port(render_dtl, rng)
        print(f"port checked: {checked} boards print the same with both engines")
        cases = timed_cases(rng)
        for case in cases:
            check_same(case.label, case.board, case.user, render_dtl)
        if args.check_only:
            return 0
        samples = time_renders(cases, {"jinja2": _render_jinja, "dtl": render_dtl}, args.rounds, rng)
        means = report_renders(cases, samples)
        if args.moves:
            move_share(Path(tmp), moves=args.moves, tables=args.tables, ratio=means["dtl"] / means["jinja2"])
    print(f"load average after: {_loadavg()}")
    return 0


def _loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def _setup_django(tmp: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'board-bench.sqlite3'}"
    os.environ.pop("REDIS_URL", None)  # one process: the in-memory channel layer and cache
    os.environ["DEBUG"] = "false"  # as in production (Jinja2 then never stats the template files)
    os.environ["TABLE_BOT_SPEED"] = "instant"  # whole matches played here need the bots to answer inside each move
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)  # whitenoise: no collectstatic
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# --- the two engines ---------------------------------------------------------------------------------------

def _render_jinja(board: Any, user: Any, oob: bool = False) -> str:
    """What tables/play/rendering.py does: Django's Jinja2 backend (its compiled template is cached)."""
    from django.template import engines

    return engines["jinja2"].get_template(JINJA_BOARD).render({"board": board, "oob": oob, "user": user})


def _dtl_renderer() -> Render:
    """A Django-template engine of its own, on bench/board_dtl/, with the board's filters as a library. Not in
    debug: it keeps parsed templates (the cached loader), as the site's Django engine does in production."""
    from django.template import Context, Engine

    engine = Engine(dirs=[str(DTL_DIR)], libraries={"board_dtl": "bench.board_dtl_tags"})

    def render(board: Any, user: Any, oob: bool = False) -> str:
        return engine.get_template("board.html").render(Context({"board": board, "oob": oob, "user": user}))

    return render


def normalised(html: str) -> str:
    for markupsafe_spelling, django_spelling in _SAME_ENTITIES:
        html = html.replace(markupsafe_spelling, django_spelling)
    return _SPACE.sub(" ", html).strip()


def check_same(label: str, board: Any, user: Any, render_dtl: Render) -> None:
    """Fail loudly, with the difference, when the port prints anything else than the Jinja2 templates."""
    for oob in (False, True):
        jinja = normalised(_render_jinja(board, user, oob))
        dtl = normalised(render_dtl(board, user, oob))
        if jinja != dtl:
            diff = difflib.unified_diff(jinja.replace("> <", ">\n<").splitlines(),
                                        dtl.replace("> <", ">\n<").splitlines(), "jinja2", "dtl", lineterm="")
            raise SystemExit(f"THE DJANGO-TEMPLATE PORT DIFFERS from Jinja2 for {label} (oob={oob}):\n"
                             + "\n".join(diff))


# --- tables played through the site's services ------------------------------------------------------------

def _members(prefix: str, count: int) -> list[Any]:
    from bench.history import bulk_members

    return bulk_members(prefix, count)


def _table(game: str, members: list[Any], options: dict[str, Any] | None = None) -> Any:
    from tables.play.services.tables import add_bot, create_table, join_table

    table = create_table(creator=members[0], game=game, players=PLAYERS[game], options=options, turn_seconds=600)
    for member in members[1:]:
        join_table(table_id=table.pk, user=member)
    for _ in range(PLAYERS[game] - len(members)):
        add_bot(table_id=table.pk, user=members[0])
    table.refresh_from_db()
    return table


def _current_round(table: Any) -> Any:
    from tables.models import Round

    return Round.objects.filter(match__table=table).order_by("-number").first()


def _member_to_act(table: Any, members: list[Any]) -> Any | None:
    from rules.engine import registry
    from tables.models import Seat

    current = _current_round(table)
    if current is None or current.over:
        return None
    game = registry.game(table.game)
    seat = game.to_act(game.from_json(current.state))
    found = Seat.objects.filter(table=table, position=seat, away=False, user__in=members).first()
    return found.user if found is not None else None


def _step(table: Any, members: list[Any], rng: random.Random) -> bool:
    """One member's action: a random legal move, or "ready" after a round. False when there is nothing to do."""
    from rules.engine import registry
    from tables.models import Seat, Table
    from tables.play.services import play

    table.refresh_from_db()
    if table.status != Table.Status.RUNNING:
        return False
    current = _current_round(table)
    if current.over:
        if current.match.over:
            return False
        waiting = Seat.objects.filter(table=table, user__in=members, away=False, ready=False).first()
        if waiting is None:
            return False
        play.ready_for_next_round(table_id=table.pk, user=waiting.user, expected_version=table.version)
        return True
    mover = _member_to_act(table, members)
    if mover is None:
        return False
    game = registry.game(table.game)
    seat = game.to_act(game.from_json(current.state))
    move = rng.choice([str(m) for m in game.legal_moves(game.from_json(current.state), seat)])
    play.play_move(table_id=table.pk, user=mover, move_text=move, expected_version=table.version)
    return True


def _board(table: Any, user: Any) -> Any:
    """A board of the table as it is now, on a table object of its own (a board keeps its table; a board kept
    for timing must not change when the game goes on)."""
    from tables.models import Table
    from tables.play.selectors import board_for

    return board_for(Table.objects.get(pk=table.pk), user)


def check_port(render_dtl: Render, rng: random.Random) -> int:
    """Every board of whole (short) matches of every game, for both members and a spectator, at every member's
    action; and the rarer boards: a table waiting for players, a member who left, a table the club closed."""
    from tables.play.services.admin_actions import close_table
    from tables.play.services.tables import add_bot, create_table, leave_table

    checked = 0

    def check(label: str, table: Any, viewers: list[Any]) -> None:
        nonlocal checked
        for user in viewers:
            check_same(f"{label} ({user.username})", _board(table, user), user, render_dtl)
            checked += 1

    for game in GAMES:
        first, second, spectator, host = _members(f"chk-{game}-", 4)
        waiting = create_table(creator=host, game=game, players=PLAYERS[game], turn_seconds=600)
        add_bot(table_id=waiting.pk, user=host)
        check(f"{game}: waiting for players", waiting, [host, spectator])
        table = _table(game, [first, second], SHORT_MATCH[game])
        members = [first, second]
        for action in range(600):
            check(f"{game}: action {action}", table, [first, second, spectator])
            current = _current_round(table)
            if current is not None and current.over and not current.match.over and second in members:
                leave_table(table_id=table.pk, user=second)  # the rest of the match with a member away
                members = [first]
                check(f"{game}: a member left", table, [first, second, spectator])
            if not _step(table, members, rng):
                break
        check(f"{game}: the end", table, [first, second, spectator])
        table.refresh_from_db()
        if table.status != "finished":
            raise SystemExit(f"{game}: the check's match did not end ({table.status}); play it longer")
    first, second, spectator = _members("chk-closed-", 3)
    admin = _members("chk-admin-", 1)[0]
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    table = _table("puskiyon", [first, second])
    _step(table, [first, second], rng)
    close_table(table_id=table.pk, admin=admin, reason="bench: a closed table's board")
    check("puskiyon: closed by the club", table, [first, second, spectator])
    return checked


def timed_cases(rng: random.Random) -> list[Case]:
    """Each game at a round's start (the first board with a hand), mid-round (a few member moves in, a member
    to act, cards on the table), and at the round's result; for the member to act (or the first member) and
    for a member watching."""
    cases: list[Case] = []
    for game in GAMES:
        first, second, spectator = _members(f"time-{game}-", 3)
        members = [first, second]
        table = _table(game, members)

        def add(moment: str, player: Any, table: Any = table, game: str = game, spectator: Any = spectator) -> None:
            cases.append(Case(game, moment, "player", _board(table, player), player))
            cases.append(Case(game, moment, "spectator", _board(table, spectator), spectator))

        add("start", _member_to_act(table, members) or first)
        for done in range(400):
            mover = _member_to_act(table, members)
            if done >= 3 and mover is not None:
                view = _board(table, mover).view or {}
                if view.get("trick") or ("trick" not in view and (view.get("top") or view.get("pile_recent"))):
                    break
            if not _step(table, members, rng):
                raise SystemExit(f"{game}: no mid-round moment found")
        add("mid-round", _member_to_act(table, members))
        while not _current_round(table).over:
            if not _step(table, members, rng):
                raise SystemExit(f"{game}: the round did not end")
        add("result", first)
    return cases


# --- timing -------------------------------------------------------------------------------------------------

Samples = dict[tuple[int, str], tuple[list[int], list[int]]]  # (case, engine) -> (wall ns, CPU ns) per render


def time_renders(cases: list[Case], renderers: dict[str, Render], rounds: int, rng: random.Random) -> Samples:
    """Every round renders every board (in a shuffled order) once with each engine, the engine going first
    alternating, so load, caches and the collector fall on both alike."""
    samples: Samples = {(i, name): ([], []) for i in range(len(cases)) for name in renderers}
    for _ in range(5):  # warm-up: templates parsed and compiled, URL resolver filled
        for case in cases:
            for render in renderers.values():
                render(case.board, case.user, False)
    names = list(renderers)
    order = list(range(len(cases)))
    perf, cpu = time.perf_counter_ns, time.process_time_ns
    for r in range(rounds):
        rng.shuffle(order)
        for turn, i in enumerate(order):
            board, user = cases[i].board, cases[i].user
            for name in (names if (r + turn) % 2 == 0 else names[::-1]):
                render = renderers[name]
                c0, w0 = cpu(), perf()
                render(board, user, False)
                w1, c1 = perf(), cpu()
                walls, cpus = samples[(i, name)]
                walls.append(w1 - w0)
                cpus.append(c1 - c0)
    return samples


def _p(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000


def report_renders(cases: list[Case], samples: Samples) -> dict[str, float]:
    """Per board, per game and overall; returns the overall mean of the boards' median CPU µs per engine."""
    rounds = len(samples[(0, "jinja2")][0])
    print(f"\n{rounds} interleaved renders of each of {len(cases)} boards with each engine "
          "(µs: median / p90 of wall time, median of process CPU)")
    print(f"{'board':40} {'bytes':>6}  {'Jinja2 wall':>15} {'DTL wall':>15}  {'CPU J2':>7} {'CPU DTL':>7}  ratio")
    med: dict[tuple[int, str], tuple[float, float, float]] = {}
    for i, case in enumerate(cases):
        for name in ENGINES:
            walls, cpus = samples[(i, name)]
            med[(i, name)] = (statistics.median(walls) / 1000, _p(walls, 0.9), statistics.median(cpus) / 1000)
        j, d = med[(i, "jinja2")], med[(i, "dtl")]
        size = len(_render_jinja(case.board, case.user).encode())
        print(f"{case.label:40} {size:6}  {j[0]:7.0f} / {j[1]:5.0f} {d[0]:7.0f} / {d[1]:5.0f}  "
              f"{j[2]:7.0f} {d[2]:7.0f}  {d[2] / j[2]:4.2f}x")

    def mean(indexes: list[int], name: str, part: int) -> float:
        return statistics.fmean(med[(i, name)][part] for i in indexes)

    print(f"\n{'mean of the boards':22} {'Jinja2 µs (wall p50 / p90, CPU)':>32} {'DTL µs (wall p50 / p90, CPU)':>30}"
          f"  {'DTL/J2 (CPU)':>12}  {'DTL - J2 CPU µs':>15}")
    groups = [(game, [i for i, c in enumerate(cases) if c.game == game]) for game in GAMES]
    groups.append(("all games", list(range(len(cases)))))
    overall: dict[str, float] = {}
    for label, indexes in groups:
        j = [mean(indexes, "jinja2", part) for part in range(3)]
        d = [mean(indexes, "dtl", part) for part in range(3)]
        print(f"{label:22} {j[0]:14.0f} / {j[1]:5.0f} / {j[2]:5.0f} {d[0]:14.0f} / {d[1]:5.0f} / {d[2]:5.0f}"
              f"  {d[2] / j[2]:11.2f}x  {d[2] - j[2]:15.0f}")
        overall = {"jinja2": j[2], "dtl": d[2]}
    extra = overall["dtl"] - overall["jinja2"]
    print("\nA move renders one board per viewer of the table (tables/play/rendering.py keeps each (table, version,"
          "\nviewer) board in the process: the mover's POST reply and the mover's own socket push are one render),"
          "\none more for the mover when the POST and the mover's socket are served by different processes.")
    for viewers in (2, 4, 6):
        print(f"  {viewers} viewers: {viewers} renders, Jinja2 {viewers * overall['jinja2'] / 1000:.2f} ms, DTL "
              f"{viewers * overall['dtl'] / 1000:.2f} ms of CPU a move (DTL costs {viewers * extra / 1000:+.2f} ms)")
    return overall


# --- the render within a move -------------------------------------------------------------------------------

@contextmanager
def _timed_moves() -> Iterator[dict[str, list[int]]]:
    """Time, in process CPU and wall, the parts of bench.profile_move's moves: the POST (service and reply) and
    each socket's board after the move; inside them, each board built and rendered (rendering._render) and
    the template render alone (Django's Jinja2 backend). Renders outside a move (profile_move looks at the
    boards to choose its next move) are not counted."""
    import django.template.backends.jinja2 as jinja_backend
    from django.test import Client

    from tables.play import rendering
    from tables.play.consumers import TableConsumer

    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # calls, wall ns, CPU ns
    inside = [False]

    def timed(name: str, call: Callable[[], Any], *, starts_move: bool = False, counted: bool = True) -> Any:
        if not counted:
            return call()
        outer = inside[0]
        if starts_move:
            inside[0] = True
        c0, w0 = time.process_time_ns(), time.perf_counter_ns()
        try:
            return call()
        finally:
            w1, c1 = time.perf_counter_ns(), time.process_time_ns()
            inside[0] = outer
            row = totals[name]
            row[0] += 1
            row[1] += w1 - w0
            row[2] += c1 - c0

    originals = (Client.post, TableConsumer._render, rendering._render, jinja_backend.Template.render)
    post, socket, board, template = originals

    Client.post = lambda self, *a, **k: timed("move POST", lambda: post(self, *a, **k), starts_move=True)
    TableConsumer._render = lambda self, version: timed(
        "socket push", lambda: socket(self, version), starts_move=True, counted=version is not None)
    rendering._render = lambda *a, **k: timed("board build + render", lambda: board(*a, **k), counted=inside[0])
    jinja_backend.Template.render = lambda self, *a, **k: timed(
        "template render", lambda: template(self, *a, **k), counted=inside[0])
    try:
        yield totals
    finally:
        Client.post, TableConsumer._render, rendering._render, jinja_backend.Template.render = originals


def move_share(tmp: Path, *, moves: int, tables: int, ratio: float) -> None:
    from bench import profile_move, setup_tables

    tables_file = tmp / "tables.json"
    with redirect_stdout(StringIO()):
        setup_tables.main(["--tables", str(tables), "--out", str(tables_file), "--prefix", "move-"])
    printed = StringIO()
    with _timed_moves() as totals, redirect_stdout(printed):
        profile_move.main(["--tables-file", str(tables_file), "--moves", str(moves)])
    print("\nbench.profile_move " + printed.getvalue().strip().replace("\n", "\n  "))
    done = int(printed.getvalue().split()[0])
    per = {name: (row[0] / done, row[1] / done / 1e6, row[2] / done / 1e6) for name, row in totals.items()}
    print(f"per action (of {done}; calls, wall ms, CPU ms):")
    for name in ("move POST", "socket push", "board build + render", "template render"):
        calls, wall, cpu = per.get(name, (0.0, 0.0, 0.0))
        print(f"  {name:22} {calls:5.2f} calls  {wall:6.2f} ms wall  {cpu:6.2f} ms CPU")
    move_cpu = per["move POST"][2] + per["socket push"][2]
    template_cpu = per["template render"][2]
    board_cpu = per["board build + render"][2]
    print(f"a move's server CPU (POST + the sockets' boards): {move_cpu:.2f} ms; the board's templates "
          f"{template_cpu:.2f} ms ({100 * template_cpu / move_cpu:.1f} %), boards built and rendered "
          f"{board_cpu:.2f} ms ({100 * board_cpu / move_cpu:.1f} %)")
    with_dtl = move_cpu + template_cpu * (ratio - 1)
    print(f"with the board in Django templates ({ratio:.2f}x the template CPU): {with_dtl:.2f} ms a move "
          f"({100 * (with_dtl / move_cpu - 1):+.1f} %)")


if __name__ == "__main__":
    sys.exit(main())
