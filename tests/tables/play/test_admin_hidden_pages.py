"""No admin page tells staff (who also play) a card of a round that is not over; once it is over, it shows.

The hidden-information scan (test_hidden_information.py) reads what players and spectators are sent;
this reads what the admin sends to staff. For a live round of each of the four games, with its
secret moves made (a Sheepshead bury, a Hawsker discard, a Puskiyon draw; Hawk hides its hands and
the cards put aside), every admin page that names the round, its moves, its match or its table is
fetched as a superuser: change pages (their title, heading and breadcrumb), history pages (and the
entries staff changes write), delete confirmations (a member's, which lists their moves), changelists,
search results and facets, the autocomplete JSON, the round's replay and CSV export, and the void
action's confirmation. None may hold a card the round keeps secret, nor any move's text (the move
fields say "hidden until the round is over" for every move of a live round, face-up plays too).
After the round is over the same change and history pages name the move.
"""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import quote_plus

import pytest
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from accounts.models import User
from rules.engine import registry
from rules.engine.moves import Move as EngineMove
from tables.models import Move, Round, Table
from tables.models.play import HIDDEN
from tests.rules.contract import cards_in
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act
from tests.tables.ledger_support import play_until_round_over
from tests.tables.play.test_hidden_information import cards_shown, secret_from

pytestmark = pytest.mark.django_db

# The move each game keeps secret (its text names a hidden card, or it takes one unseen); Hawk has none: its
# secrets are the hands and the cards put aside, and its live moves are hidden in the admin all the same.
SECRET_KIND = {"sheepshead": "bury", "hawsker": "discard", "puskiyon": "draw", "hawk": "play"}
PREFERRED = ("pick", "bury", "discard", "draw")  # steer the random play into the secret moves


def _play_until_secret_moves(table: Table, members: list[User], kind: str, rng: random.Random) -> Round:
    """Member moves (the game's secret kinds first) until the live round holds a secret move and then a move of
    another kind (a Sheepshead picker has buried both cards, every Hawsker discard is made), or six moves."""
    from tables.play.services import play

    for _ in range(200):
        table.refresh_from_db()
        live = current_round(table)
        assert not live.over, "the round ended before the admin could be probed"
        texts = list(live.moves.order_by("seq").values_list("text", flat=True))
        kinds = [text.split()[0] for text in texts]
        if kind in kinds and (kinds[-1] != kind or len(kinds) >= 6):
            return live
        seat = seat_to_act(table)
        legal = legal_for(table, seat)
        preferred = [m for m in legal if m.split()[0] in PREFERRED]
        move = preferred[0] if preferred else rng.choice(legal)
        play.play_move(table_id=table.pk, user=members[seat], move_text=move, expected_version=table.version)
    raise AssertionError("no secret move was made")


_MASKED_HASH = re.compile(r"<bdi>[^<]*\*+</bdi>")


def _admin_log_changes(staff: User, objects: list[Any]) -> None:
    """What staff changing a record writes to the admin's history, through each record's own ModelAdmin."""
    request = type("Request", (), {"user": staff})()
    for obj in objects:
        admin.site._registry[type(obj)].log_change(request, obj, "looked at it")


def _pages(client: Client, live: Round, members: list[User]) -> dict[str, str]:
    """Every admin page that names the live round, its moves, its match or its table, by what it is."""
    table, match = live.match.table, live.match
    moves = list(live.moves.order_by("seq"))
    urls: dict[str, tuple[str, dict[str, Any]]] = {}
    for move in moves:
        for view in ("change", "history", "delete"):
            urls[f"move {move.seq} {view}"] = (reverse(f"admin:tables_move_{view}", args=[move.pk]), {})
    for model, pk in (("round", live.pk), ("match", match.pk), ("table", table.pk)):
        for view in ("change", "history", "delete"):
            urls[f"{model} {view}"] = (reverse(f"admin:tables_{model}_{view}", args=[pk]), {})
    urls["replay"] = (reverse("admin:tables_round_replay", args=[live.pk]), {})
    urls["replay step"] = (reverse("admin:tables_round_replay", args=[live.pk]), {"step": "1"})
    urls["round export"] = (reverse("admin:tables_round_export"), {})
    searches = {"code": table.code, **{f"move {m.seq}": m.text for m in moves}}
    for name in ("move", "round", "match", "table", "ledgerentry", "matchresult", "chatmessage", "queuerequest"):
        changelist = reverse(f"admin:tables_{name}_changelist")
        urls[f"{name} list"] = (changelist, {})
        urls[f"{name} facets"] = (changelist, {"_facets": "1"})
        for label, term in searches.items():
            urls[f"{name} search {label}"] = (changelist, {"q": term})
    urls["moves of the round"] = (reverse("admin:tables_move_changelist"), {"round__id__exact": live.pk})
    for member in members:
        for view in ("change", "history", "delete"):
            urls[f"{member.username} {view}"] = (reverse(f"admin:accounts_user_{view}", args=[member.pk]), {})
    urls["index"] = (reverse("admin:index"), {})
    urls["tables app"] = (reverse("admin:app_list", args=["tables"]), {})
    for model_name, field in (("move", "round"), ("round", "match"), ("match", "table"), ("seat", "table"),
                              ("ledgerentry", "round"), ("chatmessage", "table")):
        for term in ["", table.code, *(m.text for m in moves)]:
            urls[f"autocomplete {model_name}.{field} {term}"] = (reverse("admin:autocomplete"), {
                "app_label": "tables", "model_name": model_name, "field_name": field, "term": term})
    pages = {}
    for label, (url, params) in urls.items():
        response = client.get(url, params)
        assert response.status_code < 500, (label, response.status_code)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        # A member's page shows their password hash masked ("a/8D+x****"): base64, which may hold a card's letters.
        html = _MASKED_HASH.sub("", body.decode())
        if term := params.get("q"):  # the search box and the filters' links say what staff typed: not a leak
            html = html.replace(f'value="{escape(term)}"', "").replace(f"q={quote_plus(term)}", "")
        pages[label] = html
    void = client.post(reverse("admin:tables_round_changelist"),
                       {"action": "void_rounds", "_selected_action": [live.pk]})
    assert void.status_code == 200
    pages["void confirmation"] = void.content.decode()
    return pages


@pytest.mark.parametrize(("game", "language"), [*((game, "en") for game in registry.GAME_KEYS), ("sheepshead", "de")])
def test_no_admin_page_shows_a_live_rounds_secrets_and_its_moves_show_once_it_is_over(make_member, game,
                                                                                      language) -> None:
    """In German too: its admin names the move and says "hidden" in other words (and the scan reads German cards)."""
    players = registry.spec(game).default_players
    members = [make_member(f"m{i}") for i in range(players)]
    staff = make_member("boss", is_staff=True, is_superuser=True)
    table = full_table(game, members)
    live = _play_until_secret_moves(table, members, SECRET_KIND[game], random.Random(5))
    engine = registry.game(game)
    state = engine.from_json(live.state)
    secret = secret_from(game, state, None)
    moves = list(live.moves.order_by("seq"))
    secret_moves = [m for m in moves if m.text.split()[0] == SECRET_KIND[game]]
    assert secret and secret_moves
    _admin_log_changes(staff, [*moves, live, live.match, table])
    client = Client(headers={"accept-language": language})
    client.force_login(staff)

    pages = _pages(client, live, members)
    leaks = []
    for label, html in pages.items():
        if leaked := cards_shown(html) & secret:
            leaks.append(f"{label}: shows {' '.join(sorted(map(str, leaked)))}")
        named = [m.text for m in moves if EngineMove.parse(m.text).cards and escape(m.text) in html]
        if named:
            leaks.append(f"{label}: names the moves {named}")
        if live.seed in html or live.match.seed in html:
            leaks.append(f"{label}: shows a seed")
    assert not leaks, "the admin showed a round not over:\n" + "\n".join(leaks)
    for entry in LogEntry.objects.all():
        assert not cards_in(entry.object_repr), entry.object_repr
    first = secret_moves[0]
    with translation.override(language):
        hidden = escape(str(Move.objects.get(pk=first.pk)))
    assert (HIDDEN in hidden) == (language == "en")  # the German admin says it in German
    for label in (f"move {first.seq} change", f"move {first.seq} history"):
        assert hidden in pages[label], f"{label} does not name move {first.seq} as hidden: {hidden}"
    assert escape(f"{first.seq}. seat {first.seat}: {HIDDEN}") in pages["index"]  # written in English

    play_until_round_over(table)
    live.refresh_from_db()
    assert live.over
    for move in secret_moves:
        with translation.override(language):
            shown = escape(str(Move.objects.get(pk=move.pk)))
        assert move.text in shown
        for view in ("change", "history"):
            html = client.get(reverse(f"admin:tables_move_{view}", args=[move.pk])).content.decode()
            assert html.count(shown) >= 2, f"{view} of a finished round's move {move.seq} does not name it"
