"""Match results: one per ended match, written with its last round (or its closing), ranked on the engine's
totals, with the rules' winners; none for a match with no finished round; `match_recorded` sent once, inside
the transaction; older matches taken in by `record_past_matches`."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from rules.engine import registry
from rules.engine.api import Config
from rules.engine.api import Match as EngineMatch
from tables.ledger.services.results import ResultError, places_of, record_match
from tables.ledger.signals import match_recorded
from tables.models import Match, MatchPlace, MatchResult, Rating, Round, Table
from tables.play.services import play
from tables.play.services.admin_actions import close_table, void_round
from tables.play.services.play import seats_at
from tables.play.services.tables import create_table, leave_table
from tests.tables.helpers import current_round, full_table
from tests.tables.ledger_support import next_round, play_until_round_over

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorded() -> Iterator[list[dict[str, Any]]]:
    """Every `match_recorded` sent, with what a receiver could read of the result at that moment."""
    sent: list[dict[str, Any]] = []

    def receive(sender: Any, *, result: MatchResult, **kwargs: Any) -> None:
        sent.append({"sender": sender, "result": result, "places": result.places.count(),
                     "in_transaction": transaction.get_connection().in_atomic_block})

    match_recorded.connect(receive, dispatch_uid="test-match-recorded")
    try:
        yield sent
    finally:
        match_recorded.disconnect(dispatch_uid="test-match-recorded")


def play_match(table: Table, members: list) -> Table:
    """Members play every round (their moves chosen by the game's bot), readying between rounds, to the end."""
    for _ in range(200):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            return table
        if current_round(table).over:
            next_round(table, members)
        else:
            play_until_round_over(table)
    raise AssertionError("the match did not end")


def engine_match(table: Table) -> EngineMatch:
    return EngineMatch.from_json(Match.objects.get(table=table).state)


def lines(result: MatchResult) -> list[tuple[int, int | None, str, int, int, bool]]:
    return [(p.seat, p.user_id, p.bot, p.total, p.place, p.won) for p in result.places.order_by("seat")]


def test_places_share_equal_totals_and_skip_after_them() -> None:
    assert places_of([10, 20, 20, 5], lower_is_better=False) == [3, 1, 1, 4]
    assert places_of([10, 20, 20, 5], lower_is_better=True) == [2, 3, 3, 1]
    assert places_of([0, 0], lower_is_better=True) == [1, 1]


@pytest.mark.parametrize(("game", "bots", "options"), [
    ("sheepshead", 4, {"rounds": 2}), ("hawk", 3, {"rounds": 2}), ("hawsker", 1, {"short": True}),
    ("puskiyon", 3, {"target": 20}),
])
def test_a_match_played_out_records_its_totals_places_and_the_rules_winners_once(make_member, recorded, game,
                                                                                bots, options) -> None:
    alice = make_member("alice")
    table = play_match(full_table(game, [alice], bots=bots, **options), [alice])
    assert table.status == Table.Status.FINISHED
    result = MatchResult.objects.get(match__table=table)
    final = engine_match(table)
    spec = registry.spec(game)
    match = Match.objects.get(table=table)
    winners = registry.game(game).match_winners(Config.from_json(match.config), final)
    assert (result.game, result.unit, result.ending, result.rounds) == (game, spec.unit, "played", final.number)
    assert result.rounds == Round.objects.filter(match=match, result__isnull=False).count()
    assert result.finished_at == match.finished_at == table.finished_at
    places = places_of(final.totals, lower_is_better=spec.lower_is_better)
    assert lines(result) == [
        (seat, alice.pk if seat == 0 else None, "" if seat == 0 else "easy", final.totals[seat],
         places[seat], seat in winners)
        for seat in range(len(final.totals))
    ]
    assert sorted(winners) == sorted(match.winners)
    best = min(final.totals) if spec.lower_is_better else max(final.totals)
    assert {p.seat for p in result.places.filter(place=1)} == {s for s, t in enumerate(final.totals) if t == best}
    assert [(r["sender"], r["result"].pk, r["places"], r["in_transaction"]) for r in recorded] == [
        (MatchResult, result.pk, len(final.totals), True)]


def test_a_member_who_left_keeps_their_place_if_they_played_most_rounds_themselves(make_member) -> None:
    """Bob leaves during the second of three rounds: the bot finishes it for him (his), the house plays the third;
    two of three rounds are his, so the place is his."""
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2, rounds=3)
    play_until_round_over(table)
    next_round(table, [alice, bob])
    leave_table(table_id=table.pk, user=bob)
    table = play_match(table, [alice])
    assert [row.get("house", []) for row in Match.objects.get(table=table).sheet] == [[], [], [1]]
    result = MatchResult.objects.get(match__table=table)
    assert [p.user_id for p in result.places.order_by("seat")] == [alice.pk, bob.pk, None, None]


def test_a_member_away_for_most_rounds_has_no_place_the_house_holds_it_and_they_are_not_rated(make_member) -> None:
    """Bob leaves in the first of two rounds: that one is his, the second the house's; one of two is no majority,
    so the seat's place is the house's (the table's bot level), and only Alice's rating moves for a member."""
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2, rounds=2)
    leave_table(table_id=table.pk, user=bob)
    table = play_match(table, [alice])
    result = MatchResult.objects.get(match__table=table)
    assert [(p.user_id, p.bot) for p in result.places.order_by("seat")] == [
        (alice.pk, ""), (None, "easy"), (None, "easy"), (None, "easy")]
    assert not Rating.objects.filter(user=bob).exists()
    assert Rating.objects.get(user=alice, game="hawk").matches == 1
    assert not MatchPlace.objects.filter(user=bob).exists()


def test_the_admin_closing_after_a_round_ranks_the_totals_so_far_and_ties_share_the_place_and_the_win(
        make_member, recorded) -> None:
    boss, alice, bob = make_member("boss", is_staff=True), make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2, rounds=3)
    play_until_round_over(table)
    next_round(table, [alice, bob])
    # The second round is being played when the admin closes: it is voided and counts for nothing.
    match = Match.objects.get(table=table)
    state = engine_match(table)
    Match.objects.filter(pk=match.pk).update(state={**match.state, "totals": [12, 4, 12, -3]})
    closed = close_table(table_id=table.pk, admin=boss, reason="a tie, for the test")
    result = MatchResult.objects.get(match=match)
    assert result.ending == "closed" and result.rounds == state.number == 1
    assert result.finished_at == closed.finished_at
    assert [(p.total, p.place, p.won) for p in result.places.order_by("seat")] == [
        (12, 1, True), (4, 3, False), (12, 1, True), (-3, 4, False)]
    assert len(recorded) == 1


def test_the_last_member_leaving_records_the_match_as_closed(make_member) -> None:
    alice = make_member("alice")
    table = full_table("puskiyon", [alice], bots=3, target=400)
    play_until_round_over(table)
    next_round(table, [alice])
    leave_table(table_id=table.pk, user=alice)  # the bots finish the second round, then the table closes
    table.refresh_from_db()
    result = MatchResult.objects.get(match__table=table)
    final = engine_match(table)
    assert table.status == Table.Status.ABANDONED and final.number == 2
    assert (result.ending, result.rounds) == ("closed", 2)
    assert [p.total for p in result.places.order_by("seat")] == list(final.totals)
    assert {p.seat for p in result.places.filter(won=True)} == {p.seat for p in result.places.filter(place=1)}
    assert {p.total for p in result.places.filter(place=1)} == {min(final.totals)}  # Puskiyon: fewest points


def test_a_match_closed_before_any_round_finished_records_nothing(make_member, recorded) -> None:
    boss, alice, bob = make_member("boss", is_staff=True), make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice], bots=3, rounds=2)
    close_table(table_id=table.pk, admin=boss, reason="closed at once")
    voided = full_table("hawk", [bob], bots=3, rounds=2)
    void_round(round_id=current_round(voided).pk, admin=boss, reason="a bad deal")  # a second round is dealt
    close_table(table_id=voided.pk, admin=boss, reason="closed after a voided round")
    assert MatchResult.objects.count() == 0 and recorded == []
    assert engine_match(voided).number == 0


def test_the_result_rolls_back_with_its_round_when_a_later_step_fails(make_member, monkeypatch) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)

    def broken(self: Any) -> None:
        raise RuntimeError("a step after the result failed")

    monkeypatch.setattr(play.Live, "_snapshot", broken)  # Live.save's last step, after every row is written
    with pytest.raises(RuntimeError, match="after the result"):
        play_until_round_over(table)
    assert MatchResult.objects.count() == 0 and MatchPlace.objects.count() == 0
    assert not current_round(table).over
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING


def test_a_receiver_of_match_recorded_that_fails_rolls_the_round_back(make_member) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)

    def refuse(sender: Any, **kwargs: Any) -> None:
        raise RuntimeError("the ratings refused")

    match_recorded.connect(refuse, dispatch_uid="test-refuse-recorded")
    try:
        with pytest.raises(RuntimeError, match="ratings refused"):
            play_until_round_over(table)
    finally:
        match_recorded.disconnect(dispatch_uid="test-refuse-recorded")
    assert MatchResult.objects.count() == 0 and not current_round(table).over


def test_a_match_is_recorded_once_and_refuses_nonsense(make_member) -> None:
    alice = make_member("alice")
    table = play_match(full_table("hawk", [alice], bots=3, rounds=1), [alice])
    match = Match.objects.get(table=table)
    with pytest.raises(ResultError, match="recorded already"):
        record_match(match=match, table=table, seats=seats_at(table), ending="played", now=timezone.now())
    with pytest.raises(ResultError, match="played out or closed"):
        record_match(match=match, table=table, seats=seats_at(table), ending="won", now=timezone.now())
    assert MatchResult.objects.count() == 1


def test_record_past_matches_takes_in_older_matches_once(make_member, recorded) -> None:
    boss, alice, bob, cat = (make_member("boss", is_staff=True), make_member("alice"), make_member("bob"),
                             make_member("cat"))
    played = play_match(full_table("hawk", [alice], bots=3, rounds=1), [alice])
    closed = full_table("puskiyon", [bob], bots=3, target=400)
    play_until_round_over(closed)
    close_table(table_id=closed.pk, admin=boss, reason="closing time")
    empty = full_table("hawsker", [cat], bots=1)
    close_table(table_id=empty.pk, admin=boss, reason="closed at once")
    create_table(creator=cat, game="hawk", players=4)  # open: no match
    before = {r.match_id: lines(r) for r in MatchResult.objects.all()}
    assert len(before) == 2
    MatchResult.objects.all().delete()  # as if they had ended before results were kept
    recorded.clear()

    out = StringIO()
    call_command("record_past_matches", stdout=out)
    assert "2 recorded, 1 ended before any round finished" in out.getvalue()
    again = {r.match_id: lines(r) for r in MatchResult.objects.all()}
    assert again == before
    assert dict(MatchResult.objects.values_list("table_id", "ending")) == {played.pk: "played", closed.pk: "closed"}
    assert MatchResult.objects.get(table=played).finished_at == Match.objects.get(table=played).finished_at
    assert len(recorded) == 2
    call_command("record_past_matches", stdout=StringIO())
    assert MatchResult.objects.count() == 2 and len(recorded) == 2
