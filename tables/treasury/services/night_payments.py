"""Recording money paid at the table for one club night: one NightPayment row, or nothing and the reason.

A payment brings both players nearer square and never past it: the payer must still owe for the night at least the
amount, and the payee must still be owed at least as much. So a partial payment is fine (the rest stays owed, an IOU
carried forward), but an overpayment, a payment to someone who is owed nothing, or money between people who did not
play that night is refused with the reason and nothing is written. The night's row is locked first, so two
treasurers recording at once are counted one after the other. The form's token makes a repeated submission (a
double click, a retried POST) find its payment and write nothing more; the unique constraint on the token stands
behind that when two arrive at once. Refusals are said in the language of the request (gettext when raised)."""

from __future__ import annotations

from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.models import User
from tables.ledger.selectors import club_today, dollars_text
from tables.ledger.services.ledger import LedgerError
from tables.models import ClubNight, NightPayment
from tables.play.services.errors import NotAllowed
from tables.treasury.selectors.night_settling import is_money, still_owed

TOKEN_LENGTH = 64  # NightPayment.token's max_length
NOTE_LENGTH = 200


class PaymentRefused(LedgerError):
    """The payment makes no sense for this night; nothing was recorded."""


def _check(*, night: ClubNight, payer: User | None, payee: User | None, amount: int, paid_on: date,
           left: dict[int, int]) -> None:
    if not is_money(night):
        raise PaymentRefused(gettext("This night was played for points: there is nothing to pay."))
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise PaymentRefused(gettext("A payment is an amount of more than $0.00."))
    if payer is None or payee is None or payer.pk not in left or payee.pk not in left:
        raise PaymentRefused(gettext("Both the payer and the payee must be players of this night."))
    if payer.pk == payee.pk:
        raise PaymentRefused(gettext("The payer and the payee are the same person."))
    owes, owed = -left[payer.pk], left[payee.pk]
    if owes <= 0:
        raise PaymentRefused(gettext("%(payer)s owes nothing more for this night.") % {"payer": payer.shown_name})
    if owed <= 0:
        raise PaymentRefused(gettext("%(payee)s is owed nothing more for this night.") % {"payee": payee.shown_name})
    if amount > owes:
        raise PaymentRefused(gettext("%(payer)s owes only %(left)s more for this night; %(amount)s is too much.") % {
            "payer": payer.shown_name, "left": dollars_text(owes, signed=False),
            "amount": dollars_text(amount, signed=False)})
    if amount > owed:
        raise PaymentRefused(gettext("%(payee)s is owed only %(left)s more for this night; %(amount)s is too "
                                     "much.") % {"payee": payee.shown_name, "left": dollars_text(owed, signed=False),
                                                 "amount": dollars_text(amount, signed=False)})
    if paid_on < night.played_on or paid_on > club_today():
        raise PaymentRefused(gettext("A payment is made from the night (%(night)s) to today.") % {
            "night": date_format(night.played_on, "j M Y")})


def record_night_payment(*, recorded_by: User, night_id: int, payer_id: int, payee_id: int, amount: int,
                         paid_on: date, token: str, note: str = "") -> tuple[NightPayment, bool]:
    """Records that `payer_id` paid `payee_id` `amount` cents for the night. Returns the payment and whether it is
    new (False: this very form had already been recorded)."""
    if not (recorded_by.is_authenticated and recorded_by.is_staff):
        raise NotAllowed(gettext("Only the club's treasurer (staff) records payments."))
    token = (token or "").strip()
    if not token or len(token) > TOKEN_LENGTH:
        raise PaymentRefused(gettext("This form has no valid key (the page may be out of date): look again."))
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise PaymentRefused(gettext("Keep the note under %(count)s characters.") % {"count": NOTE_LENGTH})
    with transaction.atomic():
        night = ClubNight.objects.select_for_update().filter(pk=night_id).first()
        if night is None:
            raise PaymentRefused(gettext("There is no such club night."))
        done = NightPayment.objects.filter(token=token).first()
        if done is not None:
            if done.night_id != night.pk:
                raise PaymentRefused(gettext("This form's key belongs to another night's payment: look again."))
            return done, False
        people = User.objects.in_bulk([payer_id, payee_id])
        _check(night=night, payer=people.get(payer_id), payee=people.get(payee_id), amount=amount, paid_on=paid_on,
               left=still_owed(night))
        row = NightPayment(night=night, payer=people[payer_id], payee=people[payee_id], amount=amount,
                           paid_on=paid_on, note=note, token=token, recorded_by=recorded_by,
                           recorded_at=timezone.now())
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            return NightPayment.objects.get(token=token), False
    return row, True
