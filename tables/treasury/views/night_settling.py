"""Settling one club night at the table (staff only): who pays whom for that night alone, printable on one page,
and the payments actually made, recorded as they happen (a POST records one)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tables.ledger.selectors import payment_sentence
from tables.models import ClubNight
from tables.play.services.errors import TableError
from tables.treasury.forms.night_settling import NightPaymentForm
from tables.treasury.selectors.night_settling import night_settling
from tables.treasury.services.night_payments import record_night_payment


@staff_member_required
@require_http_methods(["GET", "POST"])
def night_settle(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_object_or_404(ClubNight.objects.select_related("recorded_by"), pk=night_id)
    if night.tournament_table_id is not None:  # counted in tournament points: nobody pays anybody for it
        messages.info(request, gettext("This night is a tournament table's session, counted in points: there is "
                                       "nothing to settle and nothing to pay."))
        return redirect("treasury_night", night_id=night.pk)
    sheet = night_settling(night=night)
    players = [line.member for line in sheet.players]
    form = NightPaymentForm(request.POST or None, players=players)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                payment, new = record_night_payment(recorded_by=request.user, night_id=night.pk,
                                                    **form.service_kwargs())
            except TableError as error:
                form.add_error(None, str(error))
            else:
                if new:
                    messages.success(request, gettext("Recorded: %(payment)s.") % {
                        "payment": payment_sentence(payment)})
                else:
                    messages.info(request, gettext("This payment was already recorded; nothing more was written."))
                return redirect(reverse("treasury_night_settle", args=[night.pk]) + "#payments-made")
        status = 400
    return TemplateResponse(request, "tables/treasury/night_settle.html", {
        **admin.site.each_context(request),
        "title": gettext("Settle this night: %(night)s") % {"night": night}, "night": night, "sheet": sheet,
        "form": form,
    }, status=status)
