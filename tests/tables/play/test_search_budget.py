"""The search budget and its queue (tables.play.search_budget), on a clock the tests move by hand: the budget's
share of wall time, fairness between members (the one who used least goes first; one member's many tables get one
member's share), the bound on any search's wait, and accounting that holds when a search fails."""

from __future__ import annotations

import pytest

from tables.play.search_budget import Search, SearchBudget


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def budget(clock: Clock, **kwargs: float) -> SearchBudget:
    options = {"share": 0.25, "burst": 1.0, "half_life": 60.0, "max_wait": 10.0, **kwargs}
    return SearchBudget(clock=clock, cpu_clock=clock, **options)  # a search's CPU time is its time here


def run(b: SearchBudget, clock: Clock, search: Search, seconds: float) -> None:
    """The search runs for `seconds` of the budget's clock."""
    with b.spend(search):
        clock.advance(seconds)


def test_searches_run_while_the_budget_has_time_then_wait_until_it_refills() -> None:
    clock = Clock()
    b = budget(clock, share=0.25, burst=1.0)
    search = Search(key=1, payers=(7,))
    ran = 0
    while b.choose([search]) is not None:
        run(b, clock, search, 0.3)
        ran += 1
    # 1 s in the bucket (full: the first search's refill is lost), then a quarter of each 0.3 s search back:
    # 0.7, 0.475, 0.25, 0.025, and the fifth goes over.
    assert ran == 5
    assert b.tokens() == pytest.approx(-0.2)
    owed = -b.tokens()
    clock.advance(owed / 0.25 - 0.01)
    assert b.choose([search]) is None  # not yet
    clock.advance(0.02)
    assert b.choose([search]) == search


def test_over_a_long_run_searches_take_about_the_share_of_wall_time() -> None:
    clock = Clock()
    b = budget(clock, share=0.25, burst=1.0)
    searches = [Search(key=k, payers=(k,)) for k in range(5)]
    started, spent = clock.t, 0.0
    while clock.t - started < 600:
        chosen = b.choose(searches)
        if chosen is None:
            clock.advance(0.05)  # a pass of cheap steps
            continue
        run(b, clock, chosen, 0.15)
        spent += 0.15
    assert spent / (clock.t - started) == pytest.approx(0.25, abs=0.01)


def test_the_member_who_used_least_goes_first_and_one_members_six_tables_queue_behind_anothers_one() -> None:
    clock = Clock()
    b = budget(clock, share=0.0)  # no budget: the order alone
    a_tables = [Search(key=k, payers=(1,)) for k in range(1, 7)]
    b_table = Search(key=9, payers=(2,))
    waiting = [*a_tables, b_table]
    order = []
    while waiting:
        chosen = b.choose(waiting)
        assert chosen is not None
        waiting.remove(chosen)
        order.append(chosen.key)
        run(b, clock, chosen, 0.2)
    assert order[0] == 1  # nobody had used anything: the first due (lowest key) goes first
    assert order[1] == 9  # then B's, before A's second
    assert order[2:] == [2, 3, 4, 5, 6]


def test_one_member_with_six_tables_gets_about_one_members_share() -> None:
    """A has six tables always wanting a search, B and C one each: over ten minutes, each member gets about a
    third of the search time."""
    clock = Clock()
    b = budget(clock, share=0.25, burst=1.0)
    waiting = [*(Search(key=k, payers=(1,)) for k in range(1, 7)), Search(key=11, payers=(2,)),
               Search(key=12, payers=(3,))]
    per_member = {1: 0.0, 2: 0.0, 3: 0.0}
    started = clock.t
    while clock.t - started < 600:
        chosen = b.choose(waiting)
        if chosen is None:
            clock.advance(0.05)
            continue
        run(b, clock, chosen, 0.15)
        per_member[chosen.payers[0]] += 0.15
    total = sum(per_member.values())
    for seconds in per_member.values():
        assert seconds / total == pytest.approx(1 / 3, abs=0.05)


def test_a_search_serving_several_members_is_split_between_them_and_the_house_pays_for_nobodys() -> None:
    clock = Clock()
    b = budget(clock, share=0.0)
    run(b, clock, Search(key=1, payers=(1, 2)), 0.4)
    run(b, clock, Search(key=2, payers=(None,)), 0.3)
    assert b.usage(1) == pytest.approx(0.2, rel=0.01) and b.usage(2) == pytest.approx(0.2, rel=0.01)
    assert b.usage(None) == pytest.approx(0.3, rel=0.01)
    with pytest.raises(ValueError):
        Search(key=3, payers=())


def test_a_members_use_fades_by_half_every_half_life() -> None:
    clock = Clock()
    b = budget(clock, share=0.0, half_life=60.0)
    run(b, clock, Search(key=1, payers=(1,)), 1.0)
    clock.advance(60)
    assert b.usage(1) == pytest.approx(0.5)
    clock.advance(120)
    assert b.usage(1) == pytest.approx(0.125)


def test_no_search_waits_longer_than_max_wait_whatever_the_budget() -> None:
    """Far more searches due than the budget allows: each still runs within max_wait of first being due."""
    clock = Clock()
    b = budget(clock, share=0.05, burst=0.2, max_wait=10.0)
    waiting = {k: Search(key=k, payers=(k % 3,)) for k in range(12)}
    first_due = {k: clock.t for k in waiting}
    longest = 0.0
    started = clock.t
    while clock.t - started < 120:
        chosen = b.choose(list(waiting.values()))
        if chosen is None:
            clock.advance(0.1)
            continue
        longest = max(longest, clock.t - first_due[chosen.key])
        run(b, clock, chosen, 0.2)
        first_due[chosen.key] = clock.t  # its table's next bot is due at once (an instant table)
    assert longest <= 10.0 + 0.2 * len(waiting)  # a starved search waits at most for the others starved with it
    assert b.tokens() < 0  # the budget was overdrawn: the bound held against it


def test_waits_put_the_queue_in_order_from_when_the_budget_has_time_again_and_never_past_max_wait() -> None:
    clock = Clock()
    b = budget(clock, share=0.5, burst=0.5, max_wait=10.0)
    heavy = Search(key=1, payers=(1,))
    run(b, clock, heavy, 1.5)  # the bucket owes 0.5 + 0.75... A used 1.5 s
    light = Search(key=2, payers=(2,))
    heavy_again = Search(key=3, payers=(1,))
    assert b.choose([heavy_again, light]) is None
    waits = b.waits([heavy_again, light])
    owed = -b.tokens()
    assert waits[2] == pytest.approx(owed / 0.5)  # the light member's first, as soon as there is time
    assert waits[3] > waits[2]  # the heavy member's after it
    clock.advance(9.9)
    assert b.waits([heavy_again, light])[3] <= 0.1 + 1e-9  # never past its own max_wait


def test_unlimited_budget_runs_every_search_in_the_members_order() -> None:
    clock = Clock()
    b = budget(clock, share=0.0)
    search = Search(key=1, payers=(1,))
    for _ in range(50):
        assert b.choose([search]) == search
        run(b, clock, search, 1.0)
    assert b.searches == 50 and b.seconds == pytest.approx(50.0)


def test_a_search_that_fails_is_charged_all_the_same_and_waits_no_more() -> None:
    clock = Clock()
    b = budget(clock, share=0.25, burst=1.0)
    broken, other = Search(key=1, payers=(1,)), Search(key=2, payers=(2,))
    assert b.choose([broken, other]) == broken
    with pytest.raises(RuntimeError), b.spend(broken):
        clock.advance(0.4)
        raise RuntimeError("a search bug")
    assert b.usage(1) == pytest.approx(0.4, rel=0.01)
    assert b.tokens() == pytest.approx(0.6)  # a full bucket, less the failed search's time
    assert b.searches == 1
    # The failed search's table is no longer waiting: seen again later, it waits from then, not from before.
    assert b.choose([other]) == other
    run(b, clock, other, 0.2)
    clock.advance(9.5)
    assert b.choose([broken]) == broken  # the budget had time again: nothing stuck behind the failure


def test_a_search_under_way_counts_for_its_members_before_its_cost_is_known() -> None:
    """Searches on threads of their own are charged when they end: one that has begun already counts (a typical
    search's worth), so a second thread's choice, and the order of those left waiting, put another member's first
    search before this member's next; when it ends its real cost replaces the guess, and one that never runs costs
    nothing."""
    clock = Clock()
    b = budget(clock, share=0.25)
    alice_1, alice_2, bob = Search(key=1, payers=(1,)), Search(key=2, payers=(1,)), Search(key=3, payers=(2,))
    assert b.choose([alice_1, alice_2, bob]) == alice_1  # nobody used anything: the first seen, the lowest key
    b.begin(alice_1)
    assert b.tokens() == pytest.approx(1.0 - b.typical)
    assert b.choose([alice_2, bob]) == bob  # a second thread: Bob's first before Alice's second
    assert list(b.waits([alice_2, bob])) == [3, 2]  # and in the queue too
    b.begin(bob)
    run(b, clock, alice_1, 0.3)
    assert b.usage(1) == pytest.approx(0.3, rel=0.01) and b.searches == 1
    b.cancel(bob)
    assert b.usage(2) == 0.0 and b.searches == 1
    assert b.tokens() == pytest.approx(1.0 - 0.3 + 0.3 * 0.25, rel=0.01)
