"""The engine bench runs every game to the end and reports its figures."""

from __future__ import annotations

import pytest

from rules.engine import bench


def test_bench_plays_complete_rounds_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--rounds", "3", "--bot-rounds", "1", "--players", "4"])
    lines = capsys.readouterr().out.splitlines()
    games = {line.split()[0] for line in lines}
    assert games == {"sheepshead", "hawk", "puskiyon"}  # hawsker has no 4-player tables
    assert all("rounds/s" in line and "moves/s" in line for line in lines)


def test_bench_refuses_an_unknown_game() -> None:
    with pytest.raises(SystemExit):
        bench.main(["poker"])
