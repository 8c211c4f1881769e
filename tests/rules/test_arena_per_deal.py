"""The arena's `--per-deal` mode: a game to a target scored by one round of a fresh match a deal, in points,
A's points less the B seats' average, signed so that more is better for A (in Puskiyon fewer points win)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.engine import arena, registry


def test_a_bot_against_itself_scores_exactly_zero_a_deal() -> None:
    outcome = arena.run("puskiyon", 4, "easy", "easy", 3, "zero", per_deal=True)
    assert outcome.results == (0.0, 0.0, 0.0) and outcome.interval == (0.0, 0.0)
    assert "| points |" in outcome.row()


def test_a_deal_is_the_mean_over_the_rotations_of_one_fresh_round(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.game("puskiyon")
    config = game.SPEC.make_config(4)
    seen: list[str] = []
    real = arena.deal_scores

    def recording(key: str, players: int, seats, seed: str, per_deal: bool = False) -> list[float]:
        seen.append(seed)
        return real(key, players, seats, seed, per_deal)

    monkeypatch.setattr(arena, "deal_scores", recording)
    value = arena.duplicate_deal("puskiyon", 4, "easy", "random", "rot", per_deal=True)
    assert seen == ["rot"] * 4  # the same deal in every rotation
    expected = 0.0
    for seat_a in range(4):
        seats = [arena.make_chooser("puskiyon", "easy" if s == seat_a else "random", f"rot|{seat_a}|{s}")
                 for s in range(4)]
        state = arena.play_round(game, game.new_round(config, "rot"), seats)
        deltas = game.result(state).deltas
        others = (sum(deltas) - deltas[seat_a]) / 3
        expected += others - deltas[seat_a]  # fewer points are better: the others' average less A's
    assert value == pytest.approx(expected / 4)


def test_strong_beats_random_by_points_a_deal() -> None:
    outcome = arena.run("puskiyon", 4, "strong", "random", 3, "beat", per_deal=True)
    assert all(result > 0 for result in outcome.results)


def test_a_per_deal_row_has_its_own_journal(tmp_path: Path) -> None:
    matches = arena.run("puskiyon", 2, "easy", "random", 2, "j", journal=tmp_path)
    rounds = arena.run("puskiyon", 2, "easy", "random", 2, "j", journal=tmp_path, per_deal=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["puskiyon-2-easy-random-j-per-deal.tsv", "puskiyon-2-easy-random-j.tsv"]
    assert "per-deal" in (tmp_path / names[0]).read_text().splitlines()[0]
    assert matches.results != rounds.results and "| match |" in matches.row()
    again = arena.run("puskiyon", 2, "easy", "random", 2, "j", journal=tmp_path, per_deal=True)
    assert again.results == rounds.results


def test_the_command_line_takes_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    arena.main(["--game", "puskiyon", "--players", "3", "--a", "easy", "--b", "random", "--deals", "2", "--per-deal"])
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("| puskiyon | 3 | easy | random | 2 |") and "| points |" in out[2]
