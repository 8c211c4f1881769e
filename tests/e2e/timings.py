"""Figures the e2e tier measures (how long a treasurer takes to enter a night of 40 hands by keyboard), kept where
pytest's output capture cannot swallow them.

A test's `print` is captured and shown only when the test fails, so a figure printed by a passing test was lost.
Each figure is appended to var/e2e-timings.txt (ignored by git; one line per figure and run, so repeated runs, as
`make e2e-under-load` makes them, leave their history) and listed again in the terminal summary of the pytest run
(tests/e2e/conftest.py's `pytest_terminal_summary`), with the machine's load average when it was taken: a figure
from a loaded CI machine is not one from a quiet laptop, and the line says which it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.servers import ROOT

TIMINGS_FILE = ROOT / "var" / "e2e-timings.txt"
LOADAVG = Path("/proc/loadavg")
TITLE = "e2e timings"


def load_average(source: Path = LOADAVG) -> str:
    """The 1, 5 and 15 minute load averages ("1.52 0.98 0.61"), or "unknown" off Linux."""
    try:
        return " ".join(source.read_text().split()[:3])
    except OSError:
        return "unknown"


@dataclass(frozen=True)
class Timing:
    name: str  # NIGHT_40_HANDS_SECONDS
    seconds: float
    test: str  # the test's node id
    load: str
    at: datetime
    note: str = ""

    def line(self) -> str:
        """One line, the same in the file and in the summary: a grep for the name finds every run."""
        note = f" ({self.note})" if self.note else ""
        return (f"{self.at:%Y-%m-%dT%H:%M:%SZ} {self.name}={self.seconds:.1f}{note}; load average {self.load}; "
                f"{self.test}")


@dataclass
class Timings:
    """This run's figures, each also appended to `path` the moment it is taken (a run killed later keeps it)."""

    path: Path = TIMINGS_FILE
    recorded: list[Timing] = field(default_factory=list)
    loadavg: Path = LOADAVG
    from_workers: list[str] = field(default_factory=list)  # lines other processes of this run measured (xdist)

    def record(self, name: str, seconds: float, *, test: str, note: str = "") -> Timing:
        timing = Timing(name=name, seconds=seconds, test=test, load=load_average(self.loadavg),
                        at=datetime.now(UTC), note=note)
        self.recorded.append(timing)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(timing.line() + "\n")
        return timing

    def lines(self) -> list[str]:
        """This process's figures, as lines (what an xdist worker hands the controller when it is done)."""
        return [timing.line() for timing in self.recorded]

    def summary(self) -> list[str]:
        """The lines for the terminal summary: none when the run measured nothing (the default tier)."""
        lines = sorted([*self.lines(), *self.from_workers])  # each line starts with its time
        if not lines:
            return []
        return [*lines, f"(appended to {self.path})"]


TIMINGS = pytest.StashKey[Timings]()


def run_timings(config: pytest.Config) -> Timings:
    """This run's figures, kept on the run's config for the terminal summary. The hooks that list them live in the
    root conftest (tests/conftest.py): with the tier spread over xdist workers the controller collects nothing, so
    it never loads tests/e2e/conftest.py, and only the root conftest's hooks run there."""
    if TIMINGS not in config.stash:
        config.stash[TIMINGS] = Timings()
    return config.stash[TIMINGS]
