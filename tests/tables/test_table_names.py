"""Tables have names people can say ("Alice's Sheepshead table"); codes stay in URLs. New tables are named
when made, quick play's say so, the migration names the tables made before, and the pages show the name."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.urls import reverse

from tables.models import Table
from tables.play.services.errors import TableError
from tables.play.services.tables import NAME_LENGTH, create_table, leave_table, table_name
from tables.quickplay.rendering import render_notice
from tables.quickplay.services.matchmaking import enqueue
from tests.migrations import migrate, migrate_to_latest
from tests.tables.helpers import client_for, full_table

pytestmark = pytest.mark.django_db


def visible_text(html: str) -> str:
    """What a reader sees: the page without its tags (and so without the URLs and data attributes in them)."""
    return re.sub(r"<[^>]*>", " ", re.sub(r"<script.*?</script>", " ", html, flags=re.S))


def test_a_new_table_is_named_for_its_creator_and_game(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob")
    assert create_table(creator=alice, game="sheepshead", players=5).name == "Alice's Sheepshead table"
    assert create_table(creator=bob, game="hawk", players=4).name == "bob's Hawk table"  # no display name


def test_a_second_table_gets_a_number_and_a_name_is_never_given_again_once_closed(make_member) -> None:
    """Names unique per creator over time (issue 42): a closed or finished table keeps its name in history, replays
    and statements, so the club never gives it to another table of the same member."""
    alice = make_member("alice", display_name="Alice")
    first = create_table(creator=alice, game="hawk", players=4)
    second = create_table(creator=alice, game="hawk", players=4)
    assert (first.name, second.name) == ("Alice's Hawk table", "Alice's Hawk table 2")
    assert create_table(creator=alice, game="puskiyon", players=4).name == "Alice's Puskiyon table"
    leave_table(table_id=first.pk, user=alice)  # the last member leaves an open table: it closes
    assert Table.objects.get(pk=first.pk).status == Table.Status.ABANDONED
    assert create_table(creator=alice, game="hawk", players=4).name == "Alice's Hawk table 3"
    assert create_table(creator=make_member("bob", display_name="Bob"), game="hawk", players=4).name == (
        "Bob's Hawk table")  # numbered per creator: Bob's first is his first


def test_three_sheepshead_tables_made_over_time_have_three_names(make_member) -> None:
    """The report: three different tables, each called "Alice's Sheepshead table 2". Each table is made, played to
    its end (or closed) and the next made afterwards: every one gets a name none of the others had."""
    from tests.tables.ledger_support import play_until_round_over

    alice = make_member("alice", display_name="Alice")
    names = []
    for _ in range(4):
        table = full_table("sheepshead", [alice], bots=4, rounds=1)
        play_until_round_over(table)
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        names.append(table.name)
    assert names == ["Alice's Sheepshead table", "Alice's Sheepshead table 2", "Alice's Sheepshead table 3",
                     "Alice's Sheepshead table 4"]
    assert Table.objects.filter(created_by=alice).values("name").distinct().count() == 4


def test_a_renamed_member_starts_at_one_under_the_new_name_and_typed_names_are_theirs(make_member,
                                                                                       settings) -> None:
    settings.TABLES_OPEN_PER_MEMBER = 0  # five tables waiting at once: the cap is not what this test is about
    alice = make_member("alice", display_name="Alice")
    create_table(creator=alice, game="hawk", players=4, name="Alice's Hawk table")  # typed: the club's shape
    assert create_table(creator=alice, game="hawk", players=4).name == "Alice's Hawk table 2"  # never a twin
    alice.display_name = "Ally"
    alice.save()
    assert create_table(creator=alice, game="hawk", players=4).name == "Ally's Hawk table"
    # A name a member types is their choice, kept as written even when they used it before.
    assert create_table(creator=alice, game="hawk", players=4, name="Friday").name == "Friday"
    assert create_table(creator=alice, game="hawk", players=4, name="Friday").name == "Friday"


def test_a_name_given_is_kept_tidied_and_a_too_long_one_refused(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    assert create_table(creator=alice, game="hawk", players=4, name="  Friday   night ").name == "Friday night"
    with pytest.raises(TableError, match="at most 60 characters"):
        create_table(creator=alice, game="hawk", players=4, name="x" * 61)
    assert Table.objects.count() == 1


def test_a_long_display_name_is_shortened_so_the_whole_name_fits() -> None:
    name = table_name(owner="Maximiliana Wilhelmina von Hohenzollern-Sigmaringen", game="sheepshead", number=12)
    assert len(name) == NAME_LENGTH
    assert name.startswith("Maximiliana Wilhelmina") and name.endswith("…'s Sheepshead table 12")


def test_quick_play_names_its_table_for_the_member_who_asked_first(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    enqueue(user=alice, game="hawsker")
    table = enqueue(user=bob, game="hawsker").table
    assert table.name == "Alice's quick Hawsker table"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)  # played out: both free again
    enqueue(user=alice, game="hawsker")
    again = enqueue(user=bob, game="hawsker").table
    assert again.pk != table.pk and again.name == "Alice's quick Hawsker table 2"


def test_the_lobby_shows_names_and_keeps_codes_in_urls(make_member) -> None:
    alice, carol = make_member("alice", display_name="Alice"), make_member("carol", display_name="Carol")
    mine = create_table(creator=alice, game="hawk", players=4)
    theirs = create_table(creator=carol, game="sheepshead", players=5)
    page = client_for(alice).get(reverse("lobby")).content.decode()
    text = visible_text(page)
    for table in (mine, theirs):
        assert escape(table.name) in text
        assert table.code not in text
        assert reverse("table", args=[table.code]) in page
    your_tables = re.search(r'<section class="mine">.*?</section>', page, re.S).group(0)
    assert escape(mine.name) in your_tables and escape(theirs.name) not in your_tables


def test_a_table_someone_named_shows_its_game_beside_the_name(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    create_table(creator=alice, game="hawk", players=4, name="Friday night")
    text = visible_text(client_for(alice).get(reverse("lobby")).content.decode())
    assert re.search(r"Friday night\s*·\s*Hawk", text)


def test_quick_plays_ready_notice_shows_no_code() -> None:
    html = render_notice("table_ready", {"table": "CPGqgMR4", "game": "hawk"})
    assert 'href="/t/CPGqgMR4/"' in html
    assert "CPGqgMR4" not in visible_text(html) and "your Hawk table" in visible_text(html)


def test_the_admin_lists_tables_by_name(make_member, admin_client) -> None:
    table = create_table(creator=make_member("alice", display_name="Alice"), game="hawk", players=4)
    page = admin_client.get(reverse("admin:tables_table_changelist")).content.decode()
    assert escape(table.name) in page


def test_history_names_the_table(make_member) -> None:
    from tests.tables.ledger_support import play_until_round_over

    ann = make_member("ann", display_name="Ann")
    table = full_table("hawsker", [ann, make_member("ben")])
    round_ = play_until_round_over(table)
    text = visible_text(client_for(ann).get(reverse("my_history")).content.decode())
    assert f"{escape(table.name)}, round 1" in text and table.code not in text
    replay = visible_text(client_for(ann).get(reverse("round_replay", args=[round_.pk])).content.decode())
    assert f"{escape(table.name)}, round 1" in replay and table.code not in replay
    fair = visible_text(client_for(ann).get(reverse("fair_deal", args=[round_.pk])).content.decode())
    assert f"{escape(table.name)}, round 1" in fair and table.code not in fair


@pytest.mark.django_db(transaction=True)
def test_the_migration_names_the_tables_made_before_names() -> None:
    before, after = [("tables", "0011_match_sheet"), ("accounts", "0001_initial")], [("tables", "0012_table_names")]

    try:
        apps = migrate(before)
        User, Table, Seat = (apps.get_model("accounts", "User"), apps.get_model("tables", "Table"),
                             apps.get_model("tables", "Seat"))
        ann = User.objects.create(username="ann", display_name="Ann")
        ben = User.objects.create(username="ben")
        made = {
            "old": Table.objects.create(code="old1", game="hawk", seat_count=4, status="finished", created_by=ann),
            "open": Table.objects.create(code="open1", game="hawk", seat_count=4, status="open", created_by=ann),
            "also": Table.objects.create(code="open2", game="hawk", seat_count=4, status="open", created_by=ann),
            "quick": Table.objects.create(code="quick1", game="hawsker", seat_count=2, status="running",
                                          created_by=ben, name="Quick play"),
            "named": Table.objects.create(code="named1", game="hawk", seat_count=4, created_by=ben,
                                          name="Practice against bots"),
            "nobody": Table.objects.create(code="nobody1", game="puskiyon", seat_count=4, status="finished"),
            "seated": Table.objects.create(code="seated1", game="puskiyon", seat_count=4, status="finished"),
        }
        Seat.objects.create(table=made["seated"], position=1, user=ben)

        apps = migrate(after)
        Table = apps.get_model("tables", "Table")
        names = {key: Table.objects.get(code=table.code).name for key, table in made.items()}
    finally:
        migrate_to_latest()
    assert names == {
        "old": "Ann's Hawk table",
        "open": "Ann's Hawk table",
        "also": "Ann's Hawk table 2",  # two open at once: the second gets a number, as new ones do
        "quick": "ben's quick Hawsker table",
        "named": "Practice against bots",
        "nobody": "The club's Puskiyon table",
        "seated": "ben's Puskiyon table",
    }
