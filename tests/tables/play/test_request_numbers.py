"""Numbers typed into requests: only ASCII digits within bounds count; anything else is refused, never a 500.

`"²".isdigit()` is true and `int("²")` fails; `int("١٢")` is 12; forty nines overflow a database
integer. Every view and admin view that reads a number from a request is driven here with any
unicode text (and those examples): it answers below 500 and changes nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from accounts.models import User
from tables.models import LedgerEntry, Move, QueueRequest, Round, Seat, Table
from tables.play.request_numbers import LARGEST_ID, LARGEST_INT, record_id, whole_number
from tables.play.services.tables import add_bot, create_table
from tests.tables.helpers import full_table, legal_for, seat_to_act
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ODD = ("²", "١٢", "\uff11", "-1", "", "9" * 40)  # "\uff11": a full-width one
# Any unicode a browser could send (surrogates cannot be encoded, so no request carries them).
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=50)
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SOME = settings(FEW, max_examples=20)  # for the tests that send a dozen requests per example


def odd_examples(test):
    for text in ODD:
        test = example(text)(test)
    return test


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def plain_number(text: str, value: int) -> bool:
    """The text is an ordinary way to write `value` (such a request may rightly change something)."""
    return bool(re.fullmatch(r"[0-9]{1,18}", text)) and int(text) == value


@pytest.fixture
def staff(make_member):
    return make_member("boss", is_staff=True, is_superuser=True)


@pytest.fixture
def ann(make_member):
    return make_member("ann")


@pytest.fixture
def finished(ann) -> Table:
    """A Hawk table (ann and three bots) whose first round is over."""
    return finished_table("hawk", [ann], bots=3)


@FEW
@given(raw=TEXT)
@odd_examples
def test_a_move_with_any_version_text_is_refused_never_a_500(ann, make_member, raw) -> None:
    if not Table.objects.exists():  # the same running table for every example: nothing may change it
        full_table("hawsker", [ann, make_member("bob")])
    table = Table.objects.get()
    seat = seat_to_act(table)
    mover = Seat.objects.get(table=table, position=seat).user
    assume(not plain_number(raw, table.version))
    moves = Move.objects.count()
    response = client_for(mover).post(reverse("move", args=[table.code]),
                                      {"move": legal_for(table, seat)[0], "version": raw}, **HTMX)
    assert response.status_code in (400, 409)  # no version, or a stale one: both refused
    if not re.fullmatch(r"[0-9]{1,18}", raw):
        assert response.status_code == 400 and "reload the page" in response.content.decode()
    assert Move.objects.count() == moves
    assert Table.objects.get(pk=table.pk).version == table.version


@FEW
@given(raw=TEXT)
@odd_examples
def test_ready_with_any_version_text_changes_nothing(ann, finished, raw) -> None:
    table = Table.objects.get(pk=finished.pk)
    assume(not plain_number(raw, table.version))
    rounds = Round.objects.count()
    response = client_for(ann).post(reverse("ready", args=[table.code]), {"version": raw}, **HTMX)
    assert response.status_code in (400, 409)
    assert Round.objects.count() == rounds
    assert Table.objects.get(pk=table.pk).version == table.version


@FEW
@given(raw=TEXT)
@odd_examples
def test_removing_a_bot_from_any_position_text_is_refused_never_a_500(ann, raw) -> None:
    if not Table.objects.exists():
        add_bot(table_id=create_table(creator=ann, game="hawk", players=4).pk, user=ann)
    table = Table.objects.get()
    assume(not plain_number(raw, 1))
    response = client_for(ann).post(reverse("remove_bot", args=[table.code]), {"position": raw}, **HTMX)
    assert response.status_code == 400
    assert Seat.objects.filter(table=table, is_bot=True).count() == 1
    assert Table.objects.get(pk=table.pk).version == table.version


@FEW
@given(raw=TEXT)
@odd_examples
def test_a_replay_step_and_a_history_page_of_any_text_still_show(ann, finished, raw) -> None:
    rnd = Round.objects.get(match__table=finished, number=1)
    client = client_for(ann)
    assert client.get(reverse("round_replay", args=[rnd.pk]), {"step": raw}).status_code == 200
    assert client.get(reverse("round_replay", args=[rnd.pk]), {"step": raw}, **HTMX).status_code == 200
    assert client.get(reverse("my_history"), {"page": raw}).status_code == 200


def test_a_round_number_in_the_path_too_long_for_the_database_is_404(ann, staff) -> None:
    assert client_for(ann).get(reverse("round_replay", args=["9" * 40])).status_code == 404
    assert client_for(ann).get(reverse("fair_deal", args=["9" * 40])).status_code == 404
    assert client_for(staff).get(reverse("admin:tables_round_replay", args=["9" * 40])).status_code == 404


@SOME
@given(raw=TEXT)
@odd_examples
def test_admin_pages_read_any_number_text_without_a_500(finished, staff, raw) -> None:
    rnd = Round.objects.get(match__table=finished, number=1)
    client = client_for(staff)
    entries = LedgerEntry.objects.count()
    replay = client.get(reverse("admin:tables_round_replay", args=[rnd.pk]), {"step": raw})
    assert replay.status_code == 200
    for name in ("tables_ledgerentry", "tables_round", "tables_table", "tables_move", "tables_match"):
        response = client.get(reverse(f"admin:{name}_changelist"), {"member": raw})
        assert response.status_code < 500, name
    for key in ("round", "in_person"):
        assert client.get(reverse("admin:tables_ledgerentry_correct"), {key: raw}).status_code < 500
        response = client.post(reverse("admin:tables_ledgerentry_correct"), {key: raw, "reason": "typo"})
        assert response.status_code < 500
    assert LedgerEntry.objects.count() == entries


@FEW
@given(raw=TEXT)
@odd_examples
def test_a_correction_of_any_amount_text_is_refused_never_a_500(finished, staff, raw) -> None:
    assume(not re.fullmatch(r"\s*-?[0-9]{1,9}\s*", raw))  # an ordinary amount makes a correction
    rnd = Round.objects.get(match__table=finished, number=1)
    standing = list(LedgerEntry.objects.filter(round=rnd).order_by("seat"))
    amounts = {f"amount_{entry.pk}": str(entry.amount) for entry in standing}
    entries = LedgerEntry.objects.count()
    response = client_for(staff).post(
        reverse("admin:tables_ledgerentry_correct"),
        {"round": str(rnd.pk), "reason": "typo", **amounts, f"amount_{standing[0].pk}": raw},
    )
    assert response.status_code < 500
    assert LedgerEntry.objects.count() == entries


def spaced_number(text: str) -> bool:
    """Digits with surrounding spaces: what a number box may rightly send."""
    return bool(re.fullmatch(r"\s*-?[0-9]{1,9}\s*", text))


@SOME
@given(raw=TEXT)
@odd_examples
@example("\uff16\uff10")  # sixty in full-width digits: not sixty seconds
def test_a_new_table_form_with_any_number_text_is_refused_never_a_500(ann, raw) -> None:
    assume(not spaced_number(raw))
    client = client_for(ann)
    seconds = client.post(reverse("create_table"), {"game": "hawk", "players": "4", "turn_seconds": raw,
                                                     "opt_rounds": "0"})
    option = client.post(reverse("create_table"), {"game": "hawk", "players": "4", "turn_seconds": "60",
                                                    "opt_rounds": raw})
    players = client.post(reverse("create_table"), {"game": "hawk", "players": raw, "turn_seconds": "60",
                                                     "opt_rounds": "0"})
    assert seconds.status_code == option.status_code == players.status_code == 400
    assert not Table.objects.exists()


@FEW
@given(raw=TEXT)
@odd_examples
def test_quick_play_with_any_number_text_is_refused_never_a_500(ann, raw) -> None:
    assume(raw.strip() not in ("", "2", "3", "4", "5", "6", "7", "any", "30", "60", "120", "300"))
    client = client_for(ann)
    assert client.post(reverse("quick_join"), {"game": "hawk", "players": raw}, **HTMX).status_code == 400
    assert client.post(reverse("quick_join"), {"game": "hawk", "players": "4", "bots_after": raw},
                       **HTMX).status_code == 400
    assert not QueueRequest.objects.exists()


@SOME
@given(raw=TEXT)
@odd_examples
@example("\uff17\uff15")  # 75 in full-width digits
def test_an_in_person_result_with_any_number_text_is_refused_never_a_500(make_member, staff, raw) -> None:
    assume(not spaced_number(raw))
    for name in ("ann", "ben", "cat", "dan"):
        if not User.objects.filter(username=name).exists():
            make_member(name)
    client = client_for(staff)
    hand = {"kind": "hand", "players": "ann ben cat", "picker": "ann", "partner": "", "picker_points": "75",
            "stake_cents": "100"}
    for field in ("picker_points", "stake_cents"):
        response = client.post(reverse("admin:tables_inpersonrecord_sheepshead"), {**hand, field: raw})
        assert response.status_code == 200, field
    leaster = {"kind": "leaster", "players": "ann ben cat", "leaster_points": f"{raw} 60 60",
               "leaster_tricks": "0 3 3", "stake_cents": "100"}
    assert client.post(reverse("admin:tables_inpersonrecord_sheepshead"), leaster).status_code == 200
    hawk = {"players": "ann ben cat dan", "lafh": "ann cat", "lafh_pips": "151", "nob_pips": ""}
    for field in ("lafh_pips", "nob_pips"):
        if field == "nob_pips" and not raw.strip():
            continue  # no NOB pips at four players is a complete result
        response = client.post(reverse("admin:tables_inpersonrecord_hawk"), {**hawk, field: raw})
        assert response.status_code == 200, field
    assert not LedgerEntry.objects.exists()


# The parser itself.

@pytest.mark.parametrize("raw", [
    *ODD, None, " 1", "1 ", "+1", "1_000", "1.0", "0x1", "1e3", "٣", "--1", "-",
    "\U0001d7d9",  # a mathematical one
])
def test_only_ascii_digits_make_a_number(raw) -> None:
    assert whole_number(raw) is None
    assert whole_number(raw, low=-LARGEST_INT) is None or raw == "-1"


@pytest.mark.parametrize(("raw", "kwargs", "expected"), [
    ("0", {}, 0),
    ("7", {}, 7),
    ("007", {}, 7),
    (str(LARGEST_INT), {}, LARGEST_INT),
    (str(LARGEST_INT + 1), {}, None),
    ("5", {"low": 1, "high": 4}, None),
    ("0", {"low": 1}, None),
    ("-3", {"low": -10}, -3),
    ("-11", {"low": -10}, None),
    ("-0", {"low": -10}, 0),
    (str(LARGEST_ID), {"high": LARGEST_ID}, LARGEST_ID),
    ("1" + "0" * 19, {"high": 10**30}, None),  # more digits than any database integer: not even read
])
def test_numbers_within_bounds(raw, kwargs, expected) -> None:
    assert whole_number(raw, **kwargs) == expected


def test_a_record_id_is_a_positive_big_integer() -> None:
    assert record_id("42") == 42
    assert record_id("0") is None
    assert record_id(str(LARGEST_ID)) == LARGEST_ID
    assert record_id(str(LARGEST_ID + 1)) is None
    assert record_id("²") is None and record_id(None) is None


@settings(max_examples=200, deadline=None)
@given(raw=st.text())
@odd_examples
def test_any_text_is_none_or_exactly_the_ascii_number_it_spells(raw) -> None:
    value = whole_number(raw, low=-LARGEST_INT)
    if value is not None:
        assert re.fullmatch(r"-?[0-9]+", raw) and int(raw) == value and abs(value) <= LARGEST_INT


@given(value=st.integers(min_value=-LARGEST_INT, max_value=LARGEST_INT))
def test_every_number_in_bounds_reads_back(value) -> None:
    assert whole_number(str(value), low=-LARGEST_INT) == value
    assert whole_number(str(value)) == (value if value >= 0 else None)


@pytest.mark.parametrize("amount", ["١٢", "\uff11", "²", 10**40, str(10**40)])
def test_the_correction_service_reads_amounts_the_same_way(finished, staff, amount) -> None:
    from tables.ledger.services.ledger import LedgerError, correct_entries

    first = LedgerEntry.objects.filter(round__match__table=finished).order_by("seat").first()
    entries = LedgerEntry.objects.count()
    with pytest.raises(LedgerError):
        correct_entries(admin=staff, reason="typo", changes={first.pk: amount})
    assert LedgerEntry.objects.count() == entries
