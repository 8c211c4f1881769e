"""Every main page in German: `<html lang="de">` and none of a list of English phrases taken from the English
templates (issue 23: "a German-speaking member ... without meeting an English word").

One test per page, each named by the part of the site whose strings it shows (core: the frame and accounts; table:
lobby and table pages; books: history, standings, profiles, treasury, admin; rules: the rules pages), so a failure
says which part is not yet in German. The frame (header, footer) is on every page: its strings are core's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.models import Round
from tables.play.services.tables import create_table
from tests.tables.helpers import PLAYERS, full_table
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

GAMES = ("sheepshead", "hawk", "hawsker", "puskiyon")

# Phrases of the English templates and code that a German page must not show (whole words, case as written).
# The lower-case "the", "you" and "your" catch any English sentence left over.
ENGLISH = (
    # the frame and accounts
    "Log out", "Log in", "Join the club", "Skip to content", "How we play", "History", "Standings", "Ratings",
    "Rules", "Your profile", "Change your password", "Email addresses", "Sound on my turn", "Display name",
    # the lobby and tables
    "Back to the lobby", "Start a table", "Quick play", "Take a seat", "Add a bot", "Your turn", "Your hand",
    "Your tables", "Table chat", "Lobby chat", "Waiting for players", "Table options", "What was played",
    # history, standings, profiles, treasury
    "My history", "Ledger entries", "Recent matches", "Member since", "Settle up", "Win rate", "All time",
    "Match total", "Running balance", "Past settlements", "Replay this round", "Saved nights",
    # the rules
    "Our games", "The aim", "The deal", "Playing the tricks", "Scoring a hand", "Points per hand",
    # any English sentence
    "the", "you", "your", "and",
)


class VisibleText(HTMLParser):
    """What a reader meets: text (outside script and style) and the attributes read out or shown (title, alt,
    aria-label, placeholder, a button's value)."""

    SHOWN = ("title", "alt", "aria-label", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        named = dict(attrs)
        self.parts.extend(value for name, value in attrs if name in self.SHOWN and value)
        if tag == "input" and named.get("type") in ("submit", "button") and named.get("value"):
            self.parts.append(named["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def english_left(text: str) -> list[str]:
    return [phrase for phrase in ENGLISH if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text)]


def test_the_check_finds_english_and_passes_german() -> None:
    html = ('<html lang="de"><head><title>Dein Profil</title><script src="/x.js">var the = 1</script></head>'
            '<body><p title="Your turn">Abmelden</p><button>Take a seat</button><p>Kreuz-Dame, the-x</p></body></html>')
    assert english_left(visible_text(html)) == ["Take a seat", "Your turn"]
    assert english_left(visible_text('<p>Dein Zug: spiel eine Karte. Stiche: 3</p>')) == []


@dataclass(frozen=True)
class Page:
    area: str
    name: str
    open: Callable[..., tuple[Client, str]]  # (make_member) -> a client (German browser) and the page's path

    @property
    def id(self) -> str:
        return f"{self.area}-{self.name}"


def german_client(user: User | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    if user is not None:
        client.force_login(user)
    return client


def signed_in(path: str | Callable[[], str], **member: object) -> Callable[..., tuple[Client, str]]:
    def open_page(make_member: Callable[..., User]) -> tuple[Client, str]:
        client = german_client(make_member("greta", display_name="Greta", **member))
        return client, path() if callable(path) else path
    return open_page


def visitor(path: Callable[[], str]) -> Callable[..., tuple[Client, str]]:
    return lambda make_member: (german_client(), path())


def seated_at(game: str) -> Callable[..., tuple[Client, str]]:
    """A running table of `game`: the member seated, the bots in the other seats (they move at once)."""
    def open_page(make_member: Callable[..., User]) -> tuple[Client, str]:
        greta = make_member("greta", display_name="Greta")
        table = full_table(game, [greta], bots=PLAYERS[game] - 1)
        return german_client(greta), reverse("table", args=[table.code])
    return open_page


def waiting_table(make_member: Callable[..., User]) -> tuple[Client, str]:
    greta = make_member("greta", display_name="Greta")
    table = create_table(creator=greta, game="hawk", players=4)
    return german_client(greta), reverse("table", args=[table.code])


def after_a_round(path: Callable[[Round, User], str], *, staff: bool = False) -> Callable[..., tuple[Client, str]]:
    """A member (staff for the staff's pages) with a finished round of Sheepshead behind them."""
    def open_page(make_member: Callable[..., User]) -> tuple[Client, str]:
        greta = make_member("greta", display_name="Greta", is_staff=staff, is_superuser=staff)
        table = finished_table("sheepshead", [greta, make_member("hans", display_name="Hans")], bots=3)
        done = Round.objects.get(match__table=table, number=1)
        return german_client(greta), path(done, greta)
    return open_page


PAGES = [
    # core: the frame and the member's account (allauth's own pages speak allauth's German inside the frame)
    Page("core", "profile", signed_in(lambda: reverse("profile"))),
    Page("core", "login", visitor(lambda: reverse("account_login"))),
    Page("core", "signup", visitor(lambda: reverse("account_signup"))),
    Page("core", "password-reset", visitor(lambda: reverse("account_reset_password"))),
    Page("core", "password-change", signed_in(lambda: reverse("account_change_password"))),
    Page("core", "email", signed_in(lambda: reverse("account_email"))),
    # table: the lobby and the tables
    Page("table", "home", visitor(lambda: reverse("home"))),
    Page("table", "lobby", signed_in(lambda: reverse("lobby"))),
    Page("table", "waiting-table", waiting_table),
    *(Page("table", f"table-{game}", seated_at(game)) for game in GAMES),
    # books: history, standings, ratings, profiles, replays, treasury, admin
    Page("books", "history", after_a_round(lambda done, me: reverse("my_history"))),
    Page("books", "standings", after_a_round(lambda done, me: reverse("standings"))),
    Page("books", "ratings", after_a_round(lambda done, me: reverse("ratings"))),
    Page("books", "member-profile", after_a_round(lambda done, me: reverse("member_profile", args=[me.username]))),
    Page("books", "replay", after_a_round(lambda done, me: reverse("round_replay", args=[done.pk]))),
    Page("books", "fair-deal", after_a_round(lambda done, me: reverse("fair_deal", args=[done.pk]))),
    Page("books", "settle", after_a_round(lambda done, me: reverse("treasury_settle"), staff=True)),
    Page("books", "statement", after_a_round(lambda done, me: reverse("treasury_statement"), staff=True)),
    Page("books", "nights", after_a_round(lambda done, me: reverse("treasury_nights"), staff=True)),
    Page("books", "night-new", after_a_round(lambda done, me: reverse("treasury_night_new"), staff=True)),
    Page("books", "open-sheets", after_a_round(lambda done, me: reverse("treasury_open_sheets"), staff=True)),
    Page("books", "admin-sheepshead-hand", after_a_round(
        lambda done, me: reverse("admin:tables_inpersonrecord_sheepshead"), staff=True)),
    Page("books", "admin-hawk-round", after_a_round(lambda done, me: reverse("admin:tables_inpersonrecord_hawk"),
                                                    staff=True)),
    Page("books", "admin-index", after_a_round(lambda done, me: reverse("admin:index"), staff=True)),
    # rules
    Page("rules", "index", visitor(lambda: reverse("rules_index"))),
    *(Page("rules", game, visitor(lambda game=game: reverse("rules_game", args=[game]))) for game in GAMES),
]


@pytest.mark.parametrize("page", PAGES, ids=[page.id for page in PAGES])
def test_the_page_is_german(page: Page, make_member: Callable[..., User]) -> None:
    client, path = page.open(make_member)
    response = client.get(path)
    assert response.status_code == 200, f"{path}: {response.status_code}"
    html = response.content.decode()
    assert re.search(r'<html lang="de"', html), f"{path}: not marked German"
    left = english_left(visible_text(html))
    assert not left, f"{path} ({page.area}) still shows English: {left}"
