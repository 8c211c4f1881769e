"""Where a server's CPU goes, from a py-spy profile: `python -m bench.spy_shares <raw file>`.

Record the serving Daphne while `bench.run` holds a step, with the samples taken only while a thread holds the
GIL (what costs CPU in a Python process), in py-spy's collapsed ("raw") format:

    py-spy record --gil --rate 250 -d 40 -f raw -o var/prof.txt -p <daphne pid>

This prints two tables for bench/README.md: the share of samples by the library of the innermost frame (who was
running), and by the path the sample was on (a member's POST, the table clock, a socket). Why innermost frames: the
question is what to remove, and the ORM's share is only visible where its own code runs, not where it was called.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

LIBRARIES: tuple[tuple[str, str], ...] = (
    ("django/db/", "Django's ORM and its SQLite backend"),
    ("jinja2/", "the board's Jinja2 templates"),
    ("markupsafe", "the board's Jinja2 templates"),
    (".html", "the board's Jinja2 templates"),  # compiled template frames carry the template's file name
    ("django/template", "Django templates"),
    ("django/utils/translation", "gettext"),
    ("gettext.py", "gettext"),
    ("django/utils/", "Django's utilities"),
    ("django/contrib/sessions", "sessions and auth"),
    ("django/contrib/auth", "sessions and auth"),
    ("django/core/cache", "the cache"),
    ("django/", "Django's request handling (handlers, middleware, http)"),
    ("asgiref/", "thread hand-offs (asgiref, the executor)"),
    ("concurrent/futures", "thread hand-offs (asgiref, the executor)"),
    ("threading.py", "thread hand-offs (asgiref, the executor)"),
    ("queue.py", "thread hand-offs (asgiref, the executor)"),
    ("channels/", "Channels (consumers, the layer)"),
    ("asyncio/", "the event loop, Daphne, Twisted, autobahn"),
    ("selectors.py", "the event loop, Daphne, Twisted, autobahn"),
    ("daphne/", "the event loop, Daphne, Twisted, autobahn"),
    ("twisted/", "the event loop, Daphne, Twisted, autobahn"),
    ("autobahn/", "the event loop, Daphne, Twisted, autobahn"),
    ("txaio/", "the event loop, Daphne, Twisted, autobahn"),
    ("rules/engine/", "the engines and bots"),
    ("json/", "JSON"),
    ("pickle", "pickle"),
    ("copy.py", "copy"),
    ("tables/", "the site's own Python"),
    ("config/", "the site's own Python"),
    ("accounts/", "the site's own Python"),
)
PATHS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("tables/play/services/clock.py", "tables/play/background.py"), "the table clock (bots' moves, sweeps)"),
    (("tables/play/views.py",), "members' move POSTs"),
    (("consumers.py",), "sockets (pushes, heartbeats, socket moves)"),
    (("push.py", "rendering.py"), "pushes"),
    (("django/core/handlers", "middleware"), "other requests"),
)
_FILE = re.compile(r"\(([^)]*?):\d+\)$")
_BARE = re.compile(r"\w+\.py")


def library(frame: str) -> str:
    """The library a frame ("function (path:line)") belongs to, by the first rule its path matches. A rule that is a
    bare file name ("selectors.py") matches that file only: py-spy names the standard library's modules without a
    folder, and the site's own `tables/play/selectors.py` must not count as the event loop's."""
    found = _FILE.search(frame)
    path = found.group(1) if found else frame
    for fragment, name in LIBRARIES:
        if fragment == path if _BARE.fullmatch(fragment) else fragment in path:
            return name
    return "other"


def path_of(frames: Sequence[str]) -> str:
    stack = ";".join(frames)
    for fragments, name in PATHS:
        if any(fragment in stack for fragment in fragments):
            return name
    return "the event loop, Daphne and the rest"


def shares(lines: Iterable[str]) -> tuple[Counter[str], Counter[str], int]:
    """Samples by library and by path from py-spy's raw lines ("frame;frame;... count")."""
    by_library: Counter[str] = Counter()
    by_path: Counter[str] = Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        samples = int(count)
        by_library[library(frames[-1])] += samples
        by_path[path_of(frames)] += samples
        total += samples
    return by_library, by_path, total


def table(counts: Counter[str], total: int, heading: str) -> str:
    rows = [f"| {heading} | share |", "| --- | --- |"]
    rows += [f"| {name} | {100 * samples / total:.1f} % |" for name, samples in counts.most_common()]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__)
        return 2
    by_library, by_path, total = shares(Path(args[0]).read_text().splitlines())
    if not total:
        print("no samples in that file")
        return 1
    print(f"{total} samples\n\n{table(by_library, total, 'where (innermost frame)')}\n\n"
          f"{table(by_path, total, 'path')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
