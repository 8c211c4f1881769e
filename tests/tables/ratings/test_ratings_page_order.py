"""The ratings page lists its players in the order its caption says (issue 42, item 11): established players first,
highest rating first, then the provisional ones under their own heading, highest first, a provisional rating higher
than every established one included."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import Rating
from tables.ratings.services.ratings import ordinal
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


def test_established_players_first_then_provisional_ones_each_highest_first(make_member, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 5
    players = {  # name: (mu, sigma, matches)
        "Low Established": (20.0, 2.0, 9), "High Established": (30.0, 2.0, 12),
        "Top Newcomer": (45.0, 4.0, 2), "Low Newcomer": (18.0, 7.0, 1),
    }
    for name, (mu, sigma, matches) in players.items():
        member = make_member(name.lower().replace(" ", ""), display_name=name)
        Rating.objects.create(game="hawk", user=member, mu=mu, sigma=sigma, matches=matches)
    Rating.objects.create(game="hawk", bot="easy", mu=25.0, sigma=3.0, matches=4)  # a provisional bot, between them
    assert ordinal(45.0, 4.0) > ordinal(30.0, 2.0)  # the newcomer's rating is the highest on the page
    viewer = make_member("viewer")
    page = client_for(viewer).get(reverse("ratings"), {"game": "hawk"}).content.decode()
    caption = re.search(r'<caption id="ratings-caption">(.*?)</caption>', page, re.S).group(1)
    assert " ".join(caption.split()) == ("Hawk ratings: established players first, highest first; then provisional "
                                         "ones, highest first")
    body = page[page.index("<tbody>"):page.index("</table>")]
    names = [re.sub(r"<[^>]+>", "", n).strip() for n in re.findall(r'<th scope="row">(.*?)</th>', body, re.S)]
    assert names == ["High Established", "Low Established", "Top Newcomer", "Easy bot", "Low Newcomer"]
    heading = body.index('scope="rowgroup"')
    assert body.index("Low Established") < heading < body.index("Top Newcomer")
    assert "Provisional: fewer than 5 finished matches, highest first" in body
    ranks = re.findall(r'<td class="num">(\d*)</td>\s*<th scope="row">', body)
    assert ranks == ["1", "2", "", "", ""]  # only established players are ranked
    shown = [float(v) for v in re.findall(r'<td class="num">(?:<span class="muted">)?(-?\d+\.\d)', body)]
    established, provisional = shown[:2], shown[2:]
    assert established == sorted(established, reverse=True) and provisional == sorted(provisional, reverse=True)


def test_only_provisional_players_get_their_heading_and_no_empty_group(make_member, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 5
    member = make_member("solo", display_name="Solo")
    Rating.objects.create(game="hawk", user=member, mu=25.0, sigma=8.0, matches=1)
    page = client_for(member).get(reverse("ratings"), {"game": "hawk"}).content.decode()
    table = page[page.index("<table"):page.index("</table>")]
    assert table.count("<tbody>") == 1 and table.count('scope="rowgroup"') == 1
