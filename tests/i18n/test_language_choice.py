"""Which language a page speaks: the member's saved choice, else the header's switcher (its cookie), else the
browser's Accept-Language, else English; the switcher works without JavaScript and saves a member's choice."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.members import find_member
from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([^"]*)"', html)
    assert found, html[:200]
    return found.group(1)


def test_the_browser_chooses_when_nothing_else_does(db: None) -> None:
    german = Client().get(reverse("account_login"), **GERMAN).content.decode()
    assert page_language(german) == "de"
    assert "Anmelden" in german and "Mitglied werden" in german and "So spielen wir" in german
    for english in ("Log in", "Join the club", "How we play", "Skip to content"):
        assert english not in german
    english_page = Client().get(reverse("account_login"), **ENGLISH).content.decode()
    assert page_language(english_page) == "en" and "Join the club" in english_page
    # No Accept-Language at all, or one the club does not speak: English, the club's default.
    assert page_language(Client().get(reverse("account_login")).content.decode()) == settings.LANGUAGE_CODE == "en"
    assert page_language(Client().get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == "en"


def test_a_saved_language_wins_over_the_browser_and_the_cookie(make_member) -> None:
    client = Client()
    client.force_login(make_member("greta", language="de"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("profile"), **ENGLISH)
    assert page_language(page.content.decode()) == "de" and page.headers["Content-Language"] == "de"
    assert "Abmelden" in page.content.decode() and "Log out" not in page.content.decode()
    client = Client()
    client.force_login(make_member("ed", language="en"))
    assert page_language(client.get(reverse("profile"), **GERMAN).content.decode()) == "en"


def test_a_member_without_a_saved_language_follows_the_browser(member_client: Client) -> None:
    assert page_language(member_client.get(reverse("profile"), **GERMAN).content.decode()) == "de"
    assert page_language(member_client.get(reverse("profile"), **ENGLISH).content.decode()) == "en"


def test_the_switcher_is_a_plain_form_on_every_page_that_keeps_the_visitor_where_they_were(db: None) -> None:
    page = Client().get(reverse("rules_index") + "?x=1").content.decode()
    form = re.search(r'<form class="languages" method="post" action="([^"]+)"[^>]*>(.*?)</form>', page, re.S)
    assert form and form.group(1) == reverse("set_language")
    assert 'name="csrfmiddlewaretoken"' in form.group(2)
    assert '<input type="hidden" name="next" value="/rules/?x=1">' in form.group(2)
    assert re.search(r'<button[^>]*type="submit" name="language" value="de"[^>]*>Deutsch</button>', form.group(2))
    assert 'value="en"' not in form.group(2)  # the language being read is shown, not offered


def test_a_visitor_who_switches_gets_the_cookie_and_their_page_back(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("rules_index"))  # the CSRF cookie, as the page's form would carry it
    token = client.cookies["csrftoken"].value
    answer = client.post(reverse("set_language"), {"language": "de", "next": "/rules/", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302 and answer.headers["Location"] == "/rules/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert page_language(client.get("/rules/", **ENGLISH).content.decode()) == "de"  # the choice beats the browser


def test_switching_while_logged_in_saves_the_choice_on_the_profile(member: User, member_client: Client) -> None:
    answer = member_client.post(reverse("set_language"), {"language": "de", "next": reverse("lobby")})
    assert answer.status_code == 302 and answer.headers["Location"] == reverse("lobby")
    member.refresh_from_db()
    assert member.language == "de"
    # On another browser, after logging in, the site is German at once.
    other = Client()
    assert other.login(username=member.username, password=PASSWORD)
    assert page_language(other.get(reverse("profile"), **ENGLISH).content.decode()) == "de"


@pytest.mark.parametrize("language", ["fr", "", "de-xx-evil"])
def test_a_language_the_club_does_not_speak_changes_nothing(member: User, member_client: Client, language) -> None:
    answer = member_client.post(reverse("set_language"), {"language": language, "next": "/rules/"})
    assert answer.status_code == 302
    member.refresh_from_db()
    assert member.language == ""
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies


def test_the_switcher_never_sends_anyone_off_the_site(member_client: Client) -> None:
    answer = member_client.post(reverse("set_language"), {"language": "de", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"


def test_the_switcher_takes_posts_only(db: None) -> None:
    assert Client().get(reverse("set_language") + "?language=de&next=/rules/").status_code == 405


def test_the_profile_saves_the_language_and_says_so_in_it(member: User, member_client: Client) -> None:
    form = {"display_name": "Alice", "time_zone": "Europe/Berlin", "language": "de"}
    answer = member_client.post(reverse("profile"), form, **ENGLISH)
    assert answer.status_code == 302
    member.refresh_from_db()
    assert member.language == "de"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    page = member_client.get(reverse("profile"), **ENGLISH).content.decode()
    assert "Dein Profil ist gespeichert." in page and "Your profile is saved." not in page
    assert '<option value="de" selected>Deutsch</option>' in page
    assert "Wie mein Browser es wünscht" in page and "Zeitzone" in page
    # Back to "as my browser asks": the saved choice and the cookie both go, and the browser decides again.
    answer = member_client.post(reverse("profile"), {**form, "language": ""})
    member.refresh_from_db()
    assert member.language == "" and answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    assert page_language(member_client.get(reverse("profile"), **ENGLISH).content.decode()) == "en"


def test_a_language_the_profile_does_not_offer_is_refused(member: User, member_client: Client) -> None:
    answer = member_client.post(reverse("profile"), {"display_name": "Alice", "language": "fr"})
    assert answer.status_code == 400
    member.refresh_from_db()
    assert member.language == ""


def test_account_pages_and_messages_in_german(member: User, member_client: Client, make_member) -> None:
    page = member_client.get(reverse("profile"), **GERMAN).content.decode()
    for german in ("Dein Profil", "Anzeigename", "Ton, wenn ich dran bin", "Passwort ändern", "E-Mail-Adressen"):
        assert german in page
    for english in ("Your profile", "Display name", "Sound on my turn", "Change your password", "Email addresses",
                    "Save", "Username", "History", "Standings", "Rules", "Log out"):
        assert not re.search(rf"\b{english}\b", page), english
    from django.utils import translation

    with translation.override("de"):
        assert find_member("nobody").problem == "Kein Mitglied heißt „nobody“. Wähl einen der Vorschläge."
    with translation.override("en"):
        assert find_member("nobody").problem == "No member is called “nobody”. Pick one of the suggestions."


def test_times_are_written_the_german_way(db: None) -> None:
    from datetime import UTC, datetime

    from django.utils import timezone, translation

    from accounts.templatetags.member_time import when_text

    moment = datetime(2026, 11, 30, 17, 5, tzinfo=UTC)
    with timezone.override("Europe/Berlin"):
        with translation.override("de"):
            assert when_text(moment) == "30. Nov 2026, 18:05 CET"
        with translation.override("en"):
            assert when_text(moment) == "30 Nov 2026, 18:05 CET"
