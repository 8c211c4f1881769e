"""A row of the arena played over several runs through its journal is the row one run makes, and a journal
of other code or a line a killed run cut short never gets into a result."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.engine import arena

ROW = ("sheepshead", 3, "easy", "random")


def played(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The seeds of the deals actually played from here on."""
    seeds: list[str] = []
    real = arena.duplicate_deal

    def counting(key: str, players: int, a: str, b: str, seed: str, per_deal: bool = False) -> float:
        seeds.append(seed)
        return real(key, players, a, b, seed, per_deal)

    monkeypatch.setattr(arena, "duplicate_deal", counting)
    return seeds


def test_a_row_finished_in_two_runs_is_the_row_one_run_makes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = arena.run(*ROW, 6, "j")
    arena.run(*ROW, 4, "j", journal=tmp_path)
    seeds = played(monkeypatch)
    resumed = arena.run(*ROW, 6, "j", journal=tmp_path)
    assert seeds == ["j|sheepshead|3|4", "j|sheepshead|3|5"]  # only the two deals the journal lacked
    assert resumed.results == whole.results and resumed.deals == 6
    assert len(set(whole.results)) > 1  # the deals differ, so the order of the results is checked too


def test_a_journal_is_read_in_deal_order_and_not_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = arena.run(*ROW, 3, "k", journal=tmp_path, jobs=2)
    seeds = played(monkeypatch)
    again = arena.run(*ROW, 3, "k", journal=tmp_path)
    assert seeds == [] and again.results == first.results == arena.run(*ROW, 3, "k").results


def test_a_journal_of_other_code_is_refused(tmp_path: Path) -> None:
    arena.run(*ROW, 2, "c", journal=tmp_path)
    [path] = tmp_path.iterdir()
    assert f"code={arena.code_digest('sheepshead')}" in path.read_text().splitlines()[0]
    path.write_text(path.read_text().replace("code=", "code=0", 1))
    with pytest.raises(arena.JournalError, match="move it aside"):
        arena.run(*ROW, 3, "c", journal=tmp_path)


def test_the_code_digest_follows_the_games_own_sources_and_the_search(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "engine"
    for path in arena.ENGINE.rglob("*.py"):
        target = copy / path.relative_to(arena.ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(arena, "ENGINE", copy)
    before = {key: arena.code_digest(key) for key in ("sheepshead", "hawk")}
    (copy / "arena.py").write_text("# a tool, not play\n")
    assert {key: arena.code_digest(key) for key in before} == before
    (copy / "hawk" / "bot.py").write_text((copy / "hawk" / "bot.py").read_text() + "\n# changed\n")
    assert arena.code_digest("hawk") != before["hawk"] and arena.code_digest("sheepshead") == before["sheepshead"]
    (copy / "search.py").write_text((copy / "search.py").read_text() + "\n# changed\n")
    assert arena.code_digest("sheepshead") != before["sheepshead"]


def test_a_line_a_killed_run_cut_short_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = arena.run(*ROW, 3, "x", journal=tmp_path)
    [path] = tmp_path.iterdir()
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:3])  # the last deal half written
    seeds = played(monkeypatch)
    again = arena.run(*ROW, 3, "x", journal=tmp_path)
    assert seeds == ["x|sheepshead|3|2"] and again.results == whole.results


def test_report_prints_the_rows_so_far_and_plays_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    arena.run("puskiyon", 2, "easy", "random", 2, "r", journal=tmp_path)
    seeds = played(monkeypatch)
    arena.main(["--all", "--deals", "5", "--seed", "r", "--games", "puskiyon:2", "hawk:4", "--pairings", "easy:random",
                "--journal", str(tmp_path), "--report"])
    out = capsys.readouterr().out.splitlines()
    assert seeds == []
    assert out[2].startswith("| puskiyon | 2 | easy | random | 2 | ")
    assert out[3] == "| hawk | 4 | easy | random | 0 | | | points | not played | 0 |"


def test_report_needs_a_journal() -> None:
    with pytest.raises(SystemExit):
        arena.main(["--all", "--report"])


def test_report_shows_a_journal_other_code_played_and_names_that_code(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A finished row keeps the digest of the code that played it; the report shows it, marked, and going on with
    it is still refused."""
    first = arena.run(*ROW, 3, "o", journal=tmp_path)
    [path] = tmp_path.iterdir()
    path.write_text(path.read_text().replace("code=", "code=0ld", 1))
    arena.main(["--game", "sheepshead", "--players", "3", "--a", "easy", "--b", "random", "--deals", "3", "--seed", "o",
                "--journal", str(tmp_path), "--report"])
    row = capsys.readouterr().out.splitlines()[2]
    old = f"0ld{arena.code_digest('sheepshead')}"
    assert row == first.row().replace(" | A better | ", f" | A better (played by code {old}) | ")
    assert arena.run(*ROW, 3, "o", journal=tmp_path, play=False).results == first.results
    with pytest.raises(arena.JournalError, match="move it aside"):
        arena.run(*ROW, 3, "o", journal=tmp_path)


def test_report_refuses_a_journal_of_another_row(tmp_path: Path) -> None:
    arena.run(*ROW, 2, "w", journal=tmp_path)
    [path] = tmp_path.iterdir()
    path.write_text(path.read_text().replace(" easy random ", " normal random ", 1))
    with pytest.raises(arena.JournalError, match="the row differs"):
        arena.run(*ROW, 2, "w", journal=tmp_path, play=False)
