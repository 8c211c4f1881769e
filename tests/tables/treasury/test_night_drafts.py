"""A club night's sheet as a draft on the server: entered by two treasurers in turn, stale edits refused, rows
changed, inserted at the paper's number, voided, and signed off once (tables.treasury.services.nights)."""

from __future__ import annotations

import pytest

from rules.engine import sheepshead
from tables.models import ClubNight, DraftRow, InPersonRecord, LedgerEntry, NightDraft
from tables.treasury.selectors.nights import open_sheets
from tables.treasury.services import nights

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]


@pytest.fixture
def tess(make_member):
    return make_member("tess", display_name="Tess", is_staff=True)


@pytest.fixture
def theo(make_member):
    return make_member("theo", display_name="Theo", is_staff=True)


@pytest.fixture
def players(make_member):
    return [make_member(name, display_name=name.title()) for name in NAMES]


@pytest.fixture
def draft(tess, players) -> NightDraft:
    return nights.open_sheet(admin=tess, game="sheepshead", played_on=None, players=players, stake_cents=100)


def picked(players, picker: int, points: int, partner: int | None = None) -> dict[str, str]:
    return {"picker": str(players[picker].pk), "partner": "" if partner is None else str(players[partner].pk),
            "points": str(points), "leaster_points": "", "leaster_tricks": ""}


def fresh(draft: NightDraft) -> NightDraft:
    """The draft as another request (another device) reads it: from the database, nothing kept in memory."""
    return NightDraft.objects.get(token=draft.token)


def numbers(draft: NightDraft) -> list[tuple[int, str]]:
    return [(row.number, row.data["points"]) for row in DraftRow.objects.filter(draft=draft).order_by("number")]


def test_a_sheet_is_a_database_row_another_treasurer_carries_on_with(draft, tess, theo, players) -> None:
    nights.add_row(admin=tess, draft=draft, version=1, members=players, row=picked(players, 0, 75, 1))
    nights.add_row(admin=tess, draft=draft, version=2, members=players, row=picked(players, 2, 61))
    # Another device, another treasurer: only what the database holds.
    theirs = fresh(draft)
    assert theirs.version == 3 and theirs.created_by == tess and theirs.updated_by == tess
    listed = open_sheets()
    assert [(s.draft.token, s.hands, [p.username for p in s.players]) for s in listed] == [
        (draft.token, 2, NAMES)]
    nights.add_row(admin=theo, draft=theirs, version=3, members=players, row=picked(players, 3, 90))
    nights.change_row(admin=theo, draft=theirs, version=4, members=players, number=1, row=picked(players, 0, 95, 1))
    rows = list(DraftRow.objects.filter(draft=draft).order_by("number"))
    assert [(r.number, r.entered_by.username, r.changed_by.username if r.changed_by else None) for r in rows] == [
        (1, "tess", "theo"), (2, "tess", None), (3, "theo", None)]
    assert rows[0].data["points"] == "95" and rows[0].changed_at is not None
    again = fresh(draft)
    assert again.version == 5 and again.updated_by == theo
    assert open_sheets()[0].draft.updated_by == theo


def test_a_stale_edit_is_refused_naming_who_changed_the_sheet_and_changes_nothing(draft, tess, theo, players):
    laptop = fresh(draft)
    phone = fresh(draft)
    nights.add_row(admin=tess, draft=laptop, version=laptop.version, members=players, row=picked(players, 0, 75))
    before = numbers(draft)
    stale_version = phone.version  # the phone's page was loaded before the laptop's hand
    with pytest.raises(nights.StaleSheet, match=r"Tess changed this sheet at .* after your page was loaded"):
        nights.add_row(admin=theo, draft=phone, version=stale_version, members=players, row=picked(players, 1, 90))
    for change in (
        lambda: nights.change_row(admin=theo, draft=phone, version=stale_version, members=players, number=1,
                                  row=picked(players, 1, 30)),
        lambda: nights.void_row(admin=theo, draft=phone, version=stale_version, number=1),
        lambda: nights.remove_row(admin=theo, draft=phone, version=stale_version, number=1),
        lambda: nights.insert_row(admin=theo, draft=phone, version=stale_version, members=players, number=1,
                                  row=picked(players, 1, 30)),
        lambda: nights.save_night(admin=theo, draft=phone, version=stale_version, members=players),
        lambda: nights.add_row(admin=theo, draft=phone, version=None, members=players, row=picked(players, 1, 90)),
    ):
        with pytest.raises(nights.StaleSheet):
            change()
    assert numbers(draft) == before and fresh(draft).version == 2 and fresh(draft).updated_by == tess
    assert not DraftRow.objects.filter(void=True).exists() and ClubNight.objects.count() == 0
    # Shown the sheet as it is now, the phone may make its change again.
    nights.add_row(admin=theo, draft=phone, version=2, members=players, row=picked(players, 1, 90))
    assert numbers(draft) == [(1, "75"), (2, "90")]


def test_rows_keep_the_papers_numbers_and_a_missed_hand_goes_where_it_belongs(draft, tess, players) -> None:
    version = draft.version
    for points in ("61", "62", "64", "65"):  # the paper's 3 ("63") was missed: 64 and 65 went in as 3 and 4
        nights.add_row(admin=tess, draft=draft, version=version, members=players, row=picked(players, 0, int(points)))
        version += 1
    nights.add_row(admin=tess, draft=draft, version=version, members=players, row=picked(players, 0, 70), number=10)
    version += 1  # the paper's 10, typed with its number: 5 to 9 are still to come
    assert numbers(draft) == [(1, "61"), (2, "62"), (3, "64"), (4, "65"), (10, "70")]
    nights.insert_row(admin=tess, draft=draft, version=version, members=players, number=3,
                      row=picked(players, 0, 63))
    version += 1
    # 3 and 4 moved up by one, stopping at the gap: 10 already carried the paper's number.
    assert numbers(draft) == [(1, "61"), (2, "62"), (3, "63"), (4, "64"), (5, "65"), (10, "70")]
    nights.insert_row(admin=tess, draft=draft, version=version, members=players, number=7,
                      row=picked(players, 0, 67))
    version += 1  # a free number: nothing moves
    assert numbers(draft) == [(1, "61"), (2, "62"), (3, "63"), (4, "64"), (5, "65"), (7, "67"), (10, "70")]
    with pytest.raises(nights.NightError, match="Hand 4 is already on the sheet"):
        nights.add_row(admin=tess, draft=draft, version=version, members=players, row=picked(players, 0, 80),
                       number=4)
    with pytest.raises(nights.NightError, match="from 1 to 999, not 0"):
        nights.add_row(admin=tess, draft=draft, version=version, members=players, row=picked(players, 0, 80),
                       number=0)
    nights.change_row(admin=tess, draft=draft, version=version, members=players, number=7,
                      row=picked(players, 0, 66), new_number=6)
    version += 1
    with pytest.raises(nights.NightError, match="Hand 5 is already on the sheet"):
        nights.change_row(admin=tess, draft=draft, version=version, members=players, number=6,
                          row=picked(players, 0, 66), new_number=5)
    assert numbers(draft) == [(1, "61"), (2, "62"), (3, "63"), (4, "64"), (5, "65"), (6, "66"), (10, "70")]
    assert fresh(draft).version == version


def test_a_voided_hand_stays_numbered_counts_nothing_and_is_not_booked(draft, tess, theo, players) -> None:
    for number, points in enumerate((75, 30, 95), 1):
        nights.add_row(admin=tess, draft=draft, version=number, members=players,
                       row=picked(players, number - 1, points))
    nights.void_row(admin=theo, draft=draft, version=4, number=2, reason="misdeal, played again")
    row = DraftRow.objects.get(draft=draft, number=2)
    assert row.void and row.void_reason == "misdeal, played again" and row.changed_by == theo
    assert open_sheets()[0].hands == 2 and open_sheets()[0].voided == 1
    nights.void_row(admin=theo, draft=draft, version=5, number=2, void=False)
    assert not DraftRow.objects.get(draft=draft, number=2).void
    nights.void_row(admin=theo, draft=draft, version=6, number=2)
    saved = nights.save_night(admin=theo, draft=draft, version=7, members=players)
    assert saved.created
    records = list(saved.night.hands.order_by("number"))
    assert [r.number for r in records] == [1, 3]  # the paper's numbers; 2 was void
    expected = [a + b for a, b in zip(sheepshead.settle(players=5, picker=0, partner=None, picker_points=75),
                                      sheepshead.settle(players=5, picker=2, partner=None, picker_points=95),
                                      strict=True)]
    booked = [sum(LedgerEntry.objects.filter(member=p).values_list("amount", flat=True)) for p in players]
    assert booked == expected
    assert DraftRow.objects.filter(draft=draft).count() == 3  # the sheet as entered stays, void row included


def test_signing_off_books_once_and_locks_the_sheet(draft, tess, theo, players) -> None:
    nights.add_row(admin=tess, draft=draft, version=1, members=players, row=picked(players, 0, 75, 1))
    laptop, phone = fresh(draft), fresh(draft)
    first = nights.save_night(admin=theo, draft=phone, version=2, members=players)
    assert first.created and first.night.token == draft.token and first.night.recorded_by == theo
    signed = fresh(draft)
    assert signed.night == first.night and signed.signed_off_by == theo and signed.signed_off_at is not None
    counts = (ClubNight.objects.count(), InPersonRecord.objects.count(), LedgerEntry.objects.count())
    second = nights.save_night(admin=tess, draft=laptop, version=2, members=players)  # the laptop's late save
    assert not second.created and second.night == first.night
    assert (ClubNight.objects.count(), InPersonRecord.objects.count(), LedgerEntry.objects.count()) == counts
    version = signed.version
    for change in (
        lambda: nights.add_row(admin=tess, draft=laptop, version=version, members=players, row=picked(players, 1, 61)),
        lambda: nights.change_row(admin=tess, draft=laptop, version=version, members=players, number=1,
                                  row=picked(players, 1, 61)),
        lambda: nights.void_row(admin=tess, draft=laptop, version=version, number=1),
        lambda: nights.remove_row(admin=tess, draft=laptop, version=version, number=1),
    ):
        with pytest.raises(nights.SheetSignedOff) as refused:
            change()
        assert refused.value.night == first.night
    assert numbers(draft) == [(1, "75")] and not DraftRow.objects.filter(void=True).exists()
    assert open_sheets() == []


def test_a_sheet_of_void_hands_only_has_nothing_to_save(draft, tess, players) -> None:
    nights.add_row(admin=tess, draft=draft, version=1, members=players, row=picked(players, 0, 75))
    nights.void_row(admin=tess, draft=draft, version=2, number=1)
    with pytest.raises(nights.NightError, match="no hands yet"):
        nights.save_night(admin=tess, draft=draft, version=3, members=players)
    assert ClubNight.objects.count() == 0 and fresh(draft).night is None and fresh(draft).version == 3


@pytest.mark.parametrize("row,fields", [
    ({"picker": "leaster", "points": "75", "leaster_points": "0 30 30 30 30", "leaster_tricks": "0 1 1 2 2"},
     "“Picker's points”"),
    ({"picker": "leaster", "partner": "PARTNER", "points": "75", "leaster_points": "0 30 30 30 30",
      "leaster_tricks": "0 1 1 2 2"}, "“Partner”, “Picker's points”"),
    ({"picker": "PICKER", "points": "75", "leaster_points": "0 30 30 30 30"}, "“Leaster: points”"),
    ({"picker": "PICKER", "points": "75", "leaster_tricks": "1"}, "“Leaster: tricks”"),
])
def test_contradictory_rows_are_refused_naming_the_fields(draft, tess, players, row, fields) -> None:
    row = {key: str(players[1].pk) if value == "PARTNER" else str(players[0].pk) if value == "PICKER" else value
           for key, value in row.items()}
    with pytest.raises(nights.NightError) as refused:
        nights.add_row(admin=tess, draft=draft, version=1, members=players, row=row)
    assert fields in str(refused.value)
    assert fresh(draft).version == 1 and not DraftRow.objects.exists()


def test_a_contradictory_row_stored_before_blocks_the_sign_off_by_its_number(draft, tess, players) -> None:
    nights.add_row(admin=tess, draft=draft, version=1, members=players, row=picked(players, 0, 75))
    DraftRow.objects.filter(draft=draft).update(data={**picked(players, 0, 75), "leaster_points": "1 2 3"})
    with pytest.raises(nights.NightError, match="Hand 1: A picked hand is no leaster"):
        nights.save_night(admin=tess, draft=draft, version=2, members=players)
    assert ClubNight.objects.count() == 0 and LedgerEntry.objects.count() == 0


def test_hawk_rows_that_contradict_themselves_are_refused(tess, players) -> None:
    hawk = nights.open_sheet(admin=tess, game="hawk", played_on=None, players=players[:4])
    solo_and_two = {"lafh_1": str(players[0].pk), "lafh_2": str(players[1].pk), "solo": True, "lafh_pips": "150"}
    with pytest.raises(nights.NightError, match=r"Solo means one LAFH player: leave “LAFH \(last trick\)” empty"):
        nights.add_row(admin=tess, draft=hawk, version=1, members=players[:4], row=solo_and_two)
    second_only = {"lafh_1": "", "lafh_2": str(players[1].pk), "solo": False, "lafh_pips": "150"}
    with pytest.raises(nights.NightError, match=r"“LAFH \(last trick\)” is filled but “LAFH \(first trick\)”"):
        nights.add_row(admin=tess, draft=hawk, version=1, members=players[:4], row=second_only)
    assert not DraftRow.objects.exists()


def test_options_pass_through_to_the_saved_night(tess, players) -> None:
    """The night's house rules (from the opening form) are kept as given beside the stake, and booked with it."""
    draft = nights.open_sheet(admin=tess, game="sheepshead", played_on=None, players=players[:3], stake_cents=50,
                              house={"schneider": "thirty_or_less"})
    assert fresh(draft).options == {"schneider": "thirty_or_less", "stake_cents": 50}
    nights.add_row(admin=tess, draft=draft, version=1, members=players[:3], row=picked(players, 0, 75))
    saved = nights.save_night(admin=tess, draft=draft, version=2, members=players[:3])
    assert saved.night.options == {"schneider": "thirty_or_less", "stake_cents": 50}


def test_only_staff_change_a_sheet(draft, players) -> None:
    with pytest.raises(nights.NotAllowed):
        nights.add_row(admin=players[0], draft=draft, version=1, members=players, row=picked(players, 0, 75))
    assert not DraftRow.objects.exists()
