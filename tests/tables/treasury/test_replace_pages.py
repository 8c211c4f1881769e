"""The replacement page (/treasury/inperson/<id>/replace/): filled with the old hand, a preview beside it (htmx),
one POST that replaces, a second that changes nothing, the links from the admin, and refusals."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand
from tables.models import InPersonRecord, LedgerEntry
from tests.test_content_security_policy import inline_code, policy_problems

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


@pytest.fixture
def treasurer(make_member):
    return make_member("treasurer", is_staff=True, is_superuser=True, display_name="Tess")


@pytest.fixture
def staff(treasurer) -> Client:
    client = Client()
    client.force_login(treasurer)
    return client


@pytest.fixture
def hand(treasurer, club) -> InPersonRecord:
    return record_sheepshead_hand(admin=treasurer, players=["ann", "ben", "cat", "dan", "eve"], picker="ann",
                                  partner="ben", picker_points=75, played_on=date(2024, 3, 1))


def url(record: InPersonRecord) -> str:
    return reverse("treasury_replace_hand", args=[record.pk])


def posted(**changes: str) -> dict[str, str]:
    data = {"kind": "sheepshead_hand", "seat_1": "ann", "seat_2": "ben", "seat_3": "cat", "seat_4": "dan",
            "seat_5": "fay@example.org", "picker": "Ann", "partner": "ben", "picker_points": "75", "stake_cents": "100",
            "played_on": "2024-03-01", "note": "", "reason": "Fay sat there, not Eve", "action": "replace"}
    return {**data, **changes}


def test_the_form_starts_with_the_old_hand(staff, hand) -> None:
    page = staff.get(url(hand)).content.decode()
    assert 'name="seat_5" value="eve"' in page and 'name="picker" value="ann"' in page
    assert 'name="picker_points" value="75"' in page and 'value="2024-03-01"' in page
    assert 'hx-get="/accounts/members/suggest/?field=seat_1"' in page  # the member boxes suggest as one types
    assert "Replace in-person result" in page and hand.summary in page


def test_the_preview_shows_old_and_new_side_by_side_and_writes_nothing(staff, hand) -> None:
    before = LedgerEntry.objects.count()
    response = staff.post(url(hand), posted(action="preview", reason=""), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and LedgerEntry.objects.count() == before
    assert "<html" not in page and 'id="comparison"' in page  # the form's fragment only
    eve = page.split('data-member="Eve"')[1].split("</tr>")[0]
    assert '"num old">-$1.00' in eve and '"num new">—' in eve and '"num difference">+$1.00' in eve
    fay = page.split('data-member="Fay"')[1].split("</tr>")[0]
    assert '"num old">—' in fay and '"num new">-$1.00' in fay and '"num difference">-$1.00' in fay
    ann = page.split('data-member="Ann"')[1].split("</tr>")[0]
    assert '"num old">+$2.00' in ann and '"num new">+$2.00' in ann


def test_replace_writes_the_new_record_and_the_reversals_and_links_both_ways(staff, hand, club, treasurer) -> None:
    response = staff.post(url(hand), posted())
    new = InPersonRecord.objects.get(replaces=hand)
    assert response.status_code == 302 and response["Location"] == reverse("admin:tables_inpersonrecord_change",
                                                                           args=[new.pk])
    assert new.reason == "Fay sat there, not Eve" and new.recorded_by == treasurer
    assert LedgerEntry.objects.filter(kind="reversal", in_person=hand).count() == 5
    assert new.ledger_entries.get(member=club["fay"]).amount == -100
    old_page = staff.get(reverse("admin:tables_inpersonrecord_change", args=[hand.pk])).content.decode()
    assert f'href="/admin/tables/inpersonrecord/{new.pk}/change/"' in old_page and "Fay sat there" in old_page
    assert url(hand) not in old_page  # no "replace" link on a replaced record
    new_page = staff.get(reverse("admin:tables_inpersonrecord_change", args=[new.pk])).content.decode()
    assert f'href="/admin/tables/inpersonrecord/{hand.pk}/change/"' in new_page and url(new) in new_page
    ledger = staff.get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    assert url(new) in ledger and "replace the hand" in ledger


def test_a_double_post_replaces_once(staff, hand) -> None:
    first = staff.post(url(hand), posted())
    count = LedgerEntry.objects.count(), InPersonRecord.objects.count()
    again = staff.post(url(hand), posted(), follow=True)
    assert (LedgerEntry.objects.count(), InPersonRecord.objects.count()) == count
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "already replaced" in again.content.decode()


def test_a_replaced_record_sends_the_treasurer_to_the_newest_version(staff, hand) -> None:
    staff.post(url(hand), posted())
    new = InPersonRecord.objects.get(replaces=hand)
    count = LedgerEntry.objects.count()
    other = staff.post(url(hand), posted(reason="something else", picker_points="90"))
    page = other.content.decode()
    assert "replace the newest version instead" in page and f"/admin/tables/inpersonrecord/{new.pk}/change/" in page
    assert LedgerEntry.objects.count() == count
    shown = staff.get(url(hand)).content.decode()
    assert 'id="already-replaced"' in shown and f'href="{url(new)}"' in shown


def test_a_reason_is_required_and_nonsense_is_refused_with_nothing_written(staff, hand) -> None:
    count = LedgerEntry.objects.count(), InPersonRecord.objects.count()
    for data, says in [
        (posted(reason=""), "Say why the hand is replaced"),
        (posted(picker_points="119"), "cannot happen"),
        (posted(seat_5="nobody-here"), "No member is called"),
        (posted(picker="fay", seat_5="eve"), "must be one of the players"),
        (posted(kind="hawk_round"), "Select a valid choice"),
        (posted(kind="sheepshead_leaster"), "needs this player"),
    ]:
        response = staff.post(url(hand), data)
        assert response.status_code == 200 and says in response.content.decode(), says
        assert (LedgerEntry.objects.count(), InPersonRecord.objects.count()) == count


def test_hawk_rounds_are_replaced_through_the_page(staff, treasurer, club) -> None:
    old = record_hawk_round(admin=treasurer, players=NAMES[:4], lafh=["ann", "cat"], solo=False, lafh_pips=151)
    page = staff.get(url(old)).content.decode()
    assert 'name="lafh_1" value="ann"' in page and 'name="lafh_2" value="cat"' in page and "picker" not in page
    data = {"kind": "hawk_round", "seat_1": "ann", "seat_2": "ben", "seat_3": "cat", "seat_4": "dan",
            "lafh_1": "ben", "lafh_2": "dan", "lafh_pips": "69", "nob_pips": "151", "played_on": str(old.played_on),
            "reason": "LAFH was Ben and Dan", "action": "replace"}
    assert staff.post(url(old), data).status_code == 302
    new = InPersonRecord.objects.get(replaces=old)
    assert list(new.ledger_entries.order_by("seat").values_list("amount", flat=True)) == [0, -12, 0, -12]


def test_non_staff_are_refused(hand, club) -> None:
    client = Client()
    client.force_login(club["ann"])
    for response in (client.get(url(hand)), client.post(url(hand), posted())):
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not InPersonRecord.objects.filter(replaces=hand).exists()


def test_history_page_shows_the_reversal_and_the_new_entry(staff, hand, club) -> None:
    staff.post(url(hand), posted())
    eve, fay = Client(), Client()
    eve.force_login(club["eve"])
    fay.force_login(club["fay"])
    eve_page = eve.get(reverse("my_history"), {"game": "sheepshead"}).content.decode()
    assert "Reversed by Tess: Fay sat there, not Eve" in eve_page
    fay_page = fay.get(reverse("my_history"), {"game": "sheepshead"}).content.decode()
    assert "replacing an earlier record" in fay_page and "-$1.00" in fay_page


def test_the_pages_keep_the_content_security_policy(staff, hand) -> None:
    staff.post(url(hand), posted())
    new = InPersonRecord.objects.get(replaces=hand)
    pages = [url(new), url(hand), reverse("admin:tables_inpersonrecord_change", args=[new.pk]),
             reverse("admin:tables_inpersonrecord_changelist")]
    problems = policy_problems(staff, pages)
    assert not problems, "\n".join(problems)
    preview = staff.post(url(new), posted(action="preview", seat_5="eve"), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="comparison"' in preview and not inline_code(preview)
