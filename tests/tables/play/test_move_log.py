"""The round's move log: a line per move, written as the move is made, naming a hidden card only to the one
who may see it (a drawn card to its drawer; a discard or a buried card to nobody else), with the moves that
closed a trick marked, so the board pauses on them and shows who took it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from rules.engine import registry
from rules.engine.api import Config
from rules.engine.api import Match as EngineMatch
from rules.engine.moves import Move as EngineMove
from rules.engine.puskiyon.state import DREW, DREW_PASSED
from rules.engine.text import from_data
from tables.models import Move, Round
from tables.play import move_log
from tables.play.selectors import log_lines
from tables.play.services import clock
from tables.play.services.tables import leave_table
from tests.tables.helpers import PLAYERS, current_round, full_table, seat_to_act, watching
from tests.tables.play.table_life import due, moves_at, play_member, seat_of

pytestmark = pytest.mark.django_db


def stored(text: object) -> str:
    """A log line's text as the round keeps it (rules.engine.text.to_data), read back as its English."""
    return str(from_data(text))

CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])")


def cards_named(text: object) -> set[str]:
    return set(CARD.findall(stored(text)))


def played_rounds(game: str, make_member, *, rounds: int = 1, seed: int = 3, **options: object) -> list[Round]:
    """Rounds of `game` played to the end at an instant table: one member (at random) and bots."""
    alice = make_member("alice")
    table = full_table(game, [alice], bots=PLAYERS[game] - 1, **options)
    watching(table, alice)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        for _ in range(2000):
            rnd = current_round(table)
            if rnd.number > number or rnd.over:
                break
            play_member(table, alice, rng)
        if number < rounds:
            table.refresh_from_db()
            clock.advance(table_id=table.pk, now=current_round(table).deadline)  # the pause ends
    return list(Round.objects.filter(match__table=table, over=True).order_by("number"))


def move_lines(rnd: Round) -> list[dict[str, Any]]:
    return [line for line in rnd.log if line.get("actor") != "deal"]


def replayed(rnd: Round) -> list[tuple[Move, Any, Any]]:
    """Each recorded move of the round with the engine state before and after it, from the round's seed."""
    game = registry.game(rnd.match.table.game)
    state = game.new_round(Config.from_json(rnd.match.config), rnd.seed, EngineMatch.from_json(rnd.match_before))
    steps = []
    for move in rnd.moves.order_by("seq"):
        after = game.apply(state, move.seat, EngineMove.parse(move.text))
        steps.append((move, state, after))
        state = after
    return steps


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_each_move_appends_one_line_naming_its_seat_and_who_moved(game, make_member) -> None:
    for rnd in played_rounds(game, make_member, rounds=2):
        moves = list(rnd.moves.order_by("seq"))
        lines = move_lines(rnd)
        assert [(line["seat"], line["actor"]) for line in lines] == [(m.seat, m.actor) for m in moves]
        assert all(stored(line["text"]) for line in lines)
        assert {m.actor for m in moves} >= {Move.Actor.MEMBER, Move.Actor.BOT}
        deal = [line for line in rnd.log if line.get("actor") == "deal"]
        assert deal == rnd.log[: len(deal)]  # a deal's line, where the game has one, comes first
        assert len(deal) <= 1


def test_each_step_of_the_clock_adds_its_own_line(make_member, settings) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3)
    watching(table, alice)
    rng = random.Random(8)
    for _ in range(12):
        before = len(current_round(table).log)
        if current_round(table).over:
            break
        if seat_of(table, alice).position == seat_to_act(table):
            play_member(table, alice, rng)
        else:
            clock.advance(table_id=table.pk, now=due(table))
        rnd = current_round(table)
        assert len(rnd.log) == before + 1
        assert rnd.log[-1]["seat"] == moves_at(table).last().seat


def test_a_drawn_card_is_named_only_to_its_drawer(make_member) -> None:
    hidden_draws = 0
    for rnd in played_rounds("puskiyon", make_member, rounds=3, seed=11):
        lines = move_lines(rnd)
        for (move, _before, after), line in zip(replayed(rnd), lines, strict=True):
            seat, kind, card = after.last
            if move.text != "draw" or kind not in (DREW, DREW_PASSED):
                continue
            hidden_draws += 1
            card = str(card)
            assert card not in cards_named(stored(line["text"])), line
            assert "drew a card" in stored(line["text"])
            own = line.get("own") or {}
            assert card in cards_named(own[str(seat)])
            for viewer in range(PLAYERS["puskiyon"]):
                if viewer != seat:
                    assert card not in cards_named(own.get(str(viewer), "")), line
            assert move_log.lines_for([line], None)[0]["text"] == stored(line["text"])  # a spectator: the public one
            assert card in cards_named(move_log.lines_for([line], seat)[0]["text"])
    assert hidden_draws > 0


def test_a_hawsker_discard_is_a_card_face_down_for_all_but_its_player(make_member) -> None:
    discards = 0
    for rnd in played_rounds("hawsker", make_member, rounds=2):
        for move, line in zip(rnd.moves.order_by("seq"), move_lines(rnd), strict=True):
            kind, *cards = move.text.split()
            if kind != "discard":
                continue
            discards += 1
            assert "face down" in stored(line["text"])
            assert not set(cards) & cards_named(line["text"]), line
            own = line.get("own") or {}
            assert set(own) == {str(move.seat)}
            assert set(cards) <= cards_named(own[str(move.seat)])
            assert move_log.lines_for([line], 1 - move.seat)[0]["text"] == stored(line["text"])
    assert discards > 0


def test_buried_cards_never_reach_the_public_log(make_member) -> None:
    """Across rounds until someone picked: the blind's buried cards appear in no spectator's line and in no
    other seat's, only in the picker's own account."""
    buried_seen = 0
    for rnd in played_rounds("sheepshead", make_member, rounds=4, seed=2):
        buried = {(m.seat, m.text.split()[1]) for m in rnd.moves.all() if m.text.startswith("bury ")}
        if not buried:
            continue
        picker = next(iter(buried))[0]
        cards = {card for _, card in buried}
        buried_seen += len(cards)
        for line in rnd.log:
            assert not cards & cards_named(stored(line["text"])), line
            for viewer, text in (line.get("own") or {}).items():
                if int(viewer) != picker:
                    assert not cards & cards_named(text), line
        public = " ".join(t["text"] for t in move_log.lines_for(rnd.log, None))
        assert not cards & cards_named(public)
        mine = " ".join(t["text"] for t in move_log.lines_for(rnd.log, picker))
        assert cards <= cards_named(mine)
    assert buried_seen > 0


@pytest.mark.parametrize("game", ["hawk", "sheepshead"])
def test_a_line_per_closed_trick_is_marked(game, make_member) -> None:
    for rnd in played_rounds(game, make_member):
        steps = replayed(rnd)
        lines = move_lines(rnd)
        closing = [registry.tricks_done(game, after) > registry.tricks_done(game, before) for _, before, after in steps]
        assert [bool(line.get("trick")) for line in lines] == closing
        assert sum(closing) == registry.tricks_done(game, steps[-1][2]) > 0


@pytest.mark.parametrize("game", ["hawsker", "puskiyon"])
def test_games_without_tricks_mark_none(game, make_member) -> None:
    for rnd in played_rounds(game, make_member):
        assert not any(line.get("trick") for line in rnd.log)


def test_each_viewer_reads_their_own_account_and_a_spectator_the_public_one() -> None:
    log = [
        {"seat": 2, "actor": "bot", "text": "Seat 2 drew a card.", "own": {"2": "You drew 7H."}},
        {"seat": 0, "actor": "member", "text": "", "own": {"0": "You passed."}},
        {"seat": 1, "actor": "bot", "text": "Seat 1 played 9C; seat 1 takes the trick.", "trick": True},
    ]
    assert [stored(line["text"]) for line in move_log.lines_for(log, None)] == [
        "Seat 2 drew a card.", "Seat 1 played 9C; seat 1 takes the trick."]
    assert [stored(line["text"]) for line in move_log.lines_for(log, 2)] == [
        "You drew 7H.", "Seat 1 played 9C; seat 1 takes the trick."]
    assert [stored(line["text"]) for line in move_log.lines_for(log, 0)] == [
        "Seat 2 drew a card.", "You passed.", "Seat 1 played 9C; seat 1 takes the trick."]
    assert [line["trick"] for line in move_log.lines_for(log, 1)] == [False, True]


def test_a_new_round_starts_a_new_log(make_member) -> None:
    first, second = played_rounds("hawk", make_member, rounds=2)
    assert len(first.log) == first.moves_made  # (Hawk has no line for the deal)
    assert len(second.log) == second.moves_made


def test_the_bots_closing_a_table_write_their_lines_too(make_member) -> None:
    alice = make_member("alice")
    table = full_table("puskiyon", [alice], bots=3)
    leave_table(table_id=table.pk, user=alice)
    rnd = current_round(table)
    assert rnd.over
    assert len(move_lines(rnd)) == rnd.moves_made == moves_at(table).count()


def board_lines(rnd: Round, viewer: int | None, language: str) -> list[str]:
    """The log as the board shows it to `viewer` in `language` (names put in, suits as symbols)."""
    names = [f"P{seat}" for seat in range(PLAYERS[rnd.match.table.game])]
    with translation.override(language):
        return [line.text for line in log_lines(rnd, viewer, names, set())]


def test_each_buried_card_and_the_partner_are_told_once_in_either_language(make_member) -> None:
    """Issue 41: the last card of the bury counted the whole bury again ("P4 buried a card." then "P4 buried 2
    cards"), and the line closing a trick said "X is the picker's partner." again after the jack of diamonds."""
    buries = partners = 0
    for rnd in played_rounds("sheepshead", make_member, rounds=4, seed=2):
        buried = rnd.moves.filter(text__startswith="bury ").count()
        buries += buried
        for viewer in (None, *range(PLAYERS["sheepshead"])):
            english, german = board_lines(rnd, viewer, "en"), board_lines(rnd, viewer, "de")
            assert len([line for line in english if "buried" in line]) == buried, english
            assert not [line for line in english if re.search(r"buried \d+ cards", line)]
            assert len([line for line in german if "drückt" in line or "gedrückt" in line]) == buried, german
            assert not [line for line in german if "Karten gedrückt" in line]
            told = [line for line in english if "picker's partner" in line]
            assert len(told) <= 1, told
            assert len([line for line in german if "Partner des Aufnehmers" in line]) == len(told)
            partners += len(told)
    assert buries > 0 and partners > 0


def test_a_draw_is_told_once_not_again_with_what_came_of_it(make_member) -> None:
    """Issue 41: "You drew 3C." then "You drew 3C and passed."; now the second line tells the pass only."""
    draws = 0
    for rnd in played_rounds("puskiyon", make_member, rounds=2, seed=5):
        drawn = rnd.moves.filter(text="draw").count()
        draws += drawn
        for viewer in (None, *range(PLAYERS["puskiyon"])):
            english, german = board_lines(rnd, viewer, "en"), board_lines(rnd, viewer, "de")
            assert len([line for line in english if "drew" in line]) == drawn, english
            assert len([line for line in german if "zieht" in line or "gezogen" in line]) == drawn, german
    assert draws > 0
