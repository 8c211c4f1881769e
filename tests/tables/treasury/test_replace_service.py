"""Replacing a recorded in-person hand in one step (tables.treasury.services.replace): the old record's entries are
reversed and the new ones written together, balances stay sums of entries, money sums to zero, and nonsense,
a second replacement and non-staff are refused with nothing written."""

from __future__ import annotations

from datetime import date

import pytest
from django.db.models import Sum

from tables.ledger.selectors import member_history, standings
from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand
from tables.ledger.services.ledger import LedgerError, correct_entries
from tables.models import InPersonRecord, LedgerEntry
from tables.play.services.errors import NotAllowed
from tables.treasury.services.replace import (
    AlreadyReplaced,
    ReplaceError,
    preview_replacement,
    replace_in_person_record,
)

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]
HAND = "sheepshead_hand"


@pytest.fixture
def treasurer(make_member):
    return make_member("treasurer", is_staff=True, display_name="Tess")


def balance(member, game: str = "sheepshead") -> int:
    return LedgerEntry.objects.filter(member=member, game=game).aggregate(t=Sum("amount"))["t"] or 0


def hand_facts(players, picker="ann", partner="ben", points=75, stake=100, played_on=None):
    return {"players": players, "picker": picker, "partner": partner, "picker_points": points, "stake_cents": stake,
            "played_on": played_on, "note": ""}


def recorded(treasurer, players=None, **kw):
    return record_sheepshead_hand(admin=treasurer, players=players or NAMES[:5], picker=kw.get("picker", "ann"),
                                  partner=kw.get("partner", "ben"), picker_points=kw.get("points", 75),
                                  played_on=date(2024, 3, 1))


def test_a_wrong_member_replaced_gives_the_old_one_back_and_charges_the_new_one(treasurer, club) -> None:
    old = recorded(treasurer, players=["ann", "ben", "cat", "dan", "eve"])
    assert balance(club["eve"]) == -100 and balance(club["fay"]) == 0
    new = replace_in_person_record(admin=treasurer, record_id=old.pk, reason="Fay sat there, not Eve", kind=HAND,
                                   facts=hand_facts(["ann", "ben", "cat", "dan", "fay"], played_on=date(2024, 3, 1)))
    assert balance(club["eve"]) == 0  # back where she was before the wrong hand
    assert balance(club["fay"]) == -100
    assert [balance(club[n]) for n in ("ann", "ben", "cat", "dan")] == [200, 100, -100, -100]
    assert new.replaces == old and new.reason == "Fay sat there, not Eve" and new.recorded_by == treasurer
    assert new.played_on == date(2024, 3, 1)
    reversals = list(LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REVERSAL).order_by("seat"))
    assert len(reversals) == 5
    results = {e.seat: e for e in old.ledger_entries.filter(kind=LedgerEntry.Kind.RESULT)}
    for reversal in reversals:
        assert reversal.in_person == old and reversal.reverses == results[reversal.seat]
        assert reversal.amount == -results[reversal.seat].amount
        assert reversal.made_by == treasurer and reversal.reason == "Fay sat there, not Eve"
    # The old record's rows are untouched: its results are still there, as first written.
    assert sorted(old.ledger_entries.filter(kind="result").values_list("amount", flat=True)) == [-100, -100, -100,
                                                                                                  100, 200]


def test_changed_picker_points_and_every_record_and_pair_sums_to_zero(treasurer, club) -> None:
    old = recorded(treasurer, points=75)  # won: ann +200, ben +100, others -100
    new = replace_in_person_record(admin=treasurer, record_id=old.pk, reason="It was 59, a loss (rate -2)", kind=HAND,
                                   facts=hand_facts(NAMES[:5], points=59))
    assert list(new.ledger_entries.order_by("seat").values_list("amount", flat=True)) == [-400, -200, 200, 200, 200]
    assert [balance(club[n]) for n in NAMES[:5]] == [-400, -200, 200, 200, 200]
    for record in (old, new):
        assert record.ledger_entries.aggregate(t=Sum("amount"))["t"] == 0
        assert record.ledger_entries.filter(kind="result").aggregate(t=Sum("amount"))["t"] == 0
    pair = LedgerEntry.objects.filter(in_person__in=[old, new]).exclude(kind="result", in_person=old)
    assert pair.aggregate(t=Sum("amount"))["t"] == 0


def test_a_hand_can_become_a_leaster(treasurer, club) -> None:
    old = recorded(treasurer)
    new = replace_in_person_record(
        admin=treasurer, record_id=old.pk, reason="Nobody picked", kind="sheepshead_leaster",
        facts={"players": NAMES[:5], "points": [10, 30, 0, 40, 40], "tricks": [1, 2, 0, 1, 2], "stake_cents": 100,
               "played_on": None, "note": ""})
    assert new.kind == "sheepshead_leaster"
    assert [balance(club[n]) for n in NAMES[:5]] == [400, -100, -100, -100, -100]


def test_hawk_rounds_are_replaced_in_points(treasurer, club) -> None:
    old = record_hawk_round(admin=treasurer, players=NAMES[:4], lafh=["ann", "cat"], solo=False, lafh_pips=151)
    assert [balance(club[n], "hawk") for n in NAMES[:4]] == [8, 0, 8, 0]
    new = replace_in_person_record(
        admin=treasurer, record_id=old.pk, reason="LAFH was Ben and Dan", kind="hawk_round",
        facts={"players": NAMES[:4], "lafh": ["ben", "dan"], "solo": False, "lafh_pips": 69, "nob_pips": 151,
               "lafh_bonuses": [], "nob_bonuses": [], "played_on": None, "note": ""})
    assert new.game == "hawk" and {e.unit for e in LedgerEntry.objects.all()} == {"points"}
    assert [balance(club[n], "hawk") for n in NAMES[:4]] == [0, -12, 0, -12]
    # Hawk's points stay in Hawk: Sheepshead money is untouched.
    assert not LedgerEntry.objects.filter(game="sheepshead").exists()


def test_the_preview_writes_nothing_and_shows_old_and_new_per_member(treasurer, club) -> None:
    old = recorded(treasurer, players=["ann", "ben", "cat", "dan", "eve"])
    before = LedgerEntry.objects.count(), InPersonRecord.objects.count()
    comparison = preview_replacement(admin=treasurer, record_id=old.pk, kind=HAND,
                                     facts=hand_facts(["ann", "ben", "cat", "dan", "fay"]))
    assert (LedgerEntry.objects.count(), InPersonRecord.objects.count()) == before
    lines = {line.name: line for line in comparison.lines}
    assert [line.name for line in comparison.lines] == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    assert (lines["Eve"].old, lines["Eve"].new, lines["Eve"].in_new, lines["Eve"].difference) == (-100, 0, False, 100)
    assert (lines["Fay"].old, lines["Fay"].new, lines["Fay"].in_old, lines["Fay"].difference) == (0, -100, False, -100)
    assert lines["Ann"].difference == 0 and lines["Ann"].old_text == "+$2.00"
    assert comparison.totals == ("$0.00", "$0.00", "$0.00")


@pytest.mark.parametrize("facts, says", [
    (hand_facts(NAMES[:5], points=119), "cannot happen"),
    (hand_facts(NAMES[:5], picker="gus"), "must be one of the players"),
    (hand_facts(["ann", "ben", "cat"], partner="ben"), "no partner"),
    (hand_facts(NAMES[:5], played_on=date(2999, 1, 1)), "not come yet"),
])
def test_nonsense_is_refused_with_nothing_written(treasurer, club, facts, says) -> None:
    old = recorded(treasurer)
    before = LedgerEntry.objects.count(), InPersonRecord.objects.count()
    with pytest.raises(LedgerError, match=says):  # the recording services' own refusal
        replace_in_person_record(admin=treasurer, record_id=old.pk, reason="fix", kind=HAND, facts=facts)
    assert (LedgerEntry.objects.count(), InPersonRecord.objects.count()) == before


def test_a_reason_is_required_and_another_game_is_refused(treasurer, club) -> None:
    old = recorded(treasurer)
    with pytest.raises(ReplaceError, match="Say why"):
        replace_in_person_record(admin=treasurer, record_id=old.pk, reason="  ", kind=HAND, facts=hand_facts(NAMES[:5]))
    with pytest.raises(ReplaceError, match="Sheepshead result is replaced by another"):
        replace_in_person_record(admin=treasurer, record_id=old.pk, reason="x", kind="hawk_round", facts={})
    assert not InPersonRecord.objects.filter(replaces=old).exists()
    assert not LedgerEntry.objects.filter(kind="reversal").exists()


def test_a_replaced_record_is_not_replaced_again_and_points_to_the_newest(treasurer, club) -> None:
    old = recorded(treasurer)
    first = replace_in_person_record(admin=treasurer, record_id=old.pk, reason="points", kind=HAND,
                                     facts=hand_facts(NAMES[:5], points=80))
    second = replace_in_person_record(admin=treasurer, record_id=first.pk, reason="partner", kind=HAND,
                                      facts=hand_facts(NAMES[:5], points=80, partner="cat"))
    count = LedgerEntry.objects.count()
    with pytest.raises(AlreadyReplaced, match="replace the newest version instead") as refused:
        replace_in_person_record(admin=treasurer, record_id=old.pk, reason="again", kind=HAND,
                                 facts=hand_facts(NAMES[:5], points=90))
    assert refused.value.newest == second
    assert LedgerEntry.objects.count() == count
    assert [balance(club[n]) for n in NAMES[:5]] == [200, -100, 100, -100, -100]  # only the newest version counts


def test_only_staff_replace(club, make_member, treasurer) -> None:
    old = recorded(treasurer)
    with pytest.raises(NotAllowed):
        replace_in_person_record(admin=club["ann"], record_id=old.pk, reason="mine", kind=HAND,
                                 facts=hand_facts(NAMES[:5], points=120))
    assert InPersonRecord.objects.count() == 1


def test_a_record_corrected_entry_by_entry_has_its_current_net_reversed(treasurer, club) -> None:
    old = recorded(treasurer)
    ann, cat = (old.ledger_entries.get(seat=s) for s in (0, 2))
    correct_entries(admin=treasurer, reason="cat paid ann", changes={ann.pk: 300, cat.pk: -200})
    assert balance(club["ann"]) == 300
    comparison = preview_replacement(admin=treasurer, record_id=old.pk, kind=HAND, facts=hand_facts(NAMES[:5]))
    assert comparison.corrected_before and {line.name: line.old for line in comparison.lines}["Ann"] == 300
    replace_in_person_record(admin=treasurer, record_id=old.pk, reason="record it whole", kind=HAND,
                             facts=hand_facts(NAMES[:5], points=59))
    # Each seat of the old record nets to zero (its correction, not its reversed result, was reversed again).
    for member in club.values():
        assert old.ledger_entries.filter(member=member).aggregate(t=Sum("amount"))["t"] in (0, None)
    assert [balance(club[n]) for n in NAMES[:5]] == [-400, -200, 200, 200, 200]


def test_history_shows_the_reversal_and_the_new_entry_and_counts_the_hand_once(treasurer, club) -> None:
    old = recorded(treasurer)
    replace_in_person_record(admin=treasurer, record_id=old.pk, reason="It was 59", kind=HAND,
                             facts=hand_facts(NAMES[:5], points=59))
    history = member_history(user=club["ann"], game="sheepshead")
    whats = [row.what for row in history.rows]  # newest first
    assert whats[0].startswith("Ann with Ben took 59 points") and "replacing an earlier record" in whats[0]
    assert whats[1] == "Reversed by Tess: It was 59"
    assert whats[2].startswith("Ann with Ben took 75 points")
    assert [row.balance for row in history.rows] == [-400, 0, 200]
    line = history.balances[0]
    assert (line.rounds, line.closing) == (1, -400)
    # The member recorded by mistake played no hand at all.
    eve_old = recorded(treasurer, players=["ann", "ben", "cat", "dan", "eve"])
    replace_in_person_record(admin=treasurer, record_id=eve_old.pk, reason="Fay, not Eve", kind=HAND,
                             facts=hand_facts(["ann", "ben", "cat", "dan", "fay"]))
    eve = member_history(user=club["eve"], game="sheepshead")
    assert (eve.balances[0].rounds, eve.balances[0].closing) == (1, 200)  # the first hand only (59: she won $2)


def test_the_standings_count_a_replaced_hand_once(treasurer, club) -> None:
    old = recorded(treasurer, players=["ann", "ben", "cat", "dan", "eve"])
    replace_in_person_record(admin=treasurer, record_id=old.pk, reason="Fay, not Eve", kind=HAND,
                             facts=hand_facts(["ann", "ben", "cat", "dan", "fay"]))
    rows = {row.name: row for row in standings(game="sheepshead")}
    assert (rows["Ann"].hands, rows["Ann"].total) == (1, 200)
    assert (rows["Fay"].hands, rows["Fay"].total) == (1, -100)
    assert (rows["Eve"].hands, rows["Eve"].total) == (0, 0)
