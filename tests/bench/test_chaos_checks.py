"""The chaos soak's verdicts (bench/chaos_checks.py) on small runs made up by hand: a clean run passes, and a lost,
doubled or unexplained move, a stuck table and a socket left behind are each reported."""

from __future__ import annotations

import pytest

from bench.chaos_checks import Attempt, MoveRow, check_moves, error_kinds, stale_sockets, unplayable_time


def accepted(table: str, user: str, move: str, sent: int, reply: int) -> Attempt:
    return Attempt(table, user, "move", move, sent, 0.0, outcome="accepted", reply_version=reply, status=200)


def test_a_clean_run_passes_with_every_accepted_move_found_once() -> None:
    attempts = [accepted("T1", "ann", "play 2H", 3, 4), accepted("T1", "bob", "play 3H", 6, 7),
                accepted("T2", "cy", "bid 1", 1, 2),
                Attempt("T1", "ann", "ready", "", 9, 0.0, outcome="accepted", reply_version=10)]
    rows = [MoveRow("T1", "ann", "play 2H", 4), MoveRow("T1", "bob", "play 3H", 7), MoveRow("T2", "cy", "bid 1", 2)]
    check = check_moves(attempts, rows)
    assert check.ok
    assert (check.accepted, check.matched) == (3, 3)  # the "ready" is no move


def test_an_accepted_move_missing_from_the_database_is_reported_lost() -> None:
    attempts = [accepted("T1", "ann", "play 2H", 3, 4), accepted("T1", "bob", "play 3H", 6, 7)]
    check = check_moves(attempts, [MoveRow("T1", "ann", "play 2H", 4)])
    assert not check.ok
    assert [(a.username, a.move) for a in check.lost] == [("bob", "play 3H")]
    assert "1 LOST" in check.describe()


def test_a_move_outside_its_version_window_does_not_count_as_found() -> None:
    """The reply showed version 4: a row made at version 9 is another move, not this one."""
    check = check_moves([accepted("T1", "ann", "play 2H", 3, 4)], [MoveRow("T1", "ann", "play 2H", 9)])
    assert [a.move for a in check.lost] == ["play 2H"]
    assert [r.table_version for r in check.phantoms] == [9]


def test_an_accepted_move_stored_twice_is_reported_duplicated() -> None:
    rows = [MoveRow("T1", "ann", "play 2H", 4), MoveRow("T1", "ann", "play 2H", 5)]
    check = check_moves([accepted("T1", "ann", "play 2H", 3, 5)], rows)
    assert not check.ok
    assert [(a.move, n) for a, n in check.duplicated] == [("play 2H", 2)]


def test_another_move_stored_in_its_place_is_reported() -> None:
    check = check_moves([accepted("T1", "ann", "play 2H", 3, 4)], [MoveRow("T1", "ann", "play 9S", 4)])
    assert not check.ok
    assert [(a.move, r.text) for a, r in check.wrong_text] == [("play 2H", "play 9S")]


def test_a_move_whose_answer_was_lost_may_stand_once_but_not_twice() -> None:
    """A reset POST may have been applied: its row is explained by it. A second row for one such POST is not."""
    lost_answer = Attempt("T1", "ann", "move", "play 2H", 3, 0.0, outcome="unknown", error="ConnectionResetError")
    one = check_moves([lost_answer], [MoveRow("T1", "ann", "play 2H", 4)])
    assert one.ok and one.applied_unanswered == 1
    two = check_moves([lost_answer], [MoveRow("T1", "ann", "play 2H", 4), MoveRow("T1", "ann", "play 2H", 6)])
    assert not two.ok
    assert [r.table_version for r in two.phantoms] == [6]


def test_a_row_from_a_post_that_never_left_or_was_refused_is_a_phantom() -> None:
    attempts = [Attempt("T1", "ann", "move", "play 2H", 3, 0.0, outcome="unsent", error="ConnectionRefusedError"),
                Attempt("T1", "ann", "move", "play 2H", 3, 0.0, outcome="refused", status=409, error="HTTP 409")]
    check = check_moves(attempts, [MoveRow("T1", "ann", "play 2H", 4)])
    assert not check.ok
    assert len(check.phantoms) == 1


def test_unplayable_time_runs_from_the_first_block_to_the_next_progress() -> None:
    events = {
        "T1": [(1.0, "progress"), (2.0, "blocked"), (3.0, "blocked"), (6.5, "progress"), (7.0, "blocked"),
               (8.0, "progress")],
        "T2": [(1.0, "progress"), (2.0, "progress")],
        "T3": [(5.0, "blocked")],  # still blocked when the load stopped at 20
    }
    result = unplayable_time(events, end=20.0)
    assert result.longest == {"T1": 4.5, "T3": 15.0}
    assert result.open_at_end == ["T3"]
    assert result.worst() == ("T3", 15.0)


def test_unplayable_time_sorts_events_and_rejects_unknown_kinds() -> None:
    assert unplayable_time({"T1": [(4.0, "progress"), (1.0, "blocked")]}, end=9.0).longest == {"T1": 3.0}
    with pytest.raises(ValueError, match="unknown event kind"):
        unplayable_time({"T1": [(1.0, "stuck")]}, end=2.0)
    assert unplayable_time({}, end=1.0).worst() is None


def test_a_socket_behind_the_database_is_named() -> None:
    sockets = {("T1", "ann"): 12, ("T1", "bob"): 11, ("T2", "cy"): 5}
    assert stale_sockets(sockets, {"T1": 12, "T2": 5}) == [
        "bob at T1: socket shows v11, the database v12"]
    assert stale_sockets(sockets, {"T1": 11, "T2": 5}) == ["ann at T1: socket shows v12, the database v11"]


def test_errors_are_counted_by_outcome_and_kind() -> None:
    attempts = [accepted("T1", "ann", "a", 1, 2),
                Attempt("T1", "ann", "move", "a", 2, 0.0, outcome="unknown", error="HTTP 502"),
                Attempt("T1", "ann", "move", "a", 2, 0.0, outcome="unknown", error="HTTP 502"),
                Attempt("T1", "bob", "move", "b", 2, 0.0, outcome="refused", error="HTTP 409")]
    assert error_kinds(attempts) == {"refused: HTTP 409": 1, "unknown: HTTP 502": 2}
