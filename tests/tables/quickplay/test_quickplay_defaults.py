"""Issue 41: quick play's defaults seat the members of a small club who are there. Two members who ask with the
form as it comes (any number of players, bots after a short wait) play together; a table bots complete seats
every waiting member it can; a member alone is told so and may play with bots at once; and the lobby's
new-table form starts a table by default."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import QueueRequest, Seat, Table
from tables.play.forms import NewTableForm
from tables.play.services.errors import TableError
from tables.quickplay.forms import QuickPlayForm
from tables.quickplay.services.matchmaking import enqueue, play_now, sweep
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db

W = QueueRequest.State
HTMX = {"HTTP_HX_REQUEST": "true"}


def as_the_form_comes(game: str) -> dict[str, str]:
    """The quick-play form for `game` as the lobby shows it, sent unchanged."""
    form = QuickPlayForm(game=game)
    data = {"game": game}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if name != "game" and value not in (None, "", False):
            data[name] = "on" if value is True else str(value)
    return data


def ask_with_defaults(user, game: str) -> QueueRequest:
    form = QuickPlayForm(as_the_form_comes(game))
    assert form.is_valid(), form.errors
    return enqueue(user=user, **form.request_kwargs())


def seated(table: Table) -> list[str]:
    return [s.user.username if s.user else ("bot" if s.is_bot else "") for s in
            Seat.objects.filter(table=table).select_related("user").order_by("position")]


def test_the_form_asks_for_any_number_and_bots_after_a_short_wait(make_member) -> None:
    request = ask_with_defaults(make_member("alice"), "sheepshead")
    assert request.players is None
    assert request.bots_after_seconds == 30
    assert request.band == "standard"  # money: the usual stake, never "any" by default


def test_two_members_asking_for_sheepshead_with_the_defaults_play_together_after_the_short_wait(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    first = ask_with_defaults(alice, "sheepshead")
    second = ask_with_defaults(bob, "sheepshead")
    assert first.state == second.state == W.WAITING  # two cannot play Sheepshead alone
    assert not sweep(now=first.created_at + timedelta(seconds=29)).tables
    made = sweep(now=first.created_at + timedelta(seconds=30)).tables
    assert len(made) == 1
    table = made[0]
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    # The usual five-handed game: both members, in the order they asked, and three bots.
    assert seated(table) == ["alice", "bob", "bot", "bot", "bot"]
    assert set(QueueRequest.objects.values_list("state", "table", "with_bots")) == {(W.MATCHED, table.pk, True)}


def test_two_members_asking_for_hawk_with_the_defaults_are_seated_at_once(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    ask_with_defaults(alice, "hawk")
    made = ask_with_defaults(bob, "hawk")
    assert made.state == W.MATCHED
    assert seated(made.table) == ["alice", "bob"]


def test_a_table_bots_complete_seats_every_waiting_member_whose_request_it_fits(make_member) -> None:
    """Alice takes any size; Bob wants four and accepts bots later; Carol wants members only. At Alice's due time
    the table is the size that seats Bob too (before: Alice alone with four bots at the usual five), never Carol."""
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    first = enqueue(user=alice, game="sheepshead", bots_after_seconds=30)
    enqueue(user=bob, game="sheepshead", players=4, bots_after_seconds=300)
    enqueue(user=carol, game="sheepshead", players=4)
    table = sweep(now=first.created_at + timedelta(seconds=31)).tables[0]
    assert seated(table) == ["alice", "bob", "bot", "bot"]
    assert QueueRequest.objects.get(user=carol).state == W.WAITING


def test_bots_never_seat_a_member_at_a_band_they_did_not_ask_for(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    first = enqueue(user=alice, game="sheepshead", band="high", bots_after_seconds=30)
    enqueue(user=bob, game="sheepshead", band="low", bots_after_seconds=60)  # not due yet: he waits on
    table = sweep(now=first.created_at + timedelta(seconds=31)).tables[0]
    assert seated(table) == ["alice", "bot", "bot", "bot", "bot"]
    assert QueueRequest.objects.get(user=bob).state == W.WAITING


def test_play_now_seats_the_member_with_bots_at_once(make_member) -> None:
    alice = make_member("alice")
    enqueue(user=alice, game="sheepshead")  # members only
    request = play_now(user=alice)
    assert request.state == W.MATCHED and request.with_bots
    assert seated(request.table) == ["alice", "bot", "bot", "bot", "bot"]
    with pytest.raises(TableError, match="Too late"):
        play_now(user=alice)


def test_a_member_alone_is_told_so_and_offered_bots_now(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    enqueue(user=make_member("carol"), game="hawk", players=6)
    answer = client_for(alice).post(reverse("quick_join"), as_the_form_comes("sheepshead"), **HTMX)
    html = answer.content.decode()
    assert "Nobody else is looking for a Sheepshead table like this right now." in html
    assert 'data-elsewhere="hawk"' in html  # what others wait for
    assert 'action="/quick/now/"' in html and "Play with bots now" in html
    # The clocks the page's script counts on: the wait so far, and the bots' wait left.
    assert re.search(r'class="quick-clock" data-waited="\d+" data-words-seconds="%\(seconds\)s s"', html)
    assert re.search(r'data-bots-in="(29|30)"', html)
    # Bob asks for the same: neither is alone any more.
    client_for(bob).post(reverse("quick_join"), as_the_form_comes("sheepshead"), **HTMX)
    html = client_for(alice).get(reverse("quick_panel"), **HTMX).content.decode()
    assert "data-alone" not in html and 'data-state="waiting"' in html


def test_play_now_from_the_panel_moves_the_member_to_the_table(make_member) -> None:
    alice = make_member("alice")
    client = client_for(alice)
    client.post(reverse("quick_join"), as_the_form_comes("sheepshead"), **HTMX)
    answer = client.post(reverse("quick_play_now"), **HTMX)
    table = Table.objects.get()
    assert answer.status_code == 204 and answer["HX-Redirect"] == reverse("table", args=[table.code])
    assert table.status == Table.Status.RUNNING


def test_the_new_table_form_fills_the_seats_with_bots_by_default(make_member) -> None:
    assert NewTableForm(game="sheepshead").get_initial_for_field(NewTableForm().fields["fill_with_bots"],
                                                                  "fill_with_bots") is True
    page = client_for(make_member("alice")).get(reverse("lobby")).content.decode()
    assert re.search(r'<input type="checkbox" name="fill_with_bots"[^>]* checked', page)


def test_requests_expire_as_before(make_member) -> None:
    request = ask_with_defaults(make_member("alice"), "hawk")
    assert sweep(now=timezone.now() + timedelta(minutes=11)).expired == [request.pk]
