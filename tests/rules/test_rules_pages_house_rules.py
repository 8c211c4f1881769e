"""The Sheepshead page's house rules of a club night: every option the open-sheet form offers is described, in both
languages, and the page's table of rates is what the engine's `picker_rate` pays under each rule."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules.engine.sheepshead import picker_rate
from rules.engine.sheepshead.house import NIGHT_OPTIONS
from tables.i18n import say

pytestmark = pytest.mark.django_db

COLUMNS = [{}, {"schneider": "thirty_or_less"}, {"schneider": "under_thirty"}, {"bump": "single"}]
"""The table's columns after the points: as written, then one house rule each."""


def house_rules_section(language: str) -> str:
    html = Client().get(reverse("rules_game", args=["sheepshead"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return html[html.index('id="house-rules"'):html.index('id="match"')]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_house_rules_table_is_what_the_engine_pays(language: str) -> None:
    section = house_rules_section(language)
    rows = re.findall(r"<tr><td>(\d+)</td>((?:<td>[^<]*</td>)+)</tr>", section)
    assert len(rows) == 4
    for points, cells in rows:
        stated = [int(cell.replace("&minus;", "-")) for cell in re.findall(r"<td>([^<]*)</td>", cells)]
        assert stated == [picker_rate(int(points), **rules) for rules in COLUMNS], (language, points)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_house_rule_is_described(language: str) -> None:
    """Each rule by the name the open-sheet form gives it (in the reader's language), never by the engine's key."""
    section = house_rules_section(language)
    for option in NIGHT_OPTIONS:
        with translation.override(language):
            label = say(option.label)
        assert f"<strong>{label}</strong>" in section, (language, label)
        assert f"<code>{option.name}</code>" not in section, (language, option.name)
        if "_" in option.name:  # "schneider" and "schwarz" are words of the rules too; "dealer_sits_out" is not
            assert option.name not in section, (language, option.name)
