"""The member's "sound on my turn" preference: its toggle (on the table page, with and without htmx), the
profile's checkbox, and the table page handing it to static/js/turn.js."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.play.services.tables import create_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def turn_sound_of(user: User) -> bool:
    user.refresh_from_db()
    return user.turn_sound


def toggle(client: Client, value: str, **extra: object):
    data = {"turn_sound": value}
    data.update({k: v for k, v in extra.items() if not k.startswith("HTTP_")})
    headers = {k: v for k, v in extra.items() if k.startswith("HTTP_")}
    return client.post(reverse("turn_sound"), data, **headers)


def test_a_new_member_has_the_sound_off(member: User) -> None:
    assert turn_sound_of(member) is False


def test_a_plain_post_sets_the_preference_and_goes_back_to_a_same_site_next(member_client: Client,
                                                                             member: User) -> None:
    response = toggle(member_client, "on", next="/t/ABCD/")
    assert response.status_code == 302
    assert response.url == "/t/ABCD/"
    assert turn_sound_of(member) is True
    response = toggle(member_client, "off", next="/t/ABCD/")
    assert response.url == "/t/ABCD/"
    assert turn_sound_of(member) is False


def test_setting_is_not_flipping_a_repeated_post_leaves_it_where_the_member_put_it(member_client: Client,
                                                                                   member: User) -> None:
    toggle(member_client, "on")
    toggle(member_client, "on")
    assert turn_sound_of(member) is True


@pytest.mark.parametrize("unsafe", ["https://evil.example/t/ABCD/", "//evil.example/", "javascript:alert(1)",
                                    "http://testserver.evil.example/", ""])
def test_an_unsafe_or_missing_next_goes_to_the_profile_instead(member_client: Client, member: User,
                                                               unsafe: str) -> None:
    response = toggle(member_client, "on", next=unsafe)
    assert response.status_code == 302
    assert response.url == reverse("profile")
    assert turn_sound_of(member) is True


def test_an_absolute_next_on_this_site_is_followed(member_client: Client) -> None:
    response = toggle(member_client, "on", next="http://testserver/lobby/")
    assert response.url == "http://testserver/lobby/"


@pytest.mark.parametrize("value", ["", "maybe", "true"])
def test_anything_but_on_or_off_is_refused_and_changes_nothing(member_client: Client, member: User,
                                                               value: str) -> None:
    response = toggle(member_client, value)
    assert response.status_code == 400
    assert turn_sound_of(member) is False


def test_with_htmx_the_answer_is_the_toggle_again_showing_and_carrying_the_new_value(member_client: Client,
                                                                                     member: User) -> None:
    response = toggle(member_client, "on", next="/t/ABCD/", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert turn_sound_of(member) is True
    # turn.js reads the preference from this attribute, so the swapped-in toggle is what it sees next.
    assert 'data-turn-sound="on"' in html
    assert "Sound on my turn: on" in html
    # The next click switches it off again and still comes back to the table without htmx.
    assert re.search(r'name="turn_sound" value="off"', html)
    assert re.search(r'name="next" value="/t/ABCD/"', html)
    assert 'hx-swap="outerHTML"' in html
    response = toggle(member_client, "off", next="https://evil.example/", **HTMX)
    html = response.content.decode()
    assert 'data-turn-sound="off"' in html
    assert "evil.example" not in html
    assert turn_sound_of(member) is False


def test_only_post_is_allowed(member_client: Client) -> None:
    assert member_client.get(reverse("turn_sound")).status_code == 405


def test_a_visitor_is_sent_to_log_in(member: User) -> None:
    response = toggle(Client(), "on")
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))
    assert turn_sound_of(member) is False


def test_a_post_without_the_csrf_token_is_refused(member: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert toggle(client, "on").status_code == 403
    assert turn_sound_of(member) is False
    client.get(reverse("profile"))  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    assert toggle(client, "on", csrfmiddlewaretoken=token).status_code == 302
    assert turn_sound_of(member) is True


def test_the_profile_shows_and_saves_the_preference(member_client: Client, member: User) -> None:
    page = member_client.get(reverse("profile")).content.decode()
    assert 'name="turn_sound"' in page
    response = member_client.post(reverse("profile"), {"display_name": "Alice", "turn_sound": "on"})
    assert response.status_code == 302
    assert turn_sound_of(member) is True
    member_client.post(reverse("profile"), {"display_name": "Alice"})
    assert turn_sound_of(member) is False


def table_page(client: Client, code: str) -> str:
    response = client.get(reverse("table", args=[code]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_table_page_carries_the_members_own_preference_and_loads_turn_js(
        member_client: Client, member: User, make_member: Callable[..., User]) -> None:
    table = create_table(creator=member, game="hawsker", players=2)
    page = table_page(member_client, table.code)
    assert page.count("data-turn-sound=") == 1
    assert 'data-turn-sound="off"' in page
    assert "Sound on my turn: off" in page
    assert re.search(r'<script src="[^"]*js/turn\.js"', page)
    # The toggle brings the member back to this table when htmx is not there to swap it.
    assert f'name="next" value="/t/{table.code}/"' in page

    toggle(member_client, "on")
    assert 'data-turn-sound="on"' in table_page(member_client, table.code)

    # Another member's page shows their own preference, not this member's.
    other = Client()
    other.force_login(make_member("bob"))
    assert 'data-turn-sound="off"' in table_page(other, table.code)
