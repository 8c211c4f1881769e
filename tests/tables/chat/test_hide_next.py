"""Hiding a chat line without script goes back to a page of this site only (the `next` it is given, if same-site).

`/chat/hide/<id>/` with `next=https://evil.example` redirected a member of staff off the site: an open redirect
any page could set up for them. Every other `next` of the site is held to the same rule (accounts.next_page).
"""

from __future__ import annotations

import pytest
from django.test import Client

from tables.chat.services import chat

pytestmark = pytest.mark.django_db

OFF_SITE = ["https://evil.example", "https://evil.example/lobby/", "//evil.example/", "///evil.example/",
            "http:evil.example", "https:\\\\evil.example", "\\\\evil.example", "javascript:alert(1)",
            "http://testserver.evil.example/", " https://evil.example"]


@pytest.fixture
def boss_and_line(make_member):
    alice = make_member("alice")
    boss = make_member("boss", is_staff=True)
    client = Client()
    client.force_login(boss)
    return client, lambda: chat.post_line(author=alice, table_id=None, text="hide me")


@pytest.mark.parametrize("target", OFF_SITE)
def test_hiding_never_redirects_off_site(boss_and_line, target) -> None:
    client, line = boss_and_line
    for response in (client.post(f"/chat/hide/{line().pk}/", {"next": target}),
                     client.post(f"/chat/hide/{line().pk}/?next={target}", {"next": target})):
        assert response.status_code == 302
        assert response["Location"] == "/lobby/", target


def test_hiding_goes_back_to_the_page_of_this_site_it_was_asked_from(boss_and_line) -> None:
    client, line = boss_and_line
    assert client.post(f"/chat/hide/{line().pk}/", {"next": "/t/ABCD/"})["Location"] == "/t/ABCD/"
    assert client.post(f"/chat/hide/{line().pk}/", {"next": "http://testserver/history/"})["Location"] == (
        "http://testserver/history/")
    assert client.post(f"/chat/hide/{line().pk}/")["Location"] == "/lobby/"
