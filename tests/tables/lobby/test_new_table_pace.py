"""The new-table form sets how the table runs by itself: the bots' speed and how long an offline player's
turns wait before the bot plays them. Nonsense is refused with a message and no table."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tables.play.forms import NewTableForm
from tests.tables.helpers import new_table_data

pytestmark = pytest.mark.django_db


def post_new_table(user, **extra: str):
    client = Client()
    client.force_login(user)
    data = {name: value for name, value in new_table_data("hawk").items() if name not in ("bot_speed", "grace_seconds")}
    return client.post(reverse("create_table"), {**data, **extra})


def test_a_member_chooses_the_bot_speed_and_the_grace(member) -> None:
    answer = post_new_table(member, bot_speed="slow", grace_seconds="40")
    table = Table.objects.get(created_by=member)
    assert answer.status_code == 302 and answer["Location"] == reverse("table", args=[table.code])
    assert (table.bot_speed, table.grace_seconds) == ("slow", 40)


def test_left_out_they_are_the_clubs_defaults(member, settings) -> None:
    settings.TABLE_BOT_SPEED = "brisk"
    post_new_table(member)
    table = Table.objects.get(created_by=member)
    assert (table.bot_speed, table.grace_seconds) == ("brisk", 15)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("bot_speed", "ludicrous", "Select a valid choice"),
    ("grace_seconds", "121", "less than or equal to 120"),
    ("grace_seconds", "-1", "greater than or equal to 0"),
    ("grace_seconds", "soon", "whole number"),
])
def test_nonsense_is_refused_and_makes_no_table(member, field: str, value: str, message: str) -> None:
    answer = post_new_table(member, **{field: value})
    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Table.objects.filter(created_by=member).exists()


@pytest.mark.parametrize("speed", ["brisk", "slow"])
def test_the_form_preselects_the_clubs_bot_speed_and_a_table_made_as_shown_runs_at_it(member, settings,
                                                                                        speed: str) -> None:
    """TABLE_BOT_SPEED applies to tables made in the browser: the lobby's form (and the form fetched again for
    another game) preselects it, so posting the form as shown makes a table at the club's speed, not `normal`."""
    settings.TABLE_BOT_SPEED = speed
    client = Client()
    client.force_login(member)
    for page in (client.get(reverse("lobby")), client.get(reverse("new_table_form"), {"game": "sheepshead"})):
        select = re.search(r'<select name="bot_speed"[^>]*>(.*?)</select>', page.content.decode(), re.S).group(1)
        assert re.findall(r'<option value="(\w+)" selected>', select) == [speed]
    shown = NewTableForm(game="sheepshead")  # the form the page rendered: its fields as shown, posted unchanged
    posted = {name: shown[name].value() for name in shown.fields}
    client.post(reverse("create_table"), {k: v for k, v in posted.items() if v is not None and v is not False})
    assert Table.objects.get(created_by=member).bot_speed == speed
