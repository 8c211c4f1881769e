"""What the "settle this night" sheet shows: each player's result for one club night, what has been paid of it at the
table, what is still owed, and the fewest payments that square the rest.

The night's results are its ledger entries (corrections included, like the night's own page); payments are
NightPayment rows. A player's balance still owed is result + paid - received, so a partial payment leaves the rest
owed (an IOU carried forward), and the payments still to make are squared from those balances: before anyone pays,
they are the fewest payments for the whole night."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils.translation import gettext

from accounts.models import User
from rules.engine import registry
from tables.ledger.selectors import dollars_text, payment_sentence
from tables.models import ClubNight, LedgerEntry, NightPayment
from tables.treasury.books import settling_plan
from tables.treasury.selectors.nights import sheet_members
from tables.treasury.selectors.settling import PaymentLine, method_text
from tables.treasury.squaring import Unbalanced


def is_money(night: ClubNight) -> bool:
    """Whether the night was played for money: a money game, and not a tournament table's session (its hands count
    in tournament points, never paid)."""
    return (night.tournament_table_id is None and registry.known(night.game)
            and registry.spec(night.game).unit == "cents")


def night_results(night: ClubNight) -> dict[int, int]:
    """Each player's result over the night in cents, in seat order (a player with no entry: 0), then anyone else the
    night's entries pay (a replaced hand's different player)."""
    results = {member_id: 0 for member_id in night.seats}
    rows = (LedgerEntry.objects.filter(in_person__night=night, member__isnull=False).values("member")
            .annotate(total=Sum("amount")).order_by("member"))
    for row in rows:
        results[row["member"]] = results.get(row["member"], 0) + (row["total"] or 0)
    return results


def night_paid(night: ClubNight) -> dict[int, tuple[int, int]]:
    """Per member: (paid to others, received from others) for this night, in cents."""
    paid: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for payer, payee, amount in NightPayment.objects.filter(night=night).values_list("payer", "payee", "amount"):
        paid[payer][0] += amount
        paid[payee][1] += amount
    return {member: (out, back) for member, (out, back) in paid.items()}


def still_owed(night: ClubNight) -> dict[int, int]:
    """Each player's balance for the night once the payments made are counted: negative owes, positive is owed."""
    results = night_results(night)
    for member, (out, back) in night_paid(night).items():
        results[member] = results.get(member, 0) + out - back
    return results


@dataclass(frozen=True)
class PlayerLine:
    member: User
    result: int  # the night's ledger total
    paid: int  # paid to others at the table for this night
    received: int

    @property
    def owed(self) -> int:
        """Still owed for the night: negative, this player still owes; positive, is still owed."""
        return self.result + self.paid - self.received

    @property
    def result_text(self) -> str:
        return dollars_text(self.result)

    @property
    def paid_text(self) -> str:
        net = self.paid - self.received
        return dollars_text(net) if net else ""

    @property
    def owed_text(self) -> str:
        return dollars_text(self.owed)

    @property
    def standing(self) -> str:
        if self.owed < 0:
            return gettext("owes")
        return gettext("is owed") if self.owed > 0 else gettext("square")


@dataclass(frozen=True)
class PlannedPayment(PaymentLine):
    payer_id: int = 0
    payee_id: int = 0


@dataclass
class NightSettling:
    night: ClubNight
    game_title: str
    money: bool
    hands: int
    players: list[PlayerLine]
    to_pay: list[PlannedPayment] = field(default_factory=list)  # the fewest payments that square what is still owed
    made: list[tuple[NightPayment, str]] = field(default_factory=list)  # the payments recorded, with their sentence
    exact: bool = True
    method: str = ""
    stake_text: str = ""
    tournament: bool = False  # a tournament table's session: its hands are points, nothing to settle

    @property
    def settled(self) -> bool:
        return all(line.owed == 0 for line in self.players)

    @property
    def anything_played(self) -> bool:
        return any(line.result for line in self.players)


def night_settling(*, night: ClubNight) -> NightSettling:
    """The night's settle sheet: results, payments made, still owed, and who pays whom for the rest."""
    members = {m.pk: m for m in sheet_members(list(night_results(night)))}
    results = night_results(night)
    paid = night_paid(night)
    players = [PlayerLine(member=members[pk], result=total, paid=paid.get(pk, (0, 0))[0],
                          received=paid.get(pk, (0, 0))[1]) for pk, total in results.items() if pk in members]
    stake = (night.options or {}).get("stake_cents")
    sheet = NightSettling(
        night=night, game_title=registry.spec(night.game).title if registry.known(night.game) else night.game,
        money=is_money(night), hands=night.hands.filter(replaced_by__isnull=True).count(), players=players,
        stake_text=dollars_text(stake, signed=False) if stake else "", tournament=night.tournament_table_id is not None)
    made = NightPayment.objects.filter(night=night).select_related("payer", "payee").order_by("paid_on", "id")
    sheet.made = [(payment, payment_sentence(payment)) for payment in made]
    if sheet.money:
        try:
            plan = settling_plan({line.member.pk: line.owed for line in players})
        except Unbalanced:  # only a tampered ledger gets here: the books' check names the rows
            sheet.method = gettext("the night's results do not sum to zero, so no payments can square them: check "
                                   "the books")
            return sheet
        names = {line.member.pk: line.member.shown_name for line in players}
        sheet.to_pay = sorted(
            (PlannedPayment(names[p.payer], names[p.payee], p.amount, payer_id=p.payer, payee_id=p.payee)
             for p in plan.payments), key=lambda p: (p.payer.lower(), p.payee.lower()))
        sheet.exact, sheet.method = plan.exact, method_text(exact=plan.exact)
    return sheet
