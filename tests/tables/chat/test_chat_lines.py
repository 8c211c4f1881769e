"""Chat lines: stored as text (escaped wherever shown), trimmed, length- and rate-limited from stored rows,
muted for the member who muted, hidden by staff for everyone, and spectators' lines kept from the players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.sites import site
from django.test import Client
from django.utils import timezone

from tables.chat import selectors
from tables.chat.errors import ChatError
from tables.chat.services import chat
from tables.models import ChatMessage, ChatMute, Table
from tests.tables.chat.helpers import finish_round, running_table

pytestmark = pytest.mark.django_db

XSS = ['<script>alert("x")</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>']


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_xss_payloads_are_stored_as_written_and_shown_as_text(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    for payload in XSS:
        chat.post_line(author=alice, table_id=table.pk, text=payload)
        chat.post_line(author=alice, table_id=None, text=payload)
        ChatMessage.objects.update(created_at=timezone.now() - timedelta(minutes=10))  # under the rate limit
    assert ChatMessage.objects.filter(text=XSS[0]).count() == 2
    for page in (client_for(bob).get(f"/t/{table.code}/"), client_for(bob).get("/lobby/")):
        html = page.content.decode()
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
        assert "<img src=x" not in html and "<svg onload" not in html and '<script>alert' not in html


def test_lines_are_trimmed_and_empty_or_long_lines_are_refused_whole(make_member) -> None:
    alice = make_member("alice")
    line = chat.post_line(author=alice, table_id=None, text="  hello\tthere \n")
    assert line.text == "hello there"
    for empty in ("", "   ", "\n\t", None, 42):
        with pytest.raises(ChatError, match="Write something"):
            chat.post_line(author=alice, table_id=None, text=empty)
    chat.post_line(author=alice, table_id=None, text="x" * chat.MAX_CHARS)  # the longest line is fine
    with pytest.raises(ChatError, match=f"at most {chat.MAX_CHARS} characters; this one has {chat.MAX_CHARS + 1}"):
        chat.post_line(author=alice, table_id=None, text="y" * (chat.MAX_CHARS + 1))
    assert not ChatMessage.objects.filter(text__startswith="y").exists()  # not cut short and stored
    assert ChatMessage.objects.count() == 2


def test_the_rate_limit_counts_stored_lines_in_both_windows(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    for n in range(5):
        chat.post_line(author=alice, table_id=None, text=f"line {n}")
    with pytest.raises(ChatError, match=r"at most 5 lines in 10 seconds\. Wait \d+ seconds?") as refused:
        chat.post_line(author=alice, table_id=None, text="one too many")
    assert refused.value.status == 429
    chat.post_line(author=bob, table_id=None, text="bob is not limited by alice")
    # Eleven seconds later the short window is clear again...
    ChatMessage.objects.filter(author=alice).update(created_at=timezone.now() - timedelta(seconds=11))
    chat.post_line(author=alice, table_id=None, text="after a pause")
    # ...but thirty lines in five minutes is the most, wherever they were written.
    old = timezone.now() - timedelta(seconds=200)
    ChatMessage.objects.bulk_create([ChatMessage(author=alice, text=f"old {n}") for n in range(24)])
    ChatMessage.objects.filter(author=alice).update(created_at=old)
    with pytest.raises(ChatError, match="at most 30 lines in 300 seconds"):
        chat.post_line(author=alice, table_id=None, text="thirty-first")
    ChatMessage.objects.filter(author=alice).update(created_at=timezone.now() - timedelta(seconds=301))
    chat.post_line(author=alice, table_id=None, text="a new five minutes")
    assert not ChatMessage.objects.filter(text__in=["one too many", "thirty-first"]).exists()


def test_the_limit_answers_a_post_with_its_message_and_stores_nothing(make_member) -> None:
    alice = make_member("alice")
    client = client_for(alice)
    for n in range(5):
        assert client.post("/chat/lobby/", {"text": f"hi {n}"}).status_code == 302
    page = client.post("/chat/lobby/", {"text": "too fast"}, follow=True)
    assert "Slow down: at most 5 lines in 10 seconds" in page.content.decode()
    assert ChatMessage.objects.filter(author=alice).count() == 5


def test_a_muted_member_is_not_shown_to_the_member_who_muted_anywhere(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = running_table(alice, bob)
    rude = chat.post_line(author=alice, table_id=table.pk, text="rude remark")
    lobby_rude = chat.post_line(author=alice, table_id=None, text="rude in the lobby")
    bob_client = client_for(bob)
    answer = bob_client.post(f"/chat/mute/{alice.pk}/", {"room": table.code}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "rude remark" not in answer.content.decode()
    assert "Unmute alice" in answer.content.decode()
    assert ChatMute.objects.filter(member=bob, muted=alice).exists()
    assert "rude remark" not in bob_client.get(f"/t/{table.code}/").content.decode()
    assert "rude in the lobby" not in bob_client.get("/lobby/").content.decode()
    assert selectors.visible_line(viewer=bob, message_id=rude.pk) is None
    assert selectors.visible_line(viewer=bob, message_id=lobby_rude.pk) is None
    assert "rude remark" in client_for(carol).get(f"/t/{table.code}/").content.decode()  # only bob muted her
    bob_client.post(f"/chat/unmute/{alice.pk}/", {"room": table.code})
    assert "rude remark" in bob_client.get(f"/t/{table.code}/").content.decode()
    with pytest.raises(ChatError, match="cannot mute yourself"):
        chat.mute(member=bob, muted_id=bob.pk)
    assert bob_client.post("/chat/mute/999999/", {"room": ""}).status_code == 302  # refused, said, nothing stored
    assert bob_client.post("/chat/mute/%C2%B2/", {"room": ""}).status_code == 404
    assert ChatMute.objects.count() == 0


def test_staff_hide_a_line_for_everyone_and_it_is_kept_with_who_hid_it(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    line = chat.post_line(author=alice, table_id=None, text="something nasty")
    assert client_for(bob).post(f"/chat/hide/{line.pk}/").status_code == 404  # members may not
    with pytest.raises(ChatError):
        chat.hide_lines(staff=bob, message_ids=[line.pk])
    line.refresh_from_db()
    assert line.hidden_at is None
    assert 'aria-label="Hide this line' in client_for(boss).get("/lobby/").content.decode()
    admin = client_for(boss)
    answer = admin.post("/admin/tables/chatmessage/", {"action": "hide", "_selected_action": [line.pk]}, follow=True)
    assert "1 line hidden." in answer.content.decode()
    line.refresh_from_db()
    assert line.hidden_by == boss and line.hidden_at is not None and line.text == "something nasty"
    for viewer in (alice, bob, boss):
        assert "something nasty" not in client_for(viewer).get("/lobby/").content.decode()
    listing = admin.get("/admin/tables/chatmessage/?hidden=yes").content.decode()
    assert "something nasty" in listing and "hidden by boss" in listing
    assert "something nasty" not in admin.get("/admin/tables/chatmessage/?hidden=no").content.decode()
    assert site.is_registered(ChatMessage)


def test_spectators_lines_are_kept_from_the_players_until_the_round_is_over(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    boss = make_member("boss", is_staff=True)
    table = running_table(alice, bob)
    coaching = chat.post_line(author=carol, table_id=table.pk, text="bob holds the ace")
    said = chat.post_line(author=alice, table_id=table.pk, text="good luck")
    assert coaching.spectator and coaching.round_number == 1 and not said.spectator
    for player in (alice, bob):
        page = client_for(player).get(f"/t/{table.code}/").content.decode()
        assert "good luck" in page and "bob holds the ace" not in page
        assert selectors.visible_line(viewer=player, message_id=coaching.pk) is None
    for watcher in (carol, boss, make_member("dave")):
        page = client_for(watcher).get(f"/t/{table.code}/").content.decode()
        assert "bob holds the ace" in page
    assert "the players read your lines once the round" in client_for(carol).get(f"/t/{table.code}/").content.decode()

    finish_round(table, alice, bob)
    for player in (alice, bob):
        assert "bob holds the ace" in client_for(player).get(f"/t/{table.code}/").content.decode()
        assert [m.pk for m in selectors.released_lines(viewer=player, table_id=table.pk, round_number=1)] == [
            coaching.pk]
    assert selectors.released_lines(viewer=carol, table_id=table.pk, round_number=1) == []


def test_a_closed_table_or_a_missing_one_takes_no_lines_and_anonymous_visitors_none(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
    with pytest.raises(ChatError, match="closed"):
        chat.post_line(author=alice, table_id=table.pk, text="anyone?")
    with pytest.raises(ChatError, match="no such table"):
        chat.post_line(author=alice, table_id=table.pk + 99, text="anyone?")
    assert client_for(alice).post("/chat/t/nosuchtable/", {"text": "hi"}).status_code == 404
    anonymous = Client().post("/chat/lobby/", {"text": "let me in"})
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert Client().post(f"/chat/t/{table.code}/", {"text": "let me in"}).status_code == 302
    alice.is_active = False
    alice.save()
    with pytest.raises(ChatError, match="Sign in"):
        chat.post_line(author=alice, table_id=None, text="I was deactivated")
    assert ChatMessage.objects.count() == 0


def test_lobby_lines_wait_for_members_playing_a_round_until_it_is_over(make_member) -> None:
    """Issue 39: a watcher's lobby line reached a seated player mid-round. Whoever writes it, a lobby line written
    during a member's round reaches them once the round is over; their own lines and older ones stay."""
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = running_table(alice, bob)
    before = chat.post_line(author=carol, table_id=None, text="said before the deal")
    ChatMessage.objects.filter(pk=before.pk).update(created_at=timezone.now() - timedelta(hours=1))
    coaching = chat.post_line(author=carol, table_id=None, text="alice, lead the ace")
    own = chat.post_line(author=alice, table_id=None, text="alice in the lobby")
    for player in (alice, bob):
        page = client_for(player).get("/lobby/").content.decode()
        assert "said before the deal" in page and "lead the ace" not in page
        assert "You are playing a round: the lobby's lines written since it began" in page
        assert selectors.visible_line(viewer=player, message_id=coaching.pk) is None
    assert "alice in the lobby" in client_for(alice).get("/lobby/").content.decode()
    assert selectors.visible_line(viewer=bob, message_id=own.pk) is None  # a player's line waits for the others too
    for free in (carol, make_member("dave")):
        page = client_for(free).get("/lobby/").content.decode()
        assert "lead the ace" in page and "alice in the lobby" in page and "You are playing a round" not in page
        assert "Members playing a round read the lobby's lines once their round is over." in page

    finish_round(table, alice, bob)
    for player in (alice, bob):
        page = client_for(player).get("/lobby/").content.decode()
        assert "lead the ace" in page and "alice in the lobby" in page


def test_bidi_controls_are_dropped_and_invisible_only_lines_refused(make_member) -> None:
    """Issue 39: a right-to-left override made a line read backwards (and ran on into what follows it); a line of
    zero-width spaces was an empty line under a name."""
    alice = make_member("alice")
    line = chat.post_line(author=alice, table_id=None, text="\u202egnirt\u202c ok \u2066isolated\u2069")
    assert line.text == "gnirt ok isolated"
    for invisible in ("\u200b", "\u200b\u200c\u200d\u2060\ufeff", "\u202e\u200b", "\u3164", "\u00ad \u2800"):
        with pytest.raises(ChatError, match="only invisible characters"):
            chat.post_line(author=alice, table_id=None, text=invisible)
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["gnirt ok isolated"]


def test_a_line_names_its_author_by_display_name_and_username(make_member) -> None:
    """Issue 39: display names alone can be copied; the username, linked to the profile, is the member's alone."""
    alice, bob = make_member("alice"), make_member("bob")
    alice.display_name = "Ally"
    alice.save()
    chat.post_line(author=alice, table_id=None, text="hello")
    page = client_for(bob).get("/lobby/").content.decode()
    assert '<a class="chat-who" href="/members/alice/"><strong class="chat-name">Ally</strong>' in page
    assert '<span class="chat-handle">@alice</span>' in page


def test_a_member_shown_by_their_username_is_named_once_still_linked(make_member) -> None:
    """No display name may read like another member's username, so the username alone is unambiguous."""
    alice, bob = make_member("alice"), make_member("bob")
    alice.display_name = ""
    alice.save()
    chat.post_line(author=alice, table_id=None, text="hello")
    page = client_for(bob).get("/lobby/").content.decode()
    assert '<a class="chat-who" href="/members/alice/"><strong class="chat-name">alice</strong></a>' in page
    assert "@alice" not in page
