"""Every page is sent with a strict Content-Security-Policy and carries nothing that policy would block.

The header alone is not enough: a template that brings back an inline script, a `style=` attribute or an
`onclick=` breaks silently in the browser (CSP blocks it). The HTML scan below makes such a template fail
here, in the fast tier, before a browser ever sees it.
"""

from __future__ import annotations

from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.models import Round
from tables.play.services.tables import create_table
from tests.tables.helpers import current_round, full_table
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

EXPECTED = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    # 'self' covers ws: of the same host in CSP3 browsers; the explicit source serves the others.
    "connect-src": {"'self'", "ws://testserver"},
    "img-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}

# Script types a browser does not run (data blocks): CSP does not apply to them.
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json", "text/template"}
SCRIPT_TYPES = {"", "text/javascript", "module", "application/javascript"}


class InlineCodeFinder(HTMLParser):
    """Collects every piece of markup that a `script-src 'self'; style-src 'self'` policy would block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._script: str | None = None
        self._body: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            value = value or ""
            if name == "style":
                self.problems.append(f'<{tag} style="{value}">')
            elif name.startswith("on"):
                self.problems.append(f'<{tag} {name}="{value}">')
            elif name.startswith(("hx-on", "data-hx-on")) or (
                name in {"hx-vals", "hx-vars", "hx-headers"} and value.lstrip().startswith(("js:", "javascript:"))
            ):
                self.problems.append(f'<{tag} {name}="{value}"> (htmx evaluates it: needs unsafe-eval)')
            elif name in {"href", "src", "action", "formaction"} and value.strip().lower().startswith("javascript:"):
                self.problems.append(f'<{tag} {name}="{value}">')
        if tag == "style":
            self.problems.append("<style> block")
        if tag == "script":
            kind = (dict(attrs).get("type") or "").strip().lower()
            self._script = kind if kind not in DATA_SCRIPT_TYPES else None
            self._body = []

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._body.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            body = "".join(self._body).strip()
            if body:
                self.problems.append(f"inline <script>: {body[:80]!r}")
            self._script = None


def inline_code(html: str) -> list[str]:
    finder = InlineCodeFinder()
    finder.feed(html)
    finder.close()
    return finder.problems


def directives(header: str) -> dict[str, set[str]]:
    parsed: dict[str, set[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = set(words[1:])
    return parsed


def policy_problems(client: Client, urls: Iterable[str], **extra: str) -> list[str]:
    """Every URL must answer 200 with the full policy and markup the policy allows."""
    problems: list[str] = []
    for url in urls:
        response = client.get(url, **extra)
        if response.status_code != 200:
            problems.append(f"{url}: status {response.status_code}")
            continue
        header = response.headers.get("Content-Security-Policy")
        if header is None:
            problems.append(f"{url}: no Content-Security-Policy header")
        else:
            sent = directives(header)
            for name, sources in EXPECTED.items():
                if sent.get(name) != sources:
                    problems.append(f"{url}: {name} is {sorted(sent.get(name, set()))}, expected {sorted(sources)}")
        if "text/html" in response.headers.get("Content-Type", ""):
            problems.extend(f"{url}: {found}" for found in inline_code(response.content.decode()))
    return problems


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_scan_finds_each_kind_of_inline_code() -> None:
    page = (
        '<div style="color: red">a</div><button onclick="go()">b</button><style>p{}</style>'
        "<script>alert(1)</script><script src=\"/static/x.js\"></script>"
        '<script type="application/json">{"data": 1}</script>'
        '<a href="javascript:go()">c</a><div hx-on:click="go()">d</div><div hx-vals=\'js:{"a": go()}\'>e</div>'
    )
    found = inline_code(page)
    assert len(found) == 7, found
    assert inline_code('<script src="/static/x.js"></script><p class="x" data-move="play">ok</p>') == []


def test_no_template_source_carries_inline_code() -> None:
    """Also the fragments only sockets send (lobby rows, quick-play notices), which no GET below renders."""
    found = [f"{path.relative_to(TEMPLATES)}: {problem}"
             for path in sorted(TEMPLATES.rglob("*.html")) for problem in inline_code(path.read_text())]
    assert not found, "\n".join(found)


def test_public_pages_send_the_policy_and_no_inline_code(db: None) -> None:
    client = Client()
    urls = [reverse("home"), reverse("account_login"), reverse("account_signup"), reverse("account_reset_password"),
            reverse("rules_index"), *(reverse("rules_game", args=[key]) for key in
                                      ("sheepshead", "hawk", "hawsker", "puskiyon"))]
    problems = policy_problems(client, urls)
    assert not problems, "\n".join(problems)


def test_members_pages_and_fragments_send_the_policy_and_no_inline_code(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    bob = make_member("bob")
    finished = finished_table("sheepshead", [alice, bob], bots=3)
    done = Round.objects.get(match__table=finished, number=1)
    dave = make_member("dave")
    running = full_table("hawk", [dave], bots=3)
    waiting = create_table(creator=make_member("erin"), game="puskiyon", players=3)
    client = client_for(alice)
    pages = [
        reverse("lobby"), reverse("profile"), reverse("my_history"), reverse("standings"),
        reverse("round_replay", args=[done.pk]), reverse("fair_deal", args=[done.pk]),
        reverse("table", args=[finished.code]), reverse("table", args=[running.code]),
        reverse("table", args=[waiting.code]), reverse("account_change_password"),
        reverse("account_email"),
    ]
    fragments = [
        reverse("lobby_tables"), reverse("new_table_form") + "?game=sheepshead", reverse("quick_form"),
        reverse("quick_panel"),
        reverse("board", args=[running.code]), reverse("board", args=[finished.code]),
        reverse("round_replay", args=[done.pk]) + "?step=2",
    ]
    assert current_round(running) is not None
    problems = policy_problems(client, pages) + policy_problems(client, fragments, **HTMX)
    assert not problems, "\n".join(problems)
    # Alice watches the running table; its player sees their hand and moves.
    problems = policy_problems(client_for(dave), [reverse("table", args=[running.code])])
    assert not problems, "\n".join(problems)


def test_the_admin_sends_the_policy_and_no_inline_code(make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    ann = make_member("ann")
    finished = finished_table("sheepshead", [ann, boss], bots=3)
    done = Round.objects.get(match__table=finished, number=1)
    client = client_for(boss)
    changelists = [reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
                   for model in admin.site._registry]
    urls = [
        reverse("admin:index"), *changelists,
        reverse("admin:tables_round_change", args=[done.pk]), reverse("admin:tables_round_replay", args=[done.pk]),
        reverse("admin:tables_round_replay", args=[done.pk]) + "?step=3",
        reverse("admin:tables_table_change", args=[finished.pk]),
        reverse("admin:accounts_user_change", args=[ann.pk]),
        reverse("admin:tables_ledgerentry_balances"), reverse("admin:tables_ledgerentry_correct") + f"?round={done.pk}",
        reverse("admin:tables_inpersonrecord_sheepshead"), reverse("admin:tables_inpersonrecord_hawk"),
    ]
    problems = policy_problems(client, urls)
    assert not problems, "\n".join(problems)
