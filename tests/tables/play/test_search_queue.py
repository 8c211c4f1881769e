"""The table clock's searches go through the club's search budget (tables.play.services.clock.sweep with
tables.play.search_budget): one member's many due searches queue behind another's, a spent budget makes searches
wait while cheap steps go on, no search waits past the bound, an instant table gets no way around it, and a search
that fails leaves the budget's accounting whole.

The bots' searches are replaced by a recorder that notes which table searched and moves the budget's clock on by a
fixed cost (the move itself is the easy bot's): the tests see the order and the time charged, not the engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from rules.engine.hawk import bot as hawk_bot
from tables.models import Move, Seat, Table
from tables.play import search_budget
from tables.play.search_budget import Search, SearchBudget
from tables.play.services import clock, play
from tests.tables.helpers import hawk_table
from tests.tables.play.table_life import fake_time, moves_at

pytestmark = pytest.mark.django_db

COST = 0.2  # seconds of the budget's clock each search takes


class BudgetClock:
    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t


class Searches:
    """Every search the bots make, by table code, in order; each moves the budget's clock on by `COST`. A table in
    `broken` fails its search (and the easy bot's move after it, as a bug would)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, budget_clock: BudgetClock) -> None:
        self.codes: list[str] = []
        self.started_at = budget_clock.t
        self.broken: set[str] = set()
        real = hawk_bot.chooser

        def chooser(level: str, seed: str) -> Callable[[Mapping[str, Any], Sequence[Any]], Any]:
            code = seed.split("|")[0]
            easy = real("easy", seed)

            def choose(view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
                if level != "easy":
                    budget_clock.t += COST
                if code in self.broken:
                    raise RuntimeError("a search bug")  # after spending its time, as a search would
                if level != "easy":
                    self.codes.append(code)
                return easy(view, legal)

            return choose

        monkeypatch.setattr(hawk_bot, "chooser", chooser)


@pytest.fixture
def budget_clock() -> BudgetClock:
    return BudgetClock()


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch, budget_clock: BudgetClock) -> Searches:
    return Searches(monkeypatch, budget_clock)


def budget_on(budget_clock: BudgetClock, **options: float) -> SearchBudget:
    """A budget on the test's clock, for wall time and a search's CPU time alike."""
    return SearchBudget(clock=budget_clock, cpu_clock=budget_clock, **options)


def held_by(table: Table, member: User) -> Table:
    """The table's member seat (and its creation) handed to `member`: one member holding many tables whose bots
    search, as the queue must expect (the club's one-table rule is not what keeps the clock fair)."""
    Seat.objects.filter(table=table, user__isnull=False).update(user=member)
    Table.objects.filter(pk=table.pk).update(created_by=member)
    table.refresh_from_db()
    return table


def due_at(table: Table, when: datetime) -> None:
    Table.objects.filter(pk=table.pk).update(due_at=when)


def searched(searches: Searches, *tables: Table) -> list[str]:
    codes = {t.code for t in tables}
    return [code for code in searches.codes if code in codes]


def test_a_members_six_due_searches_queue_behind_another_members_one(make_member, searches, budget_clock) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    alices = [held_by(hawk_table(make_member(f"helper{i}")), alice) for i in range(6)]
    bobs = hawk_table(bob)
    base = timezone.now()
    for i, table in enumerate(alices):  # all of Alice's tables came due before Bob's
        due_at(table, base - timedelta(seconds=20 - i))
    due_at(bobs, base - timedelta(seconds=1))
    budget = budget_on(budget_clock, share=0.0)  # no budget: the order alone

    now = base
    for _ in range(40):
        if len(searches.codes) >= 7:
            break
        next_due = clock.sweep(now=now, budget=budget)
        assert next_due is not None
        now = max(now, next_due)

    first_seven = searches.codes[:7]
    alice_codes = {t.code for t in alices}
    assert first_seven[0] == alices[0].code  # nobody had used anything: the first due went first
    assert first_seven[1] == bobs.code  # Bob's one search before Alice's second
    # Alice is charged each of her searches' COST, decayed by half every half-life since: between the sum decayed over
    # all the time the budget's clock moved and the sum not decayed at all (how many searches ran after hers depends
    # on how the passes fell, so no fixed tolerance would do)
    spent = COST * sum(c in alice_codes for c in searches.codes)
    elapsed = budget_clock.t - searches.started_at
    assert spent * 0.5 ** (elapsed / budget.half_life) <= budget.usage(alice.pk) <= spent * (1 + 1e-9)


def test_a_pass_does_every_cheap_step_and_at_most_one_search(make_member, searches, budget_clock) -> None:
    alice, carol = make_member("alice"), make_member("carol")
    strong = [held_by(hawk_table(make_member(f"helper{i}")), alice) for i in range(3)]
    easy = hawk_table(carol, level="easy", speed="brisk")
    now = timezone.now() + timedelta(seconds=5)  # the brisk bot's pace has come
    for table in [*strong, easy]:
        due_at(table, now)
    before = moves_at(easy).count()

    clock.sweep(now=now, budget=budget_on(budget_clock, share=0.0))

    assert len(searches.codes) == 1
    assert moves_at(easy).count() == before + 1  # the easy bot's move, in the same pass


def test_a_spent_budget_keeps_searches_waiting_while_cheap_steps_go_on(make_member, searches, budget_clock) -> None:
    alice, carol = make_member("alice"), make_member("carol")
    strong = hawk_table(alice)
    easy = hawk_table(carol, level="easy", speed="brisk")
    budget = budget_on(budget_clock, share=0.25, burst=1.0, max_wait=10.0)
    budget.charge(Search(key=0, payers=(None,)), 3.0)  # someone's searches spent it: 2 s owed
    now = timezone.now() + timedelta(seconds=5)  # the brisk bot's pace has come
    due_at(strong, now)
    due_at(easy, now)
    version, easy_moves = strong.version, moves_at(easy).count()

    next_due = clock.sweep(now=now, budget=budget)

    assert searches.codes == []
    assert moves_at(easy).count() == easy_moves + 1  # the cheap step went on
    strong.refresh_from_db()
    assert strong.version == version  # nothing written there, nothing pushed
    assert strong.due_at is not None and strong.due_at >= now + timedelta(seconds=8 - 0.01)  # 2 s / 0.25
    assert next_due is not None and next_due <= strong.due_at

    budget_clock.t += 8.1  # the budget has time again by when the table is due
    clock.sweep(now=strong.due_at, budget=budget)
    assert searches.codes == [strong.code]


def test_no_search_waits_past_the_bound_however_spent_the_budget(make_member, searches, budget_clock) -> None:
    alice = make_member("alice")
    strong = hawk_table(alice)
    budget = budget_on(budget_clock, share=0.01, burst=1.0, max_wait=10.0)
    budget.charge(Search(key=0, payers=(None,)), 100.0)  # owed for hours at this share
    now = timezone.now()
    due_at(strong, now)

    clock.sweep(now=now, budget=budget)
    assert searches.codes == []
    strong.refresh_from_db()
    assert strong.due_at == now + timedelta(seconds=10)  # no later than the bound

    budget_clock.t += 10.0
    clock.sweep(now=strong.due_at, budget=budget)
    assert searches.codes == [strong.code]


def test_an_instant_tables_bots_search_only_as_the_budget_allows(make_member, searches, budget_clock) -> None:
    """At an instant table every strong bot is due the moment the one before it moved: sweeping it over and over at
    the same moment of the budget's clock runs only the searches its bucket holds."""
    alice = make_member("alice")
    table = hawk_table(alice)
    budget = budget_on(budget_clock, share=0.001, burst=0.9, max_wait=10.0)  # next to no refill
    for _ in range(30):
        table.refresh_from_db()
        if table.due_at is None:
            break
        clock.sweep(now=max(table.due_at, timezone.now()), budget=budget)
    assert len(searches.codes) == 5  # 0.9 s in the bucket, 0.2 s each: the fifth overdraws it
    assert budget.tokens() < 0


def test_a_failing_search_keeps_the_accounting_whole_and_the_queue_moving(make_member, searches, budget_clock,
                                                                           caplog, monkeypatch) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    broken, fine = hawk_table(alice), hawk_table(bob)
    searches.broken.add(broken.code)
    budget = budget_on(budget_clock, share=0.25, burst=1.0, max_wait=10.0)
    now = fake_time(monkeypatch).now  # the retry is from when the search failed: here, the pass's time
    due_at(broken, now - timedelta(seconds=1))
    due_at(fine, now)
    version = broken.version

    with caplog.at_level("ERROR", logger="tables.play.services.clock"):
        clock.sweep(now=now, budget=budget)

    assert any(f"table {broken.pk} failed" in r.getMessage() for r in caplog.records)
    broken.refresh_from_db()
    assert broken.version == version and broken.due_at == now + clock.RETRY_AFTER  # retried later, unchanged
    assert budget.searches == 1  # the failed search was charged to its member, as any other
    assert budget.usage(alice.pk) > 0 and budget.usage(bob.pk) == 0
    assert budget.tokens() > 0

    fine.refresh_from_db()
    clock.sweep(now=max(fine.due_at, now), budget=budget)
    assert searches.codes == [fine.code]  # the queue goes on past the failure
    assert budget.searches == 2 and budget.usage(bob.pk) > 0


def test_searches_are_charged_to_the_members_still_at_the_table_else_its_creator_else_the_house() -> None:
    def live(seats: list[tuple[int | None, bool]], creator: int | None) -> Any:
        return SimpleNamespace(seats=[SimpleNamespace(user_id=u, away=away) for u, away in seats],
                               table=SimpleNamespace(created_by_id=creator))

    assert clock.payers(live([(3, False), (None, False), (1, False), (2, True)], creator=2)) == (1, 3)
    assert clock.payers(live([(2, True), (None, False)], creator=2)) == (2,)
    assert clock.payers(live([(None, False)], creator=None)) == (None,)


def test_the_clock_keeps_one_budget_per_process_from_the_setting(settings) -> None:
    settings.TABLE_SEARCH_SHARE = 0.3
    first = clock.club_budget()
    assert first is clock.club_budget() and first.share == 0.3
    assert first.max_wait == search_budget.MAX_WAIT_SECONDS
    settings.TABLE_SEARCH_SHARE = 0.0
    assert clock.club_budget().share == 0.0 and not clock.club_budget().limited


def test_a_search_due_at_a_table_that_then_moved_on_is_looked_at_again_and_charged_once(
        make_member, searches, budget_clock) -> None:
    """The budget chose a search, but the table's seat came back meanwhile: the move is not recorded, the table
    stays due, and the time was charged (it was spent)."""
    alice = make_member("alice")
    table = hawk_table(alice)
    budget = budget_on(budget_clock, share=0.0)
    real_decide = play.Live.decide

    def decide_while_the_table_moves(self: play.Live, seat: int, level: str | None = None) -> Any:
        move = real_decide(self, seat, level)
        Table.objects.filter(pk=self.table.pk).update(version=self.table.version + 1)  # another process's write
        return move

    now = timezone.now()
    due_at(table, now)
    before = moves_at(table).count()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(play.Live, "decide", decide_while_the_table_moves)
        clock.sweep(now=now, budget=budget)
    assert moves_at(table).count() == before
    assert budget.searches == 1 and budget.usage(alice.pk) == pytest.approx(COST, rel=0.01)
    table.refresh_from_db()
    assert table.due_at is not None and table.due_at <= now
    clock.sweep(now=now, budget=budget)  # decided again from the table as it now is, and recorded
    assert [m.actor for m in moves_at(table)[before:]] == [Move.Actor.BOT]
    assert budget.searches == 2


def test_the_clock_says_once_a_minute_how_its_searches_went(make_member, searches, budget_clock, monkeypatch,
                                                            caplog) -> None:
    import time

    alice = make_member("alice")
    table = hawk_table(alice)
    budget = budget_on(budget_clock, share=0.0)
    monkeypatch.setattr(clock, "_logged", (time.monotonic() - clock.BUDGET_LOG_EVERY, 0, 0.0, 0))
    with caplog.at_level("INFO", logger="tables.play.services.clock"):
        clock.sweep(now=max(table.due_at, timezone.now()), budget=budget)
        clock.sweep(now=max(table.due_at, timezone.now()), budget=budget)  # within the minute: nothing more
    lines = [r.getMessage() for r in caplog.records if "searches" in r.getMessage()]
    assert lines == [f"table clock: 1 searches ({COST:.1f} s of CPU) and 0 waits in the last 60 s; budget 1.00 s"]
