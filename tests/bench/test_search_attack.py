"""bench.search_attack files each gap at the victim's socket by what came before the bot's move, in its phase only."""

from __future__ import annotations

from datetime import UTC, datetime

from bench.search_attack import spacing
from bench.table_pace import Board, Fact

AT = datetime(2026, 12, 6, tzinfo=UTC)


def board(version: int, t: float) -> Board:
    return Board(version=version, t=t, seats={}, moves=(), ready_offered=False, round_key="1")


def fact(actor: str, trick: bool = False) -> Fact:
    return Fact(actor=actor, seat=1, closed_trick=trick, created_at=AT)


def test_gaps_are_filed_by_what_came_before_the_bots_move_and_kept_to_their_phase() -> None:
    facts = {10: fact("deal"), 11: fact("bot"), 12: fact("bot", trick=True), 13: fact("bot"), 14: fact("member"),
             15: fact("bot"), 16: fact("bot"), 18: fact("bot")}
    boards = [board(10, 0.0), board(11, 0.5), board(12, 0.9), board(13, 2.0), board(14, 3.0), board(15, 3.4),
              board(16, 3.9), board(16, 4.5), board(18, 9.0)]  # 16 twice: the first arrival counts; 17 never came

    gaps = spacing(boards, facts, start=0.0, end=5.0)

    assert gaps["deal"] == [0.5]
    assert [round(g, 3) for g in gaps["bot"]] == [0.4, 0.5]  # 11 -> 12, 15 -> 16
    assert [round(g, 3) for g in gaps["bot_trick"]] == [1.1]  # 12 closed a trick -> 13
    assert [round(g, 3) for g in gaps["member"]] == [0.4]  # the victim's 14 -> 15
    assert spacing(boards, facts, start=3.0, end=5.0)["bot"] == [0.5]  # 16 only: 12 arrived before the phase
