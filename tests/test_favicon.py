"""Browsers ask every site for /favicon.ico; the club answers with its own icon, from its own origin."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


class IconLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and "icon" in (found.get("rel") or "").split():
            self.hrefs.append(found.get("href") or "")


def icon_links(html: str) -> list[str]:
    parser = IconLinks()
    parser.feed(html)
    return parser.hrefs


def served(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_favicon_ico_leads_to_the_clubs_icon_without_a_login() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code in (301, 302)
    location = response["Location"]
    assert location.startswith("/static/") and location.endswith(".svg")  # the site's own origin (img-src 'self')
    assert b"<svg" in served(client, location)


@pytest.mark.parametrize("name", ["home", "account_login", "rules_index"])
def test_pages_link_the_icon_from_the_site_itself(name: str) -> None:
    client = Client()
    links = icon_links(client.get(reverse(name)).content.decode())
    assert links, name
    for href in links:
        assert href.startswith("/static/"), href
        assert b"<svg" in served(client, href)
