"""Board parts kept rendered from one version to the next (tables.play.board_parts.py, issue 43): the score sheet, the
house rules and the move log's lines. A kept part must never be one another viewer, another language or an older
state of the table would see: each test renders boards one after another without forgetting any part."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tables.models import Match, Table
from tables.play.board_parts import forget_parts, log_items
from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import LogLine
from tests.tables.ledger_support import finished_table, next_round, play_until_round_over

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_kept() -> None:
    forget_boards()


def board(table: Table, viewer, language: str = "en") -> str:
    table.refresh_from_db()
    with translation.override(language):
        return render_board(table, viewer)


def sheet_of(html: str) -> str:
    return re.search(r'<details class="score-sheet"[^>]*>.*?</details>', html, re.S).group(0)


def rows_in(html: str) -> int:
    return len(re.findall(r"<tr>", re.search(r"<tbody>(.*?)</tbody>", sheet_of(html), re.S).group(1)))


def test_each_viewer_has_their_own_column_on_a_kept_sheet(make_member) -> None:
    ann, bob = make_member("ann", display_name="Ann"), make_member("bob", display_name="Bob")
    table = finished_table("sheepshead", [ann, bob], bots=3)
    anns, bobs = sheet_of(board(table, ann)), sheet_of(board(table, bob))
    assert "Ann (you)" in anns and "Bob (you)" not in anns
    assert "Bob (you)" in bobs and "Ann (you)" not in bobs
    assert "Ann (you)" in sheet_of(board(table, ann))  # Ann's again, now kept


def test_a_finished_round_adds_its_row_to_the_kept_sheet(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)
    assert rows_in(board(table, ann)) == 1
    next_round(table, [ann])
    play_until_round_over(table)
    assert rows_in(board(table, ann)) == 2 == len(Match.objects.get(table=table).sheet)


def test_the_kept_parts_are_in_the_readers_language(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)
    english, german = board(table, ann), board(table, ann, "de")
    assert "House rules and the deal&#39;s commitment" in english and "Match total" in sheet_of(english)
    assert "House rules" not in german and "Match total" not in sheet_of(german)
    assert "House rules" in board(table, ann)


def test_house_rules_changed_between_versions_show_at_once(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)
    before = re.search(r"<dt>Time per turn</dt><dd>(\d+) s</dd>", board(table, ann)).group(1)
    Table.objects.filter(pk=table.pk).update(turn_seconds=int(before) + 7, version=table.version + 1)
    after = re.search(r"<dt>Time per turn</dt><dd>(\d+) s</dd>", board(table, ann)).group(1)
    assert int(after) == int(before) + 7


def test_a_new_deal_shows_its_own_commitment(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)
    first = re.search(r'<code class="commitment">(\w+)</code>', board(table, ann)).group(1)
    next_round(table, [ann])
    second = re.search(r'<code class="commitment">(\w+)</code>', board(table, ann)).group(1)
    assert first != second


def test_log_items_escape_their_words_and_mark_tricks() -> None:
    forget_parts()
    items = log_items([LogLine(text="<b>Eve</b> played 7♥.", trick=False), LogLine(text="Ann took it.", trick=True)])
    assert items == ('<li>&lt;b&gt;Eve&lt;/b&gt; played 7♥.</li>\n      '
                     '<li class="took" data-trick="taken">Ann took it.</li>\n      ')


def test_the_kept_heading_follows_the_round_and_the_tables_status(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    table = finished_table("sheepshead", [ann], bots=4)

    def heading() -> str:
        return re.search(r'<header class="board-head".*?</header>', board(table, ann), re.S).group(0)

    assert "round 1" in heading() and ">playing<" in heading()
    next_round(table, [ann])
    assert "round 2" in heading()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED, version=table.version + 1)
    assert ">playing<" not in heading()
