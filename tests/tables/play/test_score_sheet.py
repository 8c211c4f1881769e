"""The score sheet at the table: one row per finished round with each seat's result and the running totals.

Boards are built from a snapshot without reading the database, so the sheet travels with the match row
(`Match.sheet`, appended when a round ends, in the same transaction). A voided round has no result: it has no
row and moves no total. The sheet's last totals are the totals the seats show (the match's own).
"""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.urls import reverse

from tables.models import Match, Round, Table
from tables.play.selectors import Board, board_for, board_from, score_sheet, snapshot_of
from tables.play.services.admin_actions import void_round
from tests.migrations import latest_schema_after, migrate  # noqa: F401  (the fixture)
from tests.tables.helpers import client_for, current_round, play_one
from tests.tables.ledger_support import finished_table, next_round, play_until_round_over

pytestmark = pytest.mark.django_db


def running_sums(rows: list[list[int]]) -> list[list[int]]:
    totals = [0] * len(rows[0])
    sums = []
    for deltas in rows:
        totals = [t + d for t, d in zip(totals, deltas, strict=True)]
        sums.append(totals)
    return sums


def render_sheet(board: Board) -> str:
    return engines["jinja2"].get_template("tables/play/games/_score_sheet.html").render({"board": board})


def cells(html: str, section: str) -> list[list[str]]:
    """The text of each row's cells in the table's <thead>, <tbody> or <tfoot>, tags and screen-reader words out."""
    body = re.search(rf"<{section}>(.*?)</{section}>", html, re.S).group(1)
    body = re.sub(r'<span class="sr-only">.*?</span>', "", body, flags=re.S)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[" ".join(re.sub(r"<[^>]+>", " ", text).split()) for text in cell.findall(row)] for row in rows]


def test_each_finished_round_adds_its_row_and_the_running_totals_end_at_the_match_totals(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4, rounds=3)
    match = Match.objects.get(table=table)
    played = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.number for r in played] == [1, 2, 3] and all(r.over for r in played)
    assert match.sheet == [{"round": r.number, "deltas": r.result["deltas"]} for r in played]

    rows = score_sheet(match)
    assert [row.round for row in rows] == [1, 2, 3]
    assert [row.deltas for row in rows] == [r.result["deltas"] for r in played]
    assert [row.totals for row in rows] == running_sums([r.result["deltas"] for r in played])
    assert rows[-1].totals == match.state["totals"]


def test_a_voided_round_has_no_row_and_moves_no_total(make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)
    next_round(table, [ann])
    voided = current_round(table)
    assert voided.number == 2 and not voided.over
    void_round(round_id=voided.pk, admin=boss, reason="The server fell over mid-hand.")
    assert current_round(table).number == 3
    play_until_round_over(table)

    match = Match.objects.get(table=table)
    assert [entry["round"] for entry in match.sheet] == [1, 3]
    rows = score_sheet(match)
    assert [row.round for row in rows] == [1, 3]
    assert rows[-1].totals == match.state["totals"]
    html = render_sheet(board_for(table, ann))
    assert "Score sheet (2 rounds)" in html
    assert [row[0] for row in cells(html, "tbody")] == ["1", "3"]


def test_the_board_carries_the_sheet_without_reading_the_database_and_everyone_sees_the_same(
        make_member, django_assert_num_queries) -> None:
    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    table = finished_table("sheepshead", [ann, ben], bots=3)
    next_round(table, [ann, ben])
    rng = random.Random(7)
    for _ in range(3):  # the second round under way: its results are nobody's yet
        assert play_one(table, {0: ann, 1: ben}, rng)
    assert not current_round(table).over
    snapshot = snapshot_of(table)

    with django_assert_num_queries(0):
        boards = [board_from(snapshot, ann), board_from(snapshot, ben), board_from(snapshot, AnonymousUser())]
    first = Round.objects.get(match__table=table, number=1)
    sheets = [[(row.round, row.deltas, row.totals) for row in board.sheet] for board in boards]
    assert sheets == [[(1, first.result["deltas"], first.result["deltas"])]] * 3
    assert "Score sheet (1 round)" in render_sheet(boards[2])  # a spectator reads it too: results are public


def test_a_money_sheet_reads_in_dollars_and_cents_folded_under_its_summary(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4, rounds=2)
    board = board_for(table, ann)
    html = render_sheet(board)
    assert re.search(r'<details class="score-sheet"(?![^>]*\bopen\b)[^>]*>', html)  # folded until asked for
    assert re.search(r"<summary>\s*Score sheet \(2 rounds\)\s*</summary>", html)
    assert "<caption" in html and "dollars and cents" in html
    assert cells(html, "thead") == [["Round", "Ann (you)", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]]
    assert re.findall(r'<th scope="col"', html) and re.findall(r'<th scope="row"', html)

    played = [r.result["deltas"] for r in Round.objects.filter(match__table=table).order_by("number")]
    sums = running_sums(played)

    def money(cents: int, signed: bool = True) -> str:
        sign = "-" if cents < 0 else "+" if cents > 0 and signed else ""
        return f"{sign}${abs(cents) / 100:.2f}"

    body = cells(html, "tbody")
    assert body == [[str(n + 1), *(f"{money(d)} {money(t)}" for d, t in zip(played[n], sums[n], strict=True))]
                    for n in range(2)]
    totals = [line.total for line in board.seats]
    assert totals == sums[-1]
    assert cells(html, "tfoot") == [["Match total", *(money(t) for t in totals)]]
    page = client_for(ann).get(reverse("table", args=[table.code])).content.decode()
    # on the table's page
    assert '<details class="score-sheet" data-part="sheet">' in page and "Score sheet (2 rounds)" in page


def test_a_points_sheet_reads_in_points_and_says_so_for_screen_readers(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("hawsker", [ann], bots=1)
    html = render_sheet(board_for(table, ann))
    assert "Score sheet (1 round)" in html and "in points" in html and "$" not in html
    deltas = Round.objects.get(match__table=table, number=1).result["deltas"]
    shown = [f"+{d}" if d > 0 else str(d) for d in deltas]
    assert cells(html, "tbody") == [["1", *(f"{s} {d}" for s, d in zip(shown, deltas, strict=True))]]
    assert "total after this round" in html  # the running total is named, not only placed below the result


def test_no_sheet_before_a_round_is_over(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("hawsker", [ann], bots=1, rounds=0)
    board = board_for(table, ann)
    assert board.sheet == [] and table.status == Table.Status.RUNNING
    assert "score-sheet" not in render_sheet(board)


# The migration that fills the sheets of matches played before it ---------------------------------------------

BEFORE = [("tables", "0010_running_tables_join_the_clock"), ("accounts", "0001_initial")]
AFTER = [("tables", "0011_match_sheet")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_the_migration_fills_each_match_sheet_from_its_finished_rounds_and_goes_back() -> None:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Table, Match, Round = (apps.get_model("tables", name) for name in ("Table", "Match", "Round"))
    boss = User.objects.create(username="boss", is_staff=True)
    played = Table.objects.create(game="hawsker", seat_count=2, status="running", code="play1")
    fresh = Table.objects.create(game="hawsker", seat_count=2, status="running", code="new1")
    match = Match.objects.create(table=played, config={}, seed="s", state={"totals": [7, 3]})
    Match.objects.create(table=fresh, config={}, seed="s", state={"totals": [0, 0]})

    def round_(number: int, **fields: object) -> None:
        Round.objects.create(match=match, number=number, seed="x", salt="y", commitment="z", match_before={},
                             state={}, **fields)

    round_(3, over=True, result={"deltas": [2, 3], "unit": "points", "summary": {}})  # made out of order
    round_(1, over=True, result={"deltas": [5, 0], "unit": "points", "summary": {}})
    round_(2, over=True, result=None, voided_at="2024-01-01T00:00:00Z", voided_by=boss, void_reason="fell over")
    round_(4)  # in play: no result yet

    apps = migrate(AFTER)
    Match = apps.get_model("tables", "Match")
    assert Match.objects.get(table__code="play1").sheet == [
        {"round": 1, "deltas": [5, 0]}, {"round": 3, "deltas": [2, 3]}]
    assert Match.objects.get(table__code="new1").sheet == []

    apps = migrate(BEFORE)  # and back: the field goes, the rounds stay as they were
    Round = apps.get_model("tables", "Round")
    assert Round.objects.filter(match__table__code="play1").count() == 4
    assert not any(f.name == "sheet" for f in apps.get_model("tables", "Match")._meta.get_fields())
