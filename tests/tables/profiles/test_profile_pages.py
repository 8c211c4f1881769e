"""Member profiles and the ratings page: members only, 404s, the viewer's own replays only, the chart, the links."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Round
from tests.tables.helpers import client_for
from tests.tables.ledger_support import finished_table
from tests.tables.ratings.factories import days_ago, record_match

pytestmark = pytest.mark.django_db

REPLAY = re.compile(r'href="/rounds/(\d+)/replay/"')


def profile_url(user) -> str:
    return reverse("member_profile", args=[user.username])


@pytest.fixture
def played(make_member):
    """Ann and Bob finished a Hawsker match (a real round, in the books); Ann also played bots twice."""
    ann, bob = make_member("ann", display_name="Ann Arbor"), make_member("bob")
    table = finished_table("hawsker", [ann, bob], bots=0)
    record_match("hawsker", [ann, bob], [7, 3], table=table, finished_at=days_ago(1))
    record_match("hawsker", [ann, "easy"], [2, 5], finished_at=days_ago(2))
    record_match("puskiyon", [ann, "strong", "easy", bob], [12, 30, 25, 40], finished_at=days_ago(3))
    round_ids = set(Round.objects.filter(match__table=table, over=True).values_list("pk", flat=True))
    assert round_ids
    return ann, bob, round_ids


def test_anonymous_visitors_are_sent_to_log_in(played) -> None:
    ann, _, _ = played
    for url in (profile_url(ann), reverse("ratings")):
        response = Client().get(url)
        assert response.status_code == 302 and reverse("account_login") in response.url


def test_unknown_and_inactive_members_have_no_profile(played, make_member) -> None:
    ann, _, _ = played
    gone = make_member("gone", is_active=False)
    viewer = client_for(ann)
    assert viewer.get(reverse("member_profile", args=["nobody-here"])).status_code == 404
    assert viewer.get(profile_url(gone)).status_code == 404


def test_the_profile_shows_games_ratings_and_recent_matches(played, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 5
    ann, bob, _ = played
    page = client_for(bob).get(profile_url(ann)).content.decode()
    assert "Ann Arbor" in page and "Member since" in page
    assert 'data-game="hawsker"' in page and 'data-game="puskiyon"' in page
    assert "2 played, 1 won" in page  # Hawsker: beat Bob, lost to the bot
    assert "provisional (2 of 5)" in page and "provisional (1 of 5)" in page
    assert "1 of 2" in page and "2 of 2" in page and "1 of 4" in page  # places of N (Puskiyon: lowest wins)
    assert 'href="/ratings/?game=hawsker"' in page


def test_an_established_rating_is_shown_as_its_ordinal(played, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 2
    ann, bob, _ = played
    page = client_for(bob).get(profile_url(ann)).content.decode()
    from tables.models import Rating

    rating = Rating.objects.get(game="hawsker", user=ann)
    assert f"<dd data-rating>{rating.mu - 3 * rating.sigma:.1f}" in page


def test_another_members_profile_links_only_to_rounds_the_viewer_played(played, make_member) -> None:
    ann, bob, round_ids = played
    carol = make_member("carol")
    strangers_view = client_for(carol).get(profile_url(ann)).content.decode()
    assert not REPLAY.search(strangers_view) and "data-replay" not in strangers_view
    for viewer in (ann, bob, make_member("boss", is_staff=True)):
        page = client_for(viewer).get(profile_url(ann)).content.decode()
        linked = {int(found) for found in REPLAY.findall(page)}
        assert linked == round_ids
        for round_id in linked:  # and each link opens for this viewer
            assert client_for(viewer).get(reverse("round_replay", args=[round_id])).status_code == 200
    for round_id in round_ids:  # the stranger could not have opened them either
        assert client_for(carol).get(reverse("round_replay", args=[round_id])).status_code == 404


def test_the_rating_chart_is_an_accessible_svg_with_a_point_per_match(played) -> None:
    ann, bob, _ = played
    page = client_for(bob).get(profile_url(ann)).content.decode()
    hawsker = page[page.index('data-game="hawsker"'):page.index('data-game="puskiyon"')]
    svg = hawsker[hawsker.index("<svg"):hawsker.index("</svg>")]
    assert 'role="img"' in svg and "<title id=" in svg and "<desc id=" in svg
    assert 'data-points="3"' in svg  # the start and one point per match
    assert svg.count("<circle") == 3
    points = re.search(r'<polyline[^>]*points="([^"]+)"', svg).group(1).split()
    assert len(points) == 3 and len({p.split(",")[1] for p in points}) > 1  # the line moves
    assert "Rating " in hawsker and "after 2 matches" in hawsker  # the summary as text too
    assert "style=" not in svg  # the Content-Security-Policy blocks inline styles


def test_only_the_members_own_profile_links_to_the_edit_page_and_back(played) -> None:
    ann, bob, _ = played
    own = client_for(ann).get(profile_url(ann)).content.decode()
    assert 'data-testid="edit-profile"' in own and f'href="{reverse("profile")}"' in own
    other = client_for(bob).get(profile_url(ann)).content.decode()
    assert 'data-testid="edit-profile"' not in other
    edit = client_for(ann).get(reverse("profile")).content.decode()
    assert f'href="{profile_url(ann)}"' in edit


def test_the_site_header_names_the_member_with_a_link_to_their_profile(played) -> None:
    ann, _, _ = played
    page = client_for(ann).get(reverse("lobby")).content.decode()
    assert re.search(rf'<a href="{profile_url(ann)}" data-testid="who">Ann Arbor</a>', page)


def test_a_member_without_matches_has_a_plain_profile(make_member) -> None:
    dan = make_member("dan")
    page = client_for(dan).get(profile_url(dan)).content.decode()
    assert "not finished a match yet" in page and "<svg" not in page


def test_the_ratings_page_lists_members_and_bots_by_rating(played, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 1
    ann, bob, _ = played
    page = client_for(bob).get(reverse("ratings"), {"game": "puskiyon"}).content.decode()
    rows = re.findall(r"<tr[^>]*>\s*<td class=\"num\">(\d*)</td>\s*<th scope=\"row\">(.*?)</th>", page, re.S)
    names = [re.sub(r"<[^>]+>", "", name).strip() for _, name in rows]
    # Puskiyon, lowest total first: Ann 12, the easy bot 25, the strong bot 30, Bob 40: each level a player.
    assert names == ["Ann Arbor", "Easy bot", "Strong bot", "bob (you)"]
    assert [rank for rank, _ in rows] == ["1", "2", "3", "4"]
    assert re.findall(r'data-bot-level="(\w+)"', page) == ["easy", "strong"]
    assert f'href="{profile_url(ann)}"' in page


def test_the_ratings_page_marks_provisional_players_after_established_ones(played, settings) -> None:
    settings.RATING_PROVISIONAL_MATCHES = 2
    _, bob, _ = played
    page = client_for(bob).get(reverse("ratings"), {"game": "hawsker"}).content.decode()
    assert page.count("data-provisional") == 2 and "provisional (1 of 2)" in page  # Bob and the bot: one each
    assert page.index("Ann Arbor") < page.index("provisional (1 of 2)")
    # A provisional rating is still shown (unranked, beside its mark): a member can see it move from the first match.
    assert re.search(r"data-provisional>.*?<span class=\"muted\">-?\d+\.\d · provisional \(1 of 2\)</span>", page, re.S)
    unknown = client_for(bob).get(reverse("ratings"), {"game": "chess"})
    assert unknown.status_code == 200  # an unknown game shows the club's first, as the standings do


def test_the_pages_carry_nothing_the_content_security_policy_blocks(played) -> None:
    from tests.test_content_security_policy import policy_problems

    ann, _, _ = played
    urls = [profile_url(ann), reverse("ratings"), reverse("ratings") + "?game=puskiyon"]
    assert policy_problems(client_for(ann), urls) == []
