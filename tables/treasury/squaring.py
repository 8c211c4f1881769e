"""Who pays whom: the fewest payments that square a set of balances that sum to zero, in exact cents.

Any list of payments joins the parties into groups (who paid whom, directly or not), and each group's balances sum
to zero; a group of g parties needs at least g - 1 payments to be connected. So n parties with a non-zero balance
need at least n - k payments, where k is the largest number of groups a partition of them into zero-sum groups can
have, and n - k is also enough: inside a zero-sum group, "the largest debtor pays the largest creditor as much as
either can" settles at least one party with every payment and two with the last, g - 1 payments in all.

Finding k is NP-hard in general (it contains subset sum), so:

1. a debtor and a creditor owing and owed the same amount pay each other first (this never lowers k: in a best
   partition, moving the pair into a group of its own leaves the rest of their groups still summing to zero);
2. up to EXACT_LIMIT parties left, k is found exactly by dynamic programming over the subsets (2^n sums), so the
   payments are the true minimum;
3. beyond that, the rest is one group settled greedily: at most (parties left) - 1 payments, which is the minimum
   whenever no smaller part of them sums to zero, and never more than n - 1 in all.

Nobody owed money pays, nobody who owes receives, and nobody's balance changes sign on the way: each payment is
at most what its payer still owes and what its payee is still owed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Party = TypeVar("Party", bound=Hashable)

EXACT_LIMIT = 18  # 2^18 subset sums: about a fifth of a second in Python; each party more doubles it


class Unbalanced(ValueError):
    """The balances do not sum to zero, so no list of payments squares them."""


@dataclass(frozen=True)
class Payment(Generic[Party]):
    payer: Party
    payee: Party
    amount: int  # in cents, always positive


@dataclass(frozen=True)
class Plan(Generic[Party]):
    payments: list[Payment[Party]]
    exact: bool  # True when the number of payments is proven the fewest possible


def square_up(balances: Mapping[Party, int], *, exact_limit: int = EXACT_LIMIT) -> Plan[Party]:
    """The payments that bring every balance to zero (a negative balance owes, a positive one is owed).

    Parties keep the order they are given in wherever amounts tie, so the same balances always give the same list."""
    if sum(balances.values()) != 0:
        raise Unbalanced(f"the balances sum to {sum(balances.values())}, not zero")
    order = {party: index for index, party in enumerate(balances)}
    left = {party: int(amount) for party, amount in balances.items() if amount}
    payments: list[Payment[Party]] = []
    for debtor in sorted((p for p in left if left[p] < 0), key=lambda p: (left[p], order[p])):
        match = next((p for p in left if left[p] == -left[debtor]), None)
        if match is not None:
            payments.append(Payment(debtor, match, left[match]))
            del left[debtor], left[match]
    rest = sorted(left, key=lambda p: order[p])
    if len(rest) <= exact_limit:
        for group in _zero_sum_groups([left[p] for p in rest]):
            payments.extend(_greedy({rest[i]: left[rest[i]] for i in group}, order))
        return Plan(payments, exact=True)
    payments.extend(_greedy(left, order))
    return Plan(payments, exact=False)


def _greedy(balances: Mapping[Party, int], order: Mapping[Party, int]) -> list[Payment[Party]]:
    """Largest debtor pays largest creditor the smaller of the two amounts, until all is square."""
    left = dict(balances)
    payments: list[Payment[Party]] = []
    while left:
        debtor = min(left, key=lambda p: (left[p], order[p]))
        creditor = min(left, key=lambda p: (-left[p], order[p]))
        amount = min(-left[debtor], left[creditor])
        if amount <= 0:  # cannot happen for balances summing to zero; guards against an endless loop
            raise Unbalanced("the balances do not sum to zero")
        payments.append(Payment(debtor, creditor, amount))
        for party, change in ((debtor, amount), (creditor, -amount)):
            left[party] += change
            if not left[party]:
                del left[party]
    return payments


def _zero_sum_groups(amounts: Sequence[int]) -> list[list[int]]:
    """The indices of `amounts` (non-zero, summing to zero) split into as many zero-sum groups as possible.

    best[mask] is the most zero-sum groups the parties in `mask` can be cut into when taken one by one in some order
    (a group closes whenever the parties taken so far sum to zero); every partition arises from some order, so
    best[full] is the largest number of groups. Walking back through the choices gives the groups themselves."""
    n = len(amounts)
    if not n:
        return []
    size = 1 << n
    total = [0] * size
    best = [0] * size
    last = [0] * size  # the party taken last on the best way to `mask`
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        top, chosen, rest = -1, 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top, chosen = best[mask ^ bit], bit
        best[mask] = top + (1 if total[mask] == 0 else 0)
        last[mask] = chosen
    groups: list[list[int]] = []
    current: list[int] = []
    mask = size - 1
    while mask:
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        bit = last[mask]
        current.append(bit.bit_length() - 1)
        mask ^= bit
    groups.append(current)
    return [sorted(group) for group in reversed(groups)]
