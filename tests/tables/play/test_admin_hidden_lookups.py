"""The admin's filters, search and sorting tell a staff member who also plays nothing about a round not over.

Django's changelist applies any lookup named in the URL and shows how many rows matched, so
`?seed__startswith=a2` answered "1 round" or "0 rounds" and a seated admin could read another seat's
hand or the whole seed one guess at a time. Every guess below is made twice, once right and once
wrong, and the two answers must be the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tables.models import InPersonRecord, LedgerEntry, Match, Move, QueueRequest, Round, Table
from tables.play.admin_helpers.lookups import DeclaredLookupsOnly
from tests.tables.ledger_support import staff_playing_an_unfinished_round

pytestmark = pytest.mark.django_db

HIDDEN_FIELDS = {(Round, "seed"), (Round, "state"), (Round, "result"), (Round, "match_before"), (Match, "seed"),
                 (Match, "state"), (Move, "text")}


@dataclass
class Secrets:
    """What the seated admin must not learn: the live round's seed, a hand, a move, the match's seed."""

    table: Table
    live: Round
    match: Match
    other_card: str  # the first card in the hand of a seat that is not the admin's
    wrong_card: str  # a card that is not there
    searched_card: str  # a card in that seat's hand that no searched name or text holds
    wrong_searched_card: str  # a card not in that hand that no searched name or text holds
    move: str  # a move of the live round
    wrong_move: str  # a move text no round has


def _wrong_prefix(seed: str) -> str:
    return ("0" if seed[0] != "0" else "1") + seed[1:8]


def _searched_texts() -> str:
    """What the admins' search boxes read besides the rounds (names, codes, labels), in lower case: a search for a
    card that one of them holds ("AD" in "ann's Sheepshead table") finds a row for that reason alone."""
    texts = [*Table.objects.values_list("code", "name"), *User.objects.values_list("username", "display_name"),
             *LedgerEntry.objects.values_list("label", "reason"),
             *InPersonRecord.objects.values_list("summary", "note")]
    return " ".join(str(text) for row in texts for text in row).lower()


@pytest.fixture
def secrets(make_member) -> tuple[Client, Secrets]:
    boss, ann, table, live = staff_playing_an_unfinished_round(make_member)
    hands = live.state["hands"]
    earlier = set(Move.objects.exclude(round=live).values_list("text", flat=True))
    texts = list(live.moves.order_by("seq").values_list("text", flat=True))
    move = next((text for text in texts if text not in earlier), texts[-1])
    every = set(Move.objects.values_list("text", flat=True))
    deck = {c for hand in hands for c in hand} | set(live.state.get("blind") or [])
    wrong_move = next(f"bury {c}" for c in sorted(deck) if f"bury {c}" not in every)
    QueueRequest.objects.create(user=ann, game="sheepshead", expires_at=timezone.now() + timedelta(minutes=1),
                                state=QueueRequest.State.MATCHED, table=table)
    client = Client()
    client.force_login(boss)
    searched = _searched_texts()
    found = Secrets(table=table, live=live, match=table.match, other_card=hands[0][0], wrong_card=hands[2][0],
                    searched_card=next(c for c in hands[0] if c.lower() not in searched),
                    wrong_searched_card=next(c for c in hands[2] if c.lower() not in searched),
                    move=move, wrong_move=wrong_move)
    return client, found


Guess = Callable[[Secrets, bool], dict[str, Any]]


def seed_guess(path: str, scope: Callable[[Secrets], dict[str, Any]] | None = None) -> Guess:
    def guess(s: Secrets, right: bool) -> dict[str, Any]:
        prefix = s.live.seed[:8] if right else _wrong_prefix(s.live.seed)
        return {**(scope(s) if scope else {}), f"{path}__startswith": prefix}
    return guess


def match_seed_guess(path: str) -> Guess:
    def guess(s: Secrets, right: bool) -> dict[str, Any]:
        return {f"{path}__startswith": s.match.seed[:8] if right else _wrong_prefix(s.match.seed)}
    return guess


def hand_guess(path: str) -> Guess:
    def guess(s: Secrets, right: bool) -> dict[str, Any]:
        return {f"{path}__hands__0__0": s.other_card if right else s.wrong_card}
    return guess


def move_guess(path: str, scope: Callable[[Secrets], dict[str, Any]] | None = None) -> Guess:
    def guess(s: Secrets, right: bool) -> dict[str, Any]:
        return {**(scope(s) if scope else {}), path: s.move if right else s.wrong_move}
    return guess


def search_guess(what: str) -> Guess:
    """A search box guess: a live move's text ("bury JC"), a card in another seat's hand, or the seed's start."""
    def guess(s: Secrets, right: bool) -> dict[str, Any]:
        terms = {"move": (s.move, s.wrong_move), "card": (s.searched_card, s.wrong_searched_card),
                 "seed": (s.live.seed[:8], _wrong_prefix(s.live.seed))}
        return {"q": terms[what][0 if right else 1]}
    return guess


def _this_round(s: Secrets) -> dict[str, Any]:
    return {"id": s.live.pk}


def _its_moves(s: Secrets) -> dict[str, Any]:
    return {"round__id__exact": s.live.pk}


CASES: dict[str, tuple[str, Guess]] = {
    "round seed": ("admin:tables_round_changelist", seed_guess("seed", _this_round)),
    "round seed, no scope": ("admin:tables_round_changelist", seed_guess("seed")),
    "round seed in its state": ("admin:tables_round_changelist", seed_guess("state__seed")),
    "round state hands": ("admin:tables_round_changelist", hand_guess("state")),
    "round moves text": ("admin:tables_round_changelist", move_guess("moves__text")),
    "round match seed": ("admin:tables_round_changelist", match_seed_guess("match__seed")),
    "move text": ("admin:tables_move_changelist", move_guess("text", _its_moves)),
    "move text, no scope": ("admin:tables_move_changelist", move_guess("text")),
    "move round seed": ("admin:tables_move_changelist", seed_guess("round__seed")),
    "move round state hands": ("admin:tables_move_changelist", hand_guess("round__state")),
    "match seed": ("admin:tables_match_changelist", match_seed_guess("seed")),
    "match state": ("admin:tables_match_changelist", match_seed_guess("state__seed")),
    "match rounds seed": ("admin:tables_match_changelist", seed_guess("rounds__seed")),
    "match rounds moves": ("admin:tables_match_changelist", move_guess("rounds__moves__text")),
    "table match seed": ("admin:tables_table_changelist", match_seed_guess("match__seed")),
    "table rounds seed": ("admin:tables_table_changelist", seed_guess("match__rounds__seed")),
    "table rounds hands": ("admin:tables_table_changelist", hand_guess("match__rounds__state")),
    "table rounds moves": ("admin:tables_table_changelist", move_guess("match__rounds__moves__text")),
    "ledger entry round's match rounds": ("admin:tables_ledgerentry_changelist",
                                          seed_guess("round__match__rounds__seed")),
    "ledger entry round's match seed": ("admin:tables_ledgerentry_changelist", match_seed_guess("round__match__seed")),
    "ledger entry match moves": ("admin:tables_ledgerentry_changelist",
                                 move_guess("round__match__rounds__moves__text")),
    "queue request table rounds": ("admin:tables_queuerequest_changelist",
                                   seed_guess("table__match__rounds__seed")),
    "member moves": ("admin:accounts_user_changelist", move_guess("moves__text")),
    "member seats rounds": ("admin:accounts_user_changelist", seed_guess("seats__table__match__rounds__seed")),
}
# The search box of every admin that lists a round, a move, its match or its table, or reaches them: a search for
# "bury JC" (or a card, or the seed) finds as much whether the live round holds it or not.
SEARCHED = ["table", "round", "move", "match", "ledgerentry", "matchresult", "chatmessage", "queuerequest",
            "inpersonrecord"]
for _name in SEARCHED:
    for _what in ("move", "card", "seed"):
        CASES[f"{_name} search for a {_what}"] = (f"admin:tables_{_name}_changelist", search_guess(_what))
CASES["member search for a move"] = ("admin:accounts_user_changelist", search_guess("move"))


def answer(client: Client, url: str, params: dict[str, Any]) -> tuple[int, str | None, int | None, bytes | None]:
    """What the admin tells: the status, where it redirects, how many rows matched, and any error page."""
    response = client.get(url, params)
    count = None
    if response.status_code == 200:
        found = re.search(r'<p class="paginator">\s*(\d+)', response.content.decode())
        count = int(found.group(1)) if found else None
    body = None if response.status_code == 200 else response.content
    return response.status_code, response.get("Location"), count, body


@pytest.mark.parametrize("case", list(CASES))
def test_a_right_and_a_wrong_guess_at_a_hidden_field_get_the_same_answer(secrets, case: str) -> None:
    client, found = secrets
    url_name, guess = CASES[case]
    url = reverse(url_name)
    right = answer(client, url, guess(found, True))
    wrong = answer(client, url, guess(found, False))
    assert right == wrong, f"{case}: {guess(found, True)} -> {right[:3]}, {guess(found, False)} -> {wrong[:3]}"


def _filter_links(html: str) -> list[str]:
    """The query strings of every choice in the changelist's filter sidebar."""
    side = html.split('id="changelist-filter"', 1)
    links = re.findall(r'href="(\?[^"]*)"', side[1]) if len(side) == 2 else []
    return sorted({link.replace("&amp;", "&") for link in links})


@pytest.mark.parametrize("model", [Table, Round, Move, Match, LedgerEntry, InPersonRecord, QueueRequest],
                         ids=lambda m: m.__name__)
def test_every_declared_filter_and_date_still_works(secrets, model: type) -> None:
    client, found = secrets
    url = reverse(f"admin:tables_{model._meta.model_name}_changelist")
    page = client.get(url)
    assert page.status_code == 200
    links = _filter_links(page.content.decode())
    assert links
    date_field = admin.site._registry[model].date_hierarchy
    if date_field:
        today = timezone.localdate()
        links.append(f"?{date_field}__year={today.year}&{date_field}__month={today.month}")
    for link in links:
        response = client.get(url + link)
        assert response.status_code == 200, link
    moves = client.get(reverse("admin:tables_move_changelist"), {"round__id__exact": found.live.pk})
    assert moves.status_code == 200
    assert re.search(rf'<p class="paginator">\s*{found.live.moves.count()} moves', moves.content.decode())


def _club_admins() -> list[admin.ModelAdmin]:
    return [model_admin for model, model_admin in admin.site._registry.items() if model._meta.app_label == "tables"]


def test_every_admin_of_the_clubs_records_takes_only_its_declared_lookups() -> None:
    assert len(_club_admins()) >= 7
    for model_admin in _club_admins():
        assert isinstance(model_admin, DeclaredLookupsOnly), type(model_admin).__name__


def _touches_hidden(model: type, path: str) -> bool:
    """Whether a field path (`match__rounds__seed`) passes through a hidden field on its way."""
    for part in path.lstrip("-").split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if (model, part) in HIDDEN_FIELDS:
            return True
        if not field.is_relation:
            return False
        model = field.related_model
    return False


def _ordering_of(model_admin: admin.ModelAdmin, name: str) -> str | None:
    try:
        model_admin.model._meta.get_field(name)
    except FieldDoesNotExist:
        column = getattr(model_admin, name, None) or getattr(model_admin.model, name, None)
        ordering = getattr(column, "admin_order_field", None)
        return None if ordering is None else str(ordering)
    return name


@pytest.mark.parametrize("model_admin", _club_admins(), ids=lambda a: type(a).__name__)
def test_no_search_or_sorting_reaches_a_hidden_field(model_admin: admin.ModelAdmin, rf) -> None:
    """A sortable column or a search field on the seed, a state or a move's text would order or find rows
    by what is hidden: the order of two rounds would tell which seed is smaller."""
    request = rf.get("/")
    request.user = User(is_staff=True, is_superuser=True)
    model = model_admin.model
    for field in model_admin.get_search_fields(request):
        assert not _touches_hidden(model, field.lstrip("^=@")), field
    for name in model_admin.get_sortable_by(request):
        ordering = _ordering_of(model_admin, name)
        assert ordering is None or not _touches_hidden(model, ordering), name
    for ordering in model_admin.get_ordering(request) or ():
        assert not _touches_hidden(model, str(ordering)), ordering
