"""The e2e tier's figures (tests/e2e/timings.py) reach a file and the run's terminal summary, whatever pytest
captures. No browser: this runs in the default tier."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import conftest as root
from tests.e2e import conftest
from tests.e2e.timings import TIMINGS, Timings, load_average, run_timings


class Reporter:
    """What `pytest_terminal_summary` writes, as pytest's terminal reporter would show it."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_sep(self, sep: str, title: str) -> None:
        self.lines.append(f"{sep * 3} {title} {sep * 3}")

    def write_line(self, line: str) -> None:
        self.lines.append(line)


def fake_loadavg(tmp_path: Path, text: str = "3.25 2.50 1.75 2/345 6789\n") -> Path:
    path = tmp_path / "loadavg"
    path.write_text(text)
    return path


def test_a_figure_is_appended_to_the_file_with_the_load_average_and_kept_across_runs(tmp_path: Path) -> None:
    path = tmp_path / "var" / "e2e-timings.txt"  # the folder does not exist yet
    first = Timings(path=path, loadavg=fake_loadavg(tmp_path))
    first.record("NIGHT_40_HANDS_SECONDS", 41.26, test="tests/e2e/test_treasury_night.py::test_a_night", note="40")
    second = Timings(path=path, loadavg=fake_loadavg(tmp_path, "0.10 0.20 0.30 1/2 3\n"))  # the next run
    second.record("NIGHT_40_HANDS_SECONDS", 9.0, test="t::x")
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    assert "NIGHT_40_HANDS_SECONDS=41.3 (40); load average 3.25 2.50 1.75; tests/e2e/test_treasury_night.py" in lines[0]
    assert "NIGHT_40_HANDS_SECONDS=9.0; load average 0.10 0.20 0.30; t::x" in lines[1]
    assert second.summary() == [lines[1], f"(appended to {path})"]  # a run lists its own figures only


def test_the_terminal_summary_lists_the_run_s_figures_and_says_nothing_without_any(tmp_path: Path) -> None:
    config = SimpleNamespace(stash=pytest.Stash())
    quiet = Reporter()
    root.pytest_terminal_summary(quiet, 0, config)  # a run that measured nothing (the default tier)
    assert quiet.lines == []
    config.stash[TIMINGS] = Timings(path=tmp_path / "timings.txt", loadavg=fake_loadavg(tmp_path))
    request = SimpleNamespace(config=config, node=SimpleNamespace(nodeid="tests/e2e/test_x.py::test_y"))
    record = conftest.timings.__wrapped__(request)  # the fixture's function, as pytest would call it
    record("NIGHT_40_HANDS_SECONDS", 12.34, note="by keyboard")
    shown = Reporter()
    root.pytest_terminal_summary(shown, 0, config)
    assert shown.lines[0] == "=== e2e timings ==="
    assert shown.lines[1].endswith(
        "NIGHT_40_HANDS_SECONDS=12.3 (by keyboard); load average 3.25 2.50 1.75; tests/e2e/test_x.py::test_y")
    assert shown.lines[1] == (tmp_path / "timings.txt").read_text().strip()


def test_the_load_average_off_linux_is_unknown(tmp_path: Path) -> None:
    assert load_average(tmp_path / "missing") == "unknown"


def test_the_controller_lists_the_figures_its_workers_measured(tmp_path: Path) -> None:
    """With the tier spread over xdist workers each worker hands its lines over when it is done, and the controller's
    summary lists them all, in time order."""
    controller = SimpleNamespace(stash=pytest.Stash())
    worker = SimpleNamespace(stash=pytest.Stash(), workeroutput={})
    run_timings(worker).path = tmp_path / "e2e-timings.txt"
    run_timings(worker).record("NIGHT_40_HANDS_SECONDS", 7.25, test="t::night")
    root.pytest_sessionfinish(SimpleNamespace(config=worker))
    root.pytest_testnodedown(SimpleNamespace(config=controller, workeroutput=worker.workeroutput), None)
    reporter = Reporter()
    root.pytest_terminal_summary(reporter, 0, controller)
    assert any("NIGHT_40_HANDS_SECONDS=7.2" in line or "NIGHT_40_HANDS_SECONDS=7.3" in line for line in reporter.lines)
