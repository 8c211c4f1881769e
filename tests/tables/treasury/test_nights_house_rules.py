"""A club night's house rules (issue 42, item 9): chosen when the sheet is opened, kept in the night's options, priced
by the engine's scoring helpers through the in-person services, kept in each hand's facts so the hand re-prices from
its facts alone; the open-sheet form shows them with their labels and help."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules.engine import sheepshead
from tables.ledger.services import inperson
from tables.ledger.services.inperson import InPersonError
from tables.models import ClubNight, LedgerEntry, NightDraft
from tables.treasury.selectors.nights import night_hands
from tables.treasury.services import nights as service
from tables.treasury.services.books import check_books
from tables.treasury.services.nights import NightError
from tables.treasury.services.replace import replace_in_person_record
from tests.tables.treasury.night_support import sheet_rows, sheet_version

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]
HTMX = {"HTTP_HX_REQUEST": "true"}


def night_of(treasurer, members, rows, **house):
    """A sheet opened with these house rules, filled with `rows` and saved; the saved night."""
    draft = service.open_sheet(admin=treasurer, game="sheepshead", played_on=timezone.localdate(), players=members,
                               stake_cents=100, house=house)
    for row in rows:
        service.add_row(admin=treasurer, draft=draft, version=draft.version, members=members, row=row)
    return service.save_night(admin=treasurer, draft=draft, version=draft.version, members=members).night


def entries(night: ClubNight) -> list[dict[str, int]]:
    """What each hand of the night booked, per member's username, in hand order."""
    booked: list[dict[str, int]] = []
    for record in night.hands.order_by("number"):
        booked.append({e.member.username: e.amount for e in LedgerEntry.objects.filter(in_person=record)
                       .select_related("member")})
    return booked


def hand(members, picker: int, points: int, partner: int | None = None, **extra) -> dict:
    return {"picker": str(members[picker].pk), "partner": "" if partner is None else str(members[partner].pk),
            "points": str(points), "leaster_points": "", "leaster_tricks": "", **extra}


def test_a_night_of_the_seeds_rules_stores_only_its_stake(treasurer, club) -> None:
    members = [club[n] for n in NAMES[:3]]
    night = night_of(treasurer, members, [hand(members, 0, 30), hand(members, 0, 90)])
    assert night.options == {"stake_cents": 100}
    assert entries(night) == [{"ann": -400, "ben": 200, "cat": 200}, {"ann": 400, "ben": -200, "cat": -200}]
    assert all("house" not in r.facts and "cracks" not in r.facts for r in night.hands.all())


@pytest.mark.parametrize(("house", "points", "rate"), [
    ({"schneider": "seed"}, 30, -2),
    ({"schneider": "thirty_or_less"}, 30, -4),
    ({"schneider": "under_thirty"}, 90, 1),
    ({"schneider": "thirty_or_less"}, 90, 2),
    ({"bump": "single"}, 45, -1),
    ({"bump": "single"}, 0, -3),
    ({"bump": "single", "schneider": "thirty_or_less"}, 30, -2),
])
def test_each_house_rule_prices_the_nights_hands(treasurer, club, house, points, rate) -> None:
    members = [club[n] for n in NAMES[:4]]
    night = night_of(treasurer, members, [hand(members, 1, points)], **house)
    expected = sheepshead.settle(players=4, picker=1, partner=None, picker_points=points, stake_cents=100, **house)
    assert expected[0] == -rate * 100
    assert entries(night) == [dict(zip(NAMES[:4], expected, strict=True))]
    stored = {k: v for k, v in house.items() if not (k == "schneider" and v == "seed")}
    assert night.options == {"stake_cents": 100, **stored}
    record = night.hands.get()
    assert record.score["rate"] == rate
    assert inperson.price_from_facts(kind=record.kind, facts=record.facts).amounts == expected


def test_schwarz_by_tricks_asks_the_row(treasurer, club) -> None:
    members = [club[n] for n in NAMES[:5]]
    rows = [hand(members, 0, 0, partner=1),  # a zero-point trick taken: schneider, not schwarz
            hand(members, 0, 14, partner=1, no_trick="on"),  # the bury's 14 but no trick: schwarz
            hand(members, 2, 120, partner=3)]  # all the points, but the opponents took a trick of none
    night = night_of(treasurer, members, rows, schwarz="no_trick")
    assert [r.score["rate"] for r in night.hands.order_by("number")] == [-4, -6, 2]
    for record in night.hands.all():
        assert record.facts["house"] == {"schwarz": "no_trick"}
        assert inperson.price_from_facts(kind=record.kind, facts=record.facts).amounts == record.score["money"]
    with pytest.raises(InPersonError, match="all 120 points"):
        night_of(treasurer, members, [hand(members, 0, 100, no_trick="on")], schwarz="no_trick")
    # Whether the losers took a trick is not a fact on a night whose schwarz is taking no points.
    with pytest.raises(InPersonError, match="taking no points"):
        inperson.price_sheepshead_hand(players=members, picker="ann", partner=None, picker_points=0,
                                       losers_took_trick=False)


def test_cracking_doubles_and_recracking_doubles_again(treasurer, club) -> None:
    members = [club[n] for n in NAMES[:5]]
    rows = [hand(members, 0, 75, partner=2), hand(members, 0, 75, partner=2, cracked="on"),
            hand(members, 0, 75, partner=2, cracked="on", recracked="on")]
    night = night_of(treasurer, members, rows, cracking=True)
    plain = {"ann": 200, "ben": -100, "cat": 100, "dan": -100, "eve": -100}
    assert entries(night) == [plain, {k: 2 * v for k, v in plain.items()}, {k: 4 * v for k, v in plain.items()}]
    cracked = night.hands.get(number=3)
    assert cracked.facts["cracks"] == 2
    assert "re-cracked" in cracked.summary
    assert inperson.price_from_facts(kind=cracked.kind, facts=cracked.facts).amounts == [4 * v for v in plain.values()]


def test_cracks_are_refused_where_they_cannot_be(treasurer, club) -> None:
    members = [club[n] for n in NAMES[:5]]
    with pytest.raises(InPersonError, match="without cracking"):
        night_of(treasurer, members, [hand(members, 0, 75, cracked="on")])
    with pytest.raises(NightError, match="re-cracked"):
        night_of(treasurer, members, [hand(members, 0, 75, recracked="on")], cracking=True)
    leaster = {"picker": "leaster", "leaster_points": "0 30 30 30 30", "leaster_tricks": "0 2 1 1 2",
               "cracked": "on"}
    with pytest.raises(NightError, match="leaster"):
        night_of(treasurer, members, [leaster], cracking=True)
    assert not ClubNight.objects.exists()


def test_six_with_the_dealer_sitting_out(treasurer, club) -> None:
    members = [club[n] for n in NAMES]
    draft = service.open_sheet(admin=treasurer, game="sheepshead", played_on=timezone.localdate(), players=members,
                               stake_cents=100, house={"dealer_sits_out": True})
    assert draft.options == {"stake_cents": 100, "dealer_sits_out": True}

    def add(row: dict) -> None:
        service.add_row(admin=treasurer, draft=draft, version=draft.version, members=members, row=row)

    # Cat deals and sits out: the other five play, Ann picks with Dan.
    row = hand(members, 0, 75, partner=3, dealer=str(members[2].pk))
    add(row)
    assert draft.rows.get(number=1).data == row
    priced = service.price_row(draft=draft, members=members, row=row)
    assert [m.username for m in priced.members] == ["ann", "ben", "dan", "eve", "fay"]
    assert service.seat_amounts(members=members, priced=priced) == [200, -100, 0, 100, -100, -100]
    leaster = {"picker": "leaster", "leaster_points": "0 30 30 30 30", "leaster_tricks": "0 2 1 1 2",
               "dealer": str(members[0].pk)}
    add(leaster)
    with pytest.raises(NightError, match="who dealt"):
        add(hand(members, 0, 75))
    with pytest.raises(InPersonError, match="must be one of the players"):  # the dealer sat out
        add(hand(members, 0, 75, dealer=str(members[0].pk)))
    assert draft.rows.count() == 2  # the refused rows were not put on the sheet
    night = service.save_night(admin=treasurer, draft=draft, version=draft.version, members=members).night
    first, second = night.hands.order_by("number")
    assert first.facts["sat_out"] == "cat" and "cat" not in first.facts["players"]
    assert not LedgerEntry.objects.filter(in_person=first, member=members[2]).exists()
    assert second.facts["sat_out"] == "ann"
    assert sum(e.amount for e in LedgerEntry.objects.filter(in_person=second)) == 0
    for record in (first, second):
        assert inperson.price_from_facts(kind=record.kind, facts=record.facts).amounts == record.score["money"]
    with pytest.raises(NightError, match="6 or 7 players"):
        service.open_sheet(admin=treasurer, game="sheepshead", played_on=timezone.localdate(), players=members[:5],
                           stake_cents=100, house={"dealer_sits_out": True})


def test_house_rules_are_sheepsheads_and_known(treasurer, club) -> None:
    members = [club[n] for n in NAMES[:4]]
    with pytest.raises(NightError, match="Sheepshead's"):
        service.open_sheet(admin=treasurer, game="hawk", played_on=None, players=members, house={"cracking": True})
    with pytest.raises(NightError, match="not one the club knows"):
        service.open_sheet(admin=treasurer, game="sheepshead", played_on=None, players=members, stake_cents=100,
                           house={"schneider": "twenty"})


def test_the_open_sheet_form_offers_the_house_rules(staff_client: Client, club) -> None:
    url = reverse("treasury_night_new")
    page = staff_client.get(url).content.decode()
    for label in ("House rule (Sheepshead): Schneider", "House rule (Sheepshead): Schwarz",
                  "House rule (Sheepshead): Losing picker", "House rule (Sheepshead): Cracking",
                  "House rule (Sheepshead): Dealer sits out", "30 or fewer is schneider (each side needs 31)",
                  "a picker with 30 points loses 2 stakes"):
        assert label in page, label
    assert re.search(r'<option value="seed" selected>', page)
    form = {"game": "sheepshead", "played_on": timezone.localdate().isoformat(), "stake_cents": "50",
            "house_schneider": "thirty_or_less", "house_cracking": "on",
            **{f"seat_{n}": name for n, name in enumerate(NAMES[:5], 1)}}
    response = staff_client.post(url, form)
    assert response.status_code == 302
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert NightDraft.objects.get(token=token).options == {
        "stake_cents": 50, "schneider": "thirty_or_less", "cracking": True}
    sheet = staff_client.get(response["Location"]).content.decode()
    assert "House rules of this night:" in sheet and "Schneider: 30 or fewer is schneider" in sheet
    assert 'name="cracked"' in sheet and 'name="recracked"' in sheet and 'name="dealer"' not in sheet
    ann = club["ann"]
    answer = staff_client.post(reverse("treasury_night_row", args=[token]),
                               {"version": sheet_version(token), "picker": str(ann.pk), "points": "30",
                                "cracked": "on"}, **HTMX).content.decode()
    assert "errornote" not in answer
    # Alone against four, 30 points is schneider tonight (rate -4), cracked doubles the 50 cents: 4 x 4 x 100.
    assert f'data-member="{ann.pk}" data-amount="-1600"' in answer
    saved = staff_client.post(reverse("treasury_night_save", args=[token]), {"version": sheet_version(token)})
    night = ClubNight.objects.get()
    assert saved["Location"] == reverse("treasury_night", args=[night.pk])
    detail = staff_client.get(saved["Location"]).content.decode()
    assert "Cracking: yes" in detail


def test_a_form_without_house_rules_opens_a_night_of_the_seeds_rules(staff_client: Client, club) -> None:
    form = {"game": "sheepshead", "played_on": timezone.localdate().isoformat(), "stake_cents": "100",
            **{f"seat_{n}": name for n, name in enumerate(NAMES[:3], 1)}}
    response = staff_client.post(reverse("treasury_night_new"), form)
    assert response.status_code == 302
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert NightDraft.objects.get(token=token).options == {"stake_cents": 100}


def test_a_replacement_keeps_the_hands_house_rules(treasurer, club) -> None:
    members = [club[n] for n in NAMES]
    rows = [hand(members, 0, 30, partner=3, dealer=str(members[2].pk), cracked="on")]
    night = night_of(treasurer, members, rows, dealer_sits_out=True, cracking=True, schneider="thirty_or_less")
    old = night.hands.get()
    assert old.score["rate"] == -4
    new = replace_in_person_record(
        admin=treasurer, record_id=old.pk, reason="the picker had 31", kind="sheepshead_hand",
        facts={"players": ["ann", "ben", "dan", "eve", "fay"], "picker": "ann", "partner": "dan",
               "picker_points": 31, "stake_cents": 100},
    )
    assert new.facts["house"] == {"schneider": "thirty_or_less", "cracking": True, "dealer_sits_out": True}
    assert new.facts["cracks"] == 1 and new.facts["sat_out"] == "cat"
    assert new.score["money"] == sheepshead.settle(players=5, picker=0, partner=2, picker_points=31, stake_cents=100,
                                                   schneider="thirty_or_less", cracks=1)


def test_players_join_and_leave_during_the_night(treasurer, club) -> None:
    members = [club[n] for n in NAMES]
    fay, ann = str(members[5].pk), str(members[0].pk)
    rows = [hand(members, 0, 75, partner=1, away=[fay]),  # Fay has not come yet: five play
            hand(members, 0, 75, partner=1),  # Fay is here: six play
            hand(members, 1, 75, partner=2, away=[ann])]  # Ann has gone home
    night = night_of(treasurer, members, rows, players_change=True)
    first, second, third = entries(night)
    assert first == {"ann": 200, "ben": 100, "cat": -100, "dan": -100, "eve": -100}
    assert set(second) == set(NAMES) and sum(second.values()) == 0
    assert "ann" not in third and set(third) == set(NAMES) - {"ann"}
    detail_cells = [[c.amount for c in h.cells] for h in night_hands(night)[1]]
    assert detail_cells[0][5] is None and detail_cells[2][0] is None and None not in detail_cells[1]
    with pytest.raises(NightError, match="nobody is away"):
        night_of(treasurer, members, [hand(members, 0, 75, away=[fay])])
    with pytest.raises(InPersonError, match="3 to 7 players"):
        night_of(treasurer, members, [hand(members, 0, 75, away=[str(m.pk) for m in members[1:5]])],
                 players_change=True)


def test_a_sheets_away_players_stay_away_on_the_next_row(staff_client: Client, club) -> None:
    form = {"game": "sheepshead", "played_on": timezone.localdate().isoformat(), "stake_cents": "100",
            "house_players_change": "on", **{f"seat_{n}": name for n, name in enumerate(NAMES, 1)}}
    response = staff_client.post(reverse("treasury_night_new"), form)
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    fay = club["fay"]
    answer = staff_client.post(reverse("treasury_night_row", args=[token]),
                               {"version": sheet_version(token), "picker": str(club["ann"].pk), "points": "75",
                                "away": [str(fay.pk)]},
                               **HTMX).content.decode()
    assert "errornote" not in answer
    assert f'data-member="{fay.pk}" data-amount=""' in answer  # no entry: shown as a dash
    entry = answer[answer.index('id="entry"'):]
    assert re.search(rf'name="away" value="{fay.pk}"[^>]*checked', entry)


def test_a_night_of_cracks_sitting_dealers_and_comings_and_goings_through_the_sheets_pages(
        staff_client: Client, club) -> None:
    """The drafts' pages end to end with every house rule a row asks for: the dealer, who is away (carried to the
    next row's form), the crack boxes; what is booked is what the engine pays the hand's own players."""
    form = {"game": "sheepshead", "played_on": timezone.localdate().isoformat(), "stake_cents": "100",
            "house_cracking": "on", "house_dealer_sits_out": "on", "house_players_change": "on",
            **{f"seat_{n}": name for n, name in enumerate(NAMES, 1)}}
    response = staff_client.post(reverse("treasury_night_new"), form)
    assert response.status_code == 302
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert NightDraft.objects.get(token=token).options == {
        "stake_cents": 100, "cracking": True, "dealer_sits_out": True, "players_change": True}
    pk = {name: str(club[name].pk) for name in NAMES}
    row_url = reverse("treasury_night_row", args=[token])

    def post_row(row: dict) -> str:
        answer = staff_client.post(row_url, {"version": sheet_version(token), **row}, **HTMX).content.decode()
        assert "errornote" not in answer, answer[-3000:]
        return answer

    # 1: Fay has not come, Cat deals and sits out: Ann alone against Ben, Dan and Eve, cracked.
    answer = post_row({"dealer": pk["cat"], "picker": pk["ann"], "points": "75", "away": [pk["fay"]],
                       "cracked": "on"})
    first = sheepshead.settle(players=4, picker=0, partner=None, picker_points=75, stake_cents=100, cracks=1)
    row_html = answer[answer.index('data-number="1"'):answer.index('id="entry"')]
    assert f'data-member="{pk["ann"]}" data-amount="{first[0]}"' in row_html
    assert f'data-member="{pk["cat"]}" data-amount="0"' in row_html  # dealt, sat out
    assert f'data-member="{pk["fay"]}" data-amount=""' in row_html  # not come yet
    entry = answer[answer.index('id="entry"'):]
    assert re.search(rf'name="away" value="{pk["fay"]}"[^>]*checked', entry)  # Fay is still away on row 2
    assert not re.search(r'name="(cracked|recracked)"[^>]*checked', entry)  # a crack is one hand's
    # 2: still without Fay, Dan deals: Ben alone against Ann, Cat and Eve with 30, cracked and re-cracked.
    post_row({"dealer": pk["dan"], "picker": pk["ben"], "points": "30", "away": [pk["fay"]], "cracked": "on",
              "recracked": "on"})
    second = sheepshead.settle(players=4, picker=1, partner=None, picker_points=30, stake_cents=100, cracks=2)
    # 3: Fay has come, Eve deals: Cat with Fay against Ann, Ben and Dan with 61, not cracked.
    post_row({"dealer": pk["eve"], "picker": pk["cat"], "partner": pk["fay"], "points": "61"})
    third = sheepshead.settle(players=5, picker=2, partner=4, picker_points=61, stake_cents=100)
    # The refusals of a row that breaks the night's rules come back with the reason, and nothing is added.
    for bad, reason in (({"picker": pk["ann"], "points": "75"}, "who dealt"),
                        ({"dealer": pk["fay"], "picker": pk["ann"], "points": "75", "away": [pk["fay"]]},
                         "at the table"),
                        ({"dealer": pk["ben"], "picker": pk["ann"], "points": "75", "recracked": "on"},
                         "re-cracked")):
        refused = staff_client.post(row_url, {"version": sheet_version(token), **bad}, **HTMX).content.decode()
        assert "errornote" in refused and reason in refused, reason
    assert len(sheet_rows(token)) == 3
    # Row 2's form offers what it was typed with, to change it in place.
    page = staff_client.get(reverse("treasury_night_sheet", args=[token]), {"edit": "2"}).content.decode()
    edit = page[page.index('name="edit-picker"') - 3000:]
    assert re.search(rf'name="edit-away" value="{pk["fay"]}"[^>]*checked', edit)
    assert re.search(r'name="edit-recracked"[^>]*checked', edit)
    assert re.search(rf'<option value="{pk["dan"]}" selected>', edit[edit.index('name="edit-dealer"'):])
    # Changed in place: 31 points, only cracked; Fay still away, Dan still dealing.
    changed = staff_client.post(reverse("treasury_night_row_change", args=[token, 2]), {
        "version": sheet_version(token), "edit-dealer": pk["dan"], "edit-picker": pk["ben"], "edit-points": "31",
        "edit-away": [pk["fay"]], "edit-cracked": "on"})
    assert changed.status_code == 302, changed.content.decode()[-3000:]
    assert sheet_rows(token)[1] == {"dealer": pk["dan"], "picker": pk["ben"], "partner": "", "points": "31",
                                    "leaster_points": "", "leaster_tricks": "", "away": [pk["fay"]],
                                    "cracked": True, "recracked": False}
    second = sheepshead.settle(players=4, picker=1, partner=None, picker_points=31, stake_cents=100, cracks=1)

    saved = staff_client.post(reverse("treasury_night_save", args=[token]), {"version": sheet_version(token)})
    night = ClubNight.objects.get()
    assert saved["Location"] == reverse("treasury_night", args=[night.pk])
    assert entries(night) == [dict(zip(["ann", "ben", "dan", "eve"], first, strict=True)),
                              dict(zip(["ann", "ben", "cat", "eve"], second, strict=True)),
                              dict(zip(["ann", "ben", "cat", "dan", "fay"], third, strict=True))]
    facts = [r.facts for r in night.hands.order_by("number")]
    assert [f["sat_out"] for f in facts] == ["cat", "dan", "eve"]
    assert [f.get("cracks", 0) for f in facts] == [1, 1, 0]
    for record in night.hands.all():
        assert inperson.price_from_facts(kind=record.kind, facts=record.facts).amounts == record.score["money"]
    # The books' check re-prices each hand from its facts under the night's rules, and who was paid from its players.
    books = check_books()
    assert books.ok, [str(d) for d in books.differences]
