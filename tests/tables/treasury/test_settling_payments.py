"""The payments that square a settlement: exact cents, never more than one fewer than the people involved, nobody
paying who is owed nothing, and the fewest possible where the exact search runs."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.treasury.squaring import EXACT_LIMIT, Unbalanced, square_up


@st.composite
def zero_sum_balances(draw: st.DrawFn) -> dict[str, int]:
    """2 to 12 parties, amounts in cents (some zero, some equal and opposite), summing to exactly zero."""
    n = draw(st.integers(min_value=2, max_value=12))
    amount = st.one_of(st.just(0), st.integers(min_value=-50_000, max_value=50_000),
                       st.sampled_from([-340, 340, -100, 100, -25, 25]))
    values = draw(st.lists(amount, min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return {f"p{i}": v for i, v in enumerate(values)}


def check(balances: dict[str, int], payments: list) -> None:
    after = dict(balances)
    for payment in payments:
        assert payment.amount > 0 and isinstance(payment.amount, int)
        assert balances[payment.payer] < 0, "only someone who owes pays"
        assert balances[payment.payee] > 0, "only someone owed receives"
        after[payment.payer] += payment.amount
        after[payment.payee] -= payment.amount
        assert after[payment.payer] <= 0 <= after[payment.payee], "nobody is paid past square"
    assert all(v == 0 for v in after.values())
    assert len(payments) <= max(0, sum(1 for v in balances.values() if v) - 1)


def fewest(balances: dict[str, int]) -> int:
    """n - (most zero-sum groups), by brute force over set partitions (small n only): the true minimum."""
    values = [v for v in balances.values() if v]

    def most_groups(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = 0
        for size in range(len(rest) + 1):
            for chosen in itertools.combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in chosen) == 0:
                    others = tuple(v for i, v in enumerate(rest) if i not in chosen)
                    best = max(best, 1 + most_groups(others))
        return best

    return len(values) - most_groups(tuple(values))


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances())
def test_payments_square_every_balance_exactly(balances: dict[str, int]) -> None:
    plan = square_up(balances)
    check(balances, plan.payments)
    assert plan.exact


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances())
def test_greedy_alone_keeps_the_same_promises(balances: dict[str, int]) -> None:
    """With the exact search switched off (many parties), the greedy fallback still squares everyone correctly."""
    plan = square_up(balances, exact_limit=0)
    check(balances, plan.payments)


@settings(max_examples=150, deadline=None)
@given(zero_sum_balances().filter(lambda b: len(b) <= 8))
def test_the_exact_search_finds_the_fewest_payments(balances: dict[str, int]) -> None:
    assert len(square_up(balances).payments) == fewest(balances)


def test_where_greedy_needs_one_payment_more() -> None:
    """Ann, Cal and Eve owe $6, $8 and $7; Bea, Dan, Fay and Gil are owed $1, $4, $3 and $13. No two amounts are
    equal and opposite, so pairing finds nothing; greedy pays 6 times, but Eve owes what Dan and Fay are owed and the
    other four square among themselves, so 2 + 3 = 5 payments do."""
    balances = {"ann": -600, "bea": 100, "cal": -800, "dan": 400, "eve": -700, "fay": 300, "gil": 1300}
    greedy = square_up(balances, exact_limit=0)
    exact = square_up(balances)
    check(balances, greedy.payments)
    check(balances, exact.payments)
    assert len(greedy.payments) == 6
    assert len(exact.payments) == 5 == fewest(balances)
    eve = {(p.payee, p.amount) for p in exact.payments if p.payer == "eve"}
    assert eve == {("dan", 400), ("fay", 300)}


def test_equal_debts_and_credits_pay_each_other() -> None:
    plan = square_up({"bob": -340, "alice": 340, "cy": -500, "dee": 200, "eve": 300})
    assert plan.payments[0].payer == "bob" and plan.payments[0].payee == "alice" and plan.payments[0].amount == 340
    assert len(plan.payments) == 3


def test_the_house_is_a_party_like_any_other() -> None:
    plan = square_up({1: -250, None: 250})
    assert [(p.payer, p.payee, p.amount) for p in plan.payments] == [(1, None, 250)]


def test_nothing_to_pay_and_unbalanced_books() -> None:
    assert square_up({"a": 0, "b": 0}).payments == []
    assert square_up({}).payments == []
    with pytest.raises(Unbalanced):
        square_up({"a": -1, "b": 2})


def test_the_exact_search_stays_quick_at_its_limit() -> None:
    """EXACT_LIMIT parties with no pairs: the search runs (and is proven exact) without the test timing it."""
    values = [-(i * 7 + 3) for i in range(EXACT_LIMIT - 1)]
    values.append(-sum(values))
    plan = square_up({f"p{i}": v for i, v in enumerate(values)})
    assert plan.exact
    check({f"p{i}": v for i, v in enumerate(values)}, plan.payments)
    assert len(plan.payments) == EXACT_LIMIT - 1
