"""Bot levels at the tables: a table's level and a bot seat's own are kept, the lobby's form asks for normal
bots, nonsense is refused with nothing saved, the board says how well each bot plays (in English and German),
and the seed a bot's search gets is public (never the round's shuffle seed)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine import search
from tables.models import Seat, Table
from tables.play.forms import NewTableForm
from tables.play.selectors import board_for
from tables.play.services import play
from tables.play.services.errors import TableError
from tables.play.services.tables import add_bot, create_full_table, create_table, join_table
from tests.tables.helpers import client_for, current_round, new_table_data
from tests.tables.play.test_board_table_life import board_html, seat_of

pytestmark = pytest.mark.django_db


def levels(table: Table) -> list[tuple[bool, str]]:
    return list(Seat.objects.filter(table=table).order_by("position").values_list("is_bot", "bot_level"))


def test_the_clubs_levels_are_the_engines() -> None:
    assert tuple(Table.BotLevel.values) == search.LEVELS


def test_a_table_and_a_bot_seat_keep_their_levels(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4, bot_level="normal")
    add_bot(table_id=table.pk, user=alice, bot_level="strong")
    add_bot(table_id=table.pk, user=alice)  # no level: the table's
    join_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and table.bot_level == "normal"
    assert levels(table) == [(False, ""), (True, "strong"), (True, ""), (False, "")]
    live = play.Live.load(table)
    assert [live.level_of(seat) for seat in range(4)] == ["normal", "strong", "normal", "normal"]


def test_code_that_does_not_say_gets_easy_bots(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2, fill_with_bots=True)
    assert table.bot_level == "easy"
    full = create_full_table(game="hawsker", players=2, members=[bob], bots=1)
    assert full.bot_level == "easy"
    assert create_full_table(game="hawk", players=4, members=[make_member("carol")], bots=3,
                             bot_level="strong").bot_level == "strong"


def test_the_lobby_form_asks_for_normal_bots_and_the_table_gets_them(make_member) -> None:
    assert NewTableForm(game="hawk").fields["bot_level"].initial == "normal"
    alice = make_member("alice")
    answer = client_for(alice).post(reverse("create_table"), new_table_data("hawk"))
    assert answer.status_code == 302
    assert Table.objects.get().bot_level == "normal"


def test_the_lobby_form_makes_a_strong_table(make_member) -> None:
    alice = make_member("alice")
    client_for(alice).post(reverse("create_table"), {**new_table_data("hawk"), "bot_level": "strong"})
    assert Table.objects.get().bot_level == "strong"


def test_a_nonsense_level_is_refused_and_nothing_is_saved(make_member) -> None:
    alice = make_member("alice")
    with pytest.raises(TableError, match="Bots play at one of these levels: easy, normal, strong"):
        create_table(creator=alice, game="hawk", players=4, bot_level="genius")
    with pytest.raises(TableError, match="levels"):
        create_full_table(game="hawk", players=4, members=[alice], bots=3, bot_level="genius")
    assert not Table.objects.exists()

    answer = client_for(alice).post(reverse("create_table"), {**new_table_data("hawk"), "bot_level": "genius"})
    assert answer.status_code == 400 and not Table.objects.exists()

    table = create_table(creator=alice, game="hawk", players=4)
    version = table.version
    with pytest.raises(TableError, match="levels"):
        add_bot(table_id=table.pk, user=alice, bot_level="genius")
    table.refresh_from_db()
    assert table.version == version and not Seat.objects.filter(table=table, is_bot=True).exists()


def test_adding_a_bot_on_the_board_chooses_its_level_or_takes_the_tables(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, bot_level="normal")
    client = client_for(alice)
    html = board_html(table, alice)
    assert 'id="bot-level"' in html and '<option value="normal" selected>' in html
    client.post(reverse("add_bot", args=[table.code]), {"level": "strong"})
    client.post(reverse("add_bot", args=[table.code]))
    assert levels(table)[1:3] == [(True, "strong"), (True, "")]
    answer = client.post(reverse("add_bot", args=[table.code]), {"level": "genius"}, headers={"HX-Request": "true"})
    assert answer.status_code >= 400 and "Bots play at one of these levels" in answer.content.decode()
    assert levels(table)[3] == (False, "")


def test_the_board_says_how_well_each_bot_plays_and_the_tables_level(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    table = create_table(creator=alice, game="hawk", players=4, bot_level="normal")
    add_bot(table_id=table.pk, user=alice, bot_level="strong")
    add_bot(table_id=table.pk, user=alice, bot_level="easy")
    add_bot(table_id=table.pk, user=alice)
    html = board_html(table, alice)
    assert "bot · strong" in seat_of(html, 1)[1]
    assert "bot · easy" in seat_of(html, 2)[1]
    assert "bot · normal" in seat_of(html, 3)[1]
    assert "bot ·" not in seat_of(html, 0)[1]
    rules = dict(board_for(table, alice).house_rules)
    assert rules["Bots play"] == "normal"

    with translation.override("de"):
        html = board_html(table, alice)
        assert "Bot · stark" in seat_of(html, 1)[1]
        assert "Bot · leicht" in seat_of(html, 2)[1]
        assert "Bot · mittel" in seat_of(html, 3)[1]
        assert dict(board_for(table, alice).house_rules)["Bots spielen"] == "mittel"


def test_the_search_seed_is_public_never_the_rounds_shuffle_seed(make_member, monkeypatch) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, fill_with_bots=True)  # easy: no search runs
    seeds: list[tuple[str, str]] = []
    real = play.bot_chooser

    def recording(game: str, level: str, seed: str):
        seeds.append((level, seed))
        return real(game, "easy", seed)  # quick: the seed is the point here

    monkeypatch.setattr(play, "bot_chooser", recording)
    table.refresh_from_db()
    live = play.Live.load(table)
    seat = live.seat_to_act()
    Seat.objects.filter(table=table, position=seat).update(bot_level="strong")
    live = play.Live.load(table)
    live.decide(seat)
    current = current_round(table)
    [(level, seed)] = seeds
    assert level == "strong"
    assert seed == f"{table.code}|{current.number}|{seat}"
    assert current.seed not in seed and current.salt not in seed
