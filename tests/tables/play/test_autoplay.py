"""A member's only card played for them, and the card they chose ahead (tables.play.autoplay): by the table clock, a
short pause after the move before, each its own version; refused cleanly when the state changed; private.

Hawk for four: one member (seat 0) and three bots. At the instant speed the bots answer within the member's request,
so the member is soon to act again; at the brisk speed each bot's card waits for the clock, which leaves time to
choose a card ahead while a bot is to act."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from rules.engine import registry
from rules.engine.moves import Move as EngineMove
from tables.models import Move, Seat, Table
from tables.play import autoplay, rendering
from tables.play.services import clock, play
from tables.play.services.errors import IllegalPlay, NotSeated, StaleVersion, TableError
from tables.play.services.premoves import choose_premove
from tables.play.services.tables import add_bot, create_table
from tests.tables.helpers import current_round, legal_for, seat_to_act, watching

pytestmark = pytest.mark.django_db


def hawk(member: User, *, speed: str = "instant", others: list[User] | None = None) -> Table:
    """Hawk for four with `member` at seat 0 (and `others` after them), bots in the other seats, every page open."""
    others = others or []
    table = create_table(creator=member, game="hawk", players=4, bot_speed=speed, turn_seconds=600)
    from tables.play.services.tables import join_table

    for other in others:
        join_table(table_id=table.pk, user=other)
    for _ in range(3 - len(others)):
        add_bot(table_id=table.pk, user=member)
    watching(table, member, *others)
    table.refresh_from_db()
    return table


def step(table: Table) -> bool:
    """One step of the table clock, at the moment the table is next due."""
    table.refresh_from_db()
    assert table.due_at is not None, "nothing is due at the table"
    changed = clock.advance(table_id=table.pk, now=table.due_at)
    table.refresh_from_db()
    return changed


def to_a_forced_turn(table: Table, member: User) -> str:
    """The member plays their first legal card each turn until a turn leaves them one card; returns it."""
    for _ in range(300):
        table.refresh_from_db()
        if seat_to_act(table) == 0:
            legal = legal_for(table, 0)
            if len(legal) == 1:
                return legal[0]
            play.play_move(table_id=table.pk, user=member, move_text=legal[0], expected_version=table.version)
        else:
            step(table)
    raise AssertionError("no turn with a single card came")


def board(table: Table, user: User) -> str:
    table.refresh_from_db()
    return rendering.render_board(table, user)


def test_the_only_card_is_played_for_the_member_after_its_pause(make_member) -> None:
    alice = make_member("alice", auto_play_forced=True)
    table = hawk(alice)
    only = to_a_forced_turn(table, alice)
    table.refresh_from_db()
    moved_at = current_round(table).moved_at
    assert table.due_at == moved_at + autoplay.FORCED_PAUSE  # the clock's, long before her time runs out
    html = board(table, alice)
    assert "Playing your only card…" in html and "data-move=" not in html  # nothing to click, no "your turn"
    assert 'class="board my-turn"' not in html

    assert not clock.advance(table_id=table.pk, now=moved_at + autoplay.FORCED_PAUSE / 2)  # not before the pause
    assert seat_to_act(table) == 0
    version = table.version
    assert step(table)
    played = Move.objects.get(round__match__table=table, table_version=version + 1)  # one version step
    assert (played.seat, played.text, played.actor, played.user) == (0, only, Move.Actor.FORCED, alice)


def test_a_forced_card_does_not_make_the_match_one_a_member_played(make_member) -> None:
    alice = make_member("alice", auto_play_forced=True)
    table = hawk(alice)
    to_a_forced_turn(table, alice)
    Move.objects.filter(actor=Move.Actor.MEMBER).update(actor=Move.Actor.TIMEOUT)  # as if she had never clicked
    step(table)
    live = play.Live.load(table)
    assert live.made == [] and not live.members_moved()


def test_the_only_card_waits_for_the_member_who_switched_it_off(make_member) -> None:
    alice = make_member("alice", auto_play_forced=False)
    table = hawk(alice)
    only = to_a_forced_turn(table, alice)
    table.refresh_from_db()
    rnd = current_round(table)
    assert table.due_at == rnd.deadline  # her time, nothing sooner
    html = board(table, alice)
    assert f'data-move="{only}"' in html and "Playing your only card" not in html
    assert not clock.advance(table_id=table.pk, now=rnd.moved_at + timedelta(seconds=5))
    assert seat_to_act(table) == 0


def test_a_member_whose_page_is_closed_gets_no_forced_card(make_member) -> None:
    alice = make_member("alice", auto_play_forced=True)
    table = hawk(alice)
    to_a_forced_turn(table, alice)
    Seat.objects.filter(table=table, user=alice).update(gone_at=current_round(table).moved_at + timedelta(hours=1))
    live = play.Live.load(table)
    assert live.pending_auto() is None  # a member away is the bot's business, after the grace


def test_a_single_decision_that_is_not_a_card_is_never_made_for_the_member(make_member, monkeypatch) -> None:
    alice, bob = make_member("alice", auto_play_forced=True), make_member("bob", auto_play_forced=True)
    table = create_table(creator=alice, game="sheepshead", players=3, turn_seconds=600)
    from tables.play.services.tables import join_table

    join_table(table_id=table.pk, user=bob)
    add_bot(table_id=table.pk, user=alice)
    watching(table, alice, bob)
    table.refresh_from_db()
    seat = seat_to_act(table)
    assert seat in (0, 1) and "pass" in legal_for(table, seat)  # picking: pick or pass
    module = registry.game("sheepshead")
    monkeypatch.setattr(module, "legal_moves", lambda state, seat: [EngineMove("pass")])
    live = play.Live.load(table)
    assert live.pending_auto() is None
    assert autoplay.forced_move("sheepshead", live.state, seat) is None
    assert live.due() == current_round(table).deadline  # her time, nothing sooner
    Table.objects.filter(pk=table.pk).update(due_at=current_round(table).moved_at + timedelta(seconds=5))
    assert not clock.advance(table_id=table.pk, now=current_round(table).moved_at + timedelta(seconds=5))
    assert seat_to_act(table) == seat


def a_chance_to_choose(table: Table, member: User, *, want_drop: bool) -> tuple[str, bool]:
    """Plays on (the member's first legal card at their turns, the clock for the bots) until a bot is to act in a
    trick another seat led and the member has yet to play to: returns a card to choose ahead, and whether it will
    still be legal at their turn (a card of the led suit, or any card when they hold none). With `want_drop`, only
    a moment when they hold two cards of the led suit and another suit too, and the card is of the other suit (it
    will not be legal)."""
    game = registry.game("hawk")
    for _ in range(400):
        table.refresh_from_db()
        to_act = seat_to_act(table)
        if to_act == 0:
            play.play_move(table_id=table.pk, user=member, move_text=legal_for(table, 0)[0],
                           expected_version=table.version)
            continue
        if to_act is None:  # the round ended before a chance came: the next one is dealt after the pause
            step(table)
            continue
        view = game.view(game.from_json(current_round(table).state), 0)
        trick = view["trick"]
        if trick and all(play_["seat"] != 0 for play_ in trick):
            led = view["led_suit"]
            follow = [c for c in view["hand"] if c[-1] == led]
            other = [c for c in view["hand"] if c[-1] != led]
            if want_drop and len(follow) > 1 and other:  # and a choice at her turn (no forced card)
                return other[0], False
            if not want_drop:
                return (follow or view["hand"])[0], True
        step(table)
    raise AssertionError("no chance to choose a card ahead came")


def brisk_table(make_member) -> tuple[Table, User]:
    alice = make_member("alice", auto_play_forced=True)
    return hawk(alice, speed="brisk"), alice


def serial_of(table: Table, user: User) -> int:
    return Seat.objects.get(table=table, user=user).premove_serial


def test_a_card_chosen_ahead_is_played_when_the_turn_comes(make_member) -> None:
    table, alice = brisk_table(make_member)
    card, _legal = a_chance_to_choose(table, alice, want_drop=False)
    version = table.version
    serial = choose_premove(table_id=table.pk, user=alice, move_text=f"play {card}", expected_version=version,
                            expected_serial=serial_of(table, alice))
    table.refresh_from_db()
    assert table.version == version  # no version, no push: nobody else learns of it
    assert 'class="card premovable chosen' in board(table, alice) or "premovable red chosen" in board(table, alice)
    while seat_to_act(table) != 0:
        step(table)
    html = board(table, alice)
    assert "Playing your chosen card" in html and "data-move=" not in html
    rnd = current_round(table)
    assert table.due_at == rnd.moved_at + autoplay.pause(autoplay.PREMOVE, speed="brisk",
                                                         closed_trick=bool(rnd.log[-1].get("trick")))
    step(table)
    played = Move.objects.filter(round=rnd, seat=0).order_by("-seq").first()
    assert (played.text, played.actor, played.user) == (f"play {card}", Move.Actor.MEMBER, alice)
    seat = Seat.objects.get(table=table, user=alice)
    assert seat.premove == "" and seat.premove_serial > serial


def test_a_card_no_longer_legal_is_dropped_and_the_member_told(make_member) -> None:
    table, alice = brisk_table(make_member)
    card, _legal = a_chance_to_choose(table, alice, want_drop=True)
    choose_premove(table_id=table.pk, user=alice, move_text=f"play {card}", expected_version=table.version,
                   expected_serial=serial_of(table, alice))
    while seat_to_act(table) != 0:
        step(table)
    seat = Seat.objects.get(table=table, user=alice)
    assert seat.premove == "" and seat.premove_dropped == f"play {card}"  # dropped when the turn came
    html = board(table, alice)
    shown = autoplay.card_text(f"play {card}")
    assert f"Your chosen card {shown} could no longer be played." in html
    assert "could no longer be played" not in board(table, make_member("watcher"))  # hers alone
    assert "data-move=" in html  # her turn, to play as she likes
    table.refresh_from_db()
    assert table.due_at == current_round(table).deadline  # nothing is played for her
    move = legal_for(table, 0)[0]
    play.play_move(table_id=table.pk, user=alice, move_text=move, expected_version=table.version)
    assert "could no longer be played" not in board(table, alice)  # said until she moved


def test_a_card_chosen_ahead_is_private(make_member, django_capture_on_commit_callbacks) -> None:
    alice, bob, watcher = make_member("alice"), make_member("bob"), make_member("watcher")
    table = hawk(alice, speed="brisk", others=[bob])
    card, _legal = a_chance_to_choose(table, alice, want_drop=False)
    while seat_to_act(table) == 1:  # bob's turn would make his board differ; wait for a bot's
        step(table)
    assert seat_to_act(table) != 0, "a_chance_to_choose stops at a bot's turn, so the bots move before Alice"
    before = {user.pk: board(table, user) for user in (bob, watcher)}
    rendering.forget_boards()
    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        choose_premove(table_id=table.pk, user=alice, move_text=f"play {card}", expected_version=table.version,
                       expected_serial=serial_of(table, alice))
    assert after_commit == []  # no push to any socket (every push leaves after a commit), no new version
    rendering.forget_boards()
    for user in (bob, watcher):
        html = board(table, user)
        assert html == before[user.pk]  # not a byte of it
        assert "chosen" not in html and "Chosen for your turn" not in html
    assert "Chosen for your turn" in board(table, alice)


def test_choosing_ahead_is_refused_cleanly(make_member) -> None:
    table, alice = brisk_table(make_member)
    stranger = make_member("stranger")
    card, _legal = a_chance_to_choose(table, alice, want_drop=False)
    version, serial = table.version, serial_of(table, alice)
    with pytest.raises(NotSeated):
        choose_premove(table_id=table.pk, user=stranger, move_text=f"play {card}", expected_version=version,
                       expected_serial=0)
    with pytest.raises(IllegalPlay):  # a card she does not hold
        theirs = next(c for c in ("AC", "AS", "AH", "AD", "2C", "2S") if c not in legal_hand(table))
        choose_premove(table_id=table.pk, user=alice, move_text=f"play {theirs}", expected_version=version,
                       expected_serial=serial)
    with pytest.raises(IllegalPlay):
        choose_premove(table_id=table.pk, user=alice, move_text="", expected_version=version, expected_serial=serial)
    choose_premove(table_id=table.pk, user=alice, move_text=f"play {card}", expected_version=version,
                   expected_serial=serial)
    with pytest.raises(StaleVersion):  # the same request again
        choose_premove(table_id=table.pk, user=alice, move_text=f"play {card}", expected_version=version,
                       expected_serial=serial)
    assert serial_of(table, alice) == serial + 1
    step(table)  # a bot's card: the game moved on
    with pytest.raises(StaleVersion):
        choose_premove(table_id=table.pk, user=alice, move_text="", expected_version=version,
                       expected_serial=serial + 1)
    assert Seat.objects.get(table=table, user=alice).premove == f"play {card}"
    alice.premoves = False
    alice.save()
    table.refresh_from_db()
    with pytest.raises(TableError):
        choose_premove(table_id=table.pk, user=alice, move_text="", expected_version=table.version,
                       expected_serial=serial + 1)
    while seat_to_act(table) != 0:
        step(table)
    if Seat.objects.get(table=table, user=alice).premove:  # still hers, about to be played: her turn now
        alice.premoves = True
        alice.save()
        with pytest.raises(IllegalPlay):
            choose_premove(table_id=table.pk, user=alice, move_text="", expected_version=table.version,
                           expected_serial=serial_of(table, alice))


def legal_hand(table: Table) -> list[str]:
    game = registry.game("hawk")
    return game.view(game.from_json(current_round(table).state), 0)["hand"]


def test_choosing_ahead_by_post_answers_with_the_members_board(make_member) -> None:
    table, alice = brisk_table(make_member)
    card, _legal = a_chance_to_choose(table, alice, want_drop=False)
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(alice)
    page = client.get(f"/t/{table.code}/").content.decode()  # a board of this version is kept now
    assert f'data-premove="play {card}"' in page and "Chosen for your turn" not in page
    reply = client.post(f"/t/{table.code}/premove/", {"move": f"play {card}", "version": table.version,
                                                      "serial": serial_of(table, alice)})
    assert reply.status_code == 200 and "Chosen for your turn" in reply.content.decode()
    assert "Chosen for your turn" in client.get(f"/t/{table.code}/").content.decode()  # not the kept board
    again = client.post(f"/t/{table.code}/premove/", {"move": "", "version": table.version, "serial": 0})
    assert again.status_code == 409 and again["HX-Retarget"] == "#table-error"
    taken_back = client.post(f"/t/{table.code}/premove/", {"move": "", "version": table.version,
                                                           "serial": serial_of(table, alice)})
    assert taken_back.status_code == 200 and "Chosen for your turn" not in taken_back.content.decode()
    assert Seat.objects.get(table=table, user=alice).premove == ""
