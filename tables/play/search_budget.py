"""The club's search budget: how much of the table clock's time bots' searches may take, and whose goes next.

Why: a bot at a search level (normal, strong) spends up to a fifth of a second, sometimes more, on a move, on the
table clock's one thread. A member who starts instant tables of strong bots kept that thread searching for them
alone, and every other table's bot moves, time-outs and deals waited behind it (issue 39: six such accounts took
another member's brisk bots from 0.40 s to 0.82 s a move). So:

- Searches draw on a budget: a bucket of search seconds refilled at `share` seconds per second of wall time (a
  share of one core) and holding at most `burst`, so a member playing against strong bots at a human pace never
  notices it. While it is spent, due searches wait (their tables stay due, a little later) and everything else the
  clock does goes on.
- Each search is charged to the members it serves (`Search.payers`), split evenly. Of the searches due, the one
  whose members used least search time lately (decayed by half every `half_life`) goes first: a member's searches
  queue behind everyone else's, so six tables of one member get about one member's share, not six.
- None starves: a search that has waited `max_wait` goes whatever the budget says (the oldest first).

Pure Python (no database, no Django) and one object per serving process, as the clock is; the times it reads are
injected, so tests move them by hand: `clock` (wall time: the refill, the waits) and `cpu_clock` (a search's cost:
the CPU time of the thread that ran it, so a busy machine, which stretches a search's wall time, does not make it
dearer: the budget is a share of one core). `spend` charges a search even when it fails. The clock's pass chooses
and the search threads (tables.play.search_pool) charge, so every method holds the budget's lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

Payer = int | None  # a member's id; None: the house (a table with no member left and no creator)

BURST_SECONDS = 1.0  # search time the bucket holds: a few strong moves in a row after a quiet moment
HALF_LIFE_SECONDS = 60.0  # how fast a member's past search time stops counting against them
MAX_WAIT_SECONDS = 10.0  # the longest a due search waits, whatever the budget
FIRST_GUESS_SECONDS = 0.1  # what a search is taken to cost before one has been measured
FORGET_BELOW = 1e-4  # search seconds under which a member's decayed use is dropped (the map stays small)


@dataclass(frozen=True)
class Search:
    """A search that is due: the table it is for (`key`) and the members it serves (at least one payer)."""

    key: int
    payers: tuple[Payer, ...]

    def __post_init__(self) -> None:
        if not self.payers:
            raise ValueError("a search is charged to someone: a member, or the house (None)")


class SearchBudget:
    """The budget and the queue (see the module's docstring). `share` 0 is no budget: searches still go in the
    members' order, one at a time, as soon as they are due."""

    def __init__(self, *, share: float, burst: float = BURST_SECONDS, half_life: float = HALF_LIFE_SECONDS,
                 max_wait: float = MAX_WAIT_SECONDS, clock: Callable[[], float] = time.monotonic,
                 cpu_clock: Callable[[], float] = time.thread_time) -> None:
        if share < 0 or burst <= 0 or half_life <= 0 or max_wait <= 0:
            raise ValueError("share must be 0 or more; burst, half_life and max_wait more than 0")
        self.share, self.burst, self.half_life, self.max_wait = share, burst, half_life, max_wait
        self.clock, self.cpu_clock = clock, cpu_clock
        self._tokens = burst
        self._filled_at = clock()
        self._used: dict[Payer, tuple[float, float]] = {}  # payer -> (search seconds, as of when)
        self._since: dict[int, float] = {}  # search key -> when it was first seen due and not run
        self._typical = FIRST_GUESS_SECONDS
        self._begun: dict[int, float] = {}  # search key -> what it was taken to cost when it began (not yet charged)
        self.searches = 0  # run and charged, for the record (the clock logs them)
        self.seconds = 0.0
        self.waited = 0  # times a due search was told to wait
        self._lock = threading.RLock()

    @property
    def limited(self) -> bool:
        return self.share > 0

    @property
    def typical(self) -> float:
        """What a search is taken to cost (seconds): a moving average of the recent ones."""
        return self._typical

    def tokens(self) -> float:
        """Search seconds left in the bucket now (negative: owed by searches that ran over it)."""
        with self._lock:
            self._refill(self.clock())
            return self._tokens

    def usage(self, payer: Payer) -> float:
        """The payer's search seconds, each decayed by half every `half_life` since it was spent."""
        with self._lock:
            return self._usage(payer, self.clock())

    def choose(self, waiting: Sequence[Search]) -> Search | None:
        """Which of the due searches runs now: one that has waited `max_wait` (the oldest), else, while the budget
        has time left, the one whose members used least lately (then the one waiting longest); None: none now."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._note(waiting, now)
            if not waiting:
                return None
            starved = [s for s in waiting if now - self._since[s.key] >= self.max_wait]
            if starved:
                return min(starved, key=lambda s: (self._since[s.key], s.key))
            if self.limited and self._tokens <= 0:
                return None
            return min(waiting, key=lambda s: self._rank(s, now))

    def waits(self, waiting: Sequence[Search], *, not_before: float = 0.0) -> dict[int, float]:
        """For the due searches that did not run: seconds from now until each should be looked at again. In the
        queue's order, each a typical search's refill after the one before, starting when the budget has time
        again, and no sooner than `not_before` (when a search thread is expected to be free); never past its
        `max_wait`. (Each is looked at again then, not all at once at every pass.)"""
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._note(waiting, now)
            ready = 0.0 if not self.limited or self._tokens > 0 else -self._tokens / self.share
            ready = max(ready, not_before)
            spacing = self._typical / self.share if self.limited else self._typical
            ordered = sorted(waiting, key=lambda s: self._rank(s, now))
            self.waited += len(ordered)
            return {
                search.key: max(0.0, min(ready + place * spacing, self.max_wait - (now - self._since[search.key])))
                for place, search in enumerate(ordered)
            }

    def begin(self, search: Search) -> None:
        """`search` is under way (on a search thread, its cost known only when it ends): until it is charged, its
        members count as having spent a typical search and the bucket holds that much less, so the next choice and
        the order of the searches left waiting count it already (else one member's next table would go ahead of
        another member's first, only because the first search's cost was not in yet)."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._begun[search.key] = self._typical
            self._take(search, self._typical, now)

    def cancel(self, search: Search) -> None:
        """A search that `begin` noted and that will not run after all: it costs nothing."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._take(search, -self._begun.pop(search.key, 0.0), now)

    @contextmanager
    def spend(self, search: Search) -> Iterator[None]:
        """Run the search inside: the CPU time it took is charged to its payers and the budget, even if it raises."""
        started = self.cpu_clock()
        try:
            yield
        finally:
            self.charge(search, self.cpu_clock() - started)

    def charge(self, search: Search, seconds: float) -> None:
        """`seconds` of search for `search`: taken from the budget, split among its payers; it waits no more."""
        seconds = max(0.0, seconds)
        with self._lock:
            now = self.clock()
            self._refill(now)
            self._take(search, seconds - self._begun.pop(search.key, 0.0), now)  # less what `begin` took already
            self._since.pop(search.key, None)
            self._typical += (seconds - self._typical) / 5  # a moving average: recent searches count most
            self.searches += 1
            self.seconds += seconds
            self._forget(now)

    def _take(self, search: Search, seconds: float, now: float) -> None:
        """`seconds` (negative: given back) from the bucket and from the search's payers, split evenly."""
        if self.limited:
            self._tokens -= seconds
        each = seconds / len(search.payers)
        for payer in set(search.payers):
            self._used[payer] = (max(0.0, self._usage(payer, now) + each * search.payers.count(payer)), now)

    def _note(self, waiting: Sequence[Search], now: float) -> None:
        """When each due search was first seen waiting; searches seen long ago and not due now are forgotten (their
        table moved on without them: a member took the seat back, the table closed)."""
        due = {search.key for search in waiting}
        self._since = {k: at for k, at in self._since.items() if k in due or now - at <= 3 * self.max_wait}
        for key in due:
            self._since.setdefault(key, now)

    def _rank(self, search: Search, now: float) -> tuple[float, float, int]:
        # A table serving several members goes at the pace of the one who used least: its search serves them too.
        return min(self._usage(p, now) for p in search.payers), self._since.get(search.key, now), search.key

    def _usage(self, payer: Payer, now: float) -> float:
        seconds, at = self._used.get(payer, (0.0, now))
        return seconds * 0.5 ** (max(0.0, now - at) / self.half_life)

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._filled_at)
        self._filled_at = max(self._filled_at, now)
        if self.limited:
            self._tokens = min(self.burst, self._tokens + elapsed * self.share)

    def _forget(self, now: float) -> None:
        """Members whose use has decayed to nothing."""
        self._used = {p: (s, at) for p, (s, at) in self._used.items() if self._usage(p, now) >= FORGET_BELOW}
