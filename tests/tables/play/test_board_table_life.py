"""The board as people see table life: who is there, who the table waits for, what happened this round, the
trick just taken, totals that agree with the result, a table that closed by itself, and what leaving does.

Boards are read as the browser gets them (the rendered HTML, by the hooks ARCHITECTURE.md names: `.seat` with
`data-presence` and `data-cards`, `.prompt`), for a member and for a spectator, after moves made through the
services. Presence depends on the time, so boards whose presence is the point are built for a given moment.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from html.parser import HTMLParser

import pytest
from django.template import engines
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from rules.engine.cards import SUIT_SYMBOLS, card
from tables.models import LedgerEntry, Match, Move, Seat, Table
from tables.play.rendering import render_board
from tables.play.selectors import board_for, face
from tables.play.services import clock, play
from tables.play.services.tables import EVERYONE_LEFT, add_bot, create_table, join_table, leave_table
from tests.tables.helpers import PLAYERS, current_round, full_table, legal_for, play_one, seat_to_act, watching

pytestmark = pytest.mark.django_db

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_SEAT_NUMBER = re.compile(r"\b[Ss]eat \d+\b")
_YOU = re.compile(r"\b[Yy]ou\b")


class _Found(HTMLParser):
    """Every element with class `wanted`, as (attributes, its text with the whitespace squeezed)."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.found: list[tuple[dict[str, str | None], list[str]]] = []
        self._open: list[tuple[str, list[str] | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        attributes = dict(attrs)
        texts = None
        if self.wanted in (attributes.get("class") or "").split():
            texts = []
            self.found.append((attributes, texts))
        self._open.append((tag, texts))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, _texts = self._open.pop()
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        for _tag, texts in self._open:
            if texts is not None:
                texts.append(data)


def elements(html: str, wanted: str) -> list[tuple[dict[str, str | None], str]]:
    parser = _Found(wanted)
    parser.feed(html)
    return [(attrs, " ".join("".join(texts).split())) for attrs, texts in parser.found]


def text_of(html: str, wanted: str) -> str:
    found = elements(html, wanted)
    assert len(found) == 1, f"expected one .{wanted}, found {len(found)}"
    return found[0][1]


def spoken_text_of(html: str, wanted: str) -> str:
    """The element's text as a screen reader reads it: what is `aria-hidden` (a card's symbols) is left out."""
    return text_of(re.sub(r'<span aria-hidden="true">[^<]*</span>', "", html), wanted)


def seat_of(html: str, position: int) -> tuple[dict[str, str | None], str]:
    return next((attrs, text) for attrs, text in elements(html, "seat") if attrs.get("data-seat") == str(position))


def log_of(html: str) -> list[str]:
    """The lines of "What happened this round", in the order of the page."""
    return [text for _took, text in log_items(html)]


def log_items(html: str) -> list[tuple[bool, str]]:
    """(marked as a trick taken, text) for each line of the round's log on the page."""
    if '<ol class="log-lines">' not in html:
        return []
    start = html.index('<ol class="log-lines">')
    items = re.findall(r"<li([^>]*)>(.*?)</li>", html[start:html.index("</ol>", start)], flags=re.S)
    return [('class="took"' in attrs, " ".join(re.sub(r"<[^>]+>", "", body).split())) for attrs, body in items]


def board_html(table: Table, user: User, now: datetime | None = None) -> str:
    """The board `user` gets, built from the database at `now` (not a kept one: presence changes here are written
    straight to the rows, without the new version a service would make)."""
    table.refresh_from_db()
    board = board_for(table, user, now=now)
    return engines["jinja2"].get_template("tables/play/board.html").render({"board": board, "oob": False, "user": user})


def shown(c: str) -> str:
    """A card as the log writes it: 7H reads 7♥."""
    return f"{card(c).rank}{SUIT_SYMBOLS[card(c).suit]}"


def until(table: Table, members: dict[int, User], rng: random.Random, done: Callable[[], bool],
          limit: int = 400) -> None:
    """Members' random moves (bots answer at once, the tests' default speed) until `done()`."""
    for _ in range(limit):
        if done():
            return
        assert play_one(table, members, rng), "no member was to act before the test's moment came"
    raise AssertionError("the moment never came")


def paced_hawk(alice: User, bob: User) -> Table:
    """Hawk for Alice, Bob and two bots that move at the club's normal pace (by the table clock, not at once)."""
    table = create_table(creator=alice, game="hawk", players=4, bot_speed="normal")
    join_table(table_id=table.pk, user=bob)
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


# Seats: who is there, in markup and in words


def test_seats_say_who_is_online_offline_or_played_by_the_bot(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawk", [alice, bob], bots=2)
    now = timezone.now()
    Seat.objects.filter(table=table, user=bob).update(offline_since=now - timedelta(seconds=5))  # grace: 15 s
    state = registry.game("hawk").from_json(current_round(table).state)
    counts = [len(hand) for hand in state.hands]

    html = board_html(table, alice, now)
    seats = elements(html, "seat")
    assert [attrs["data-seat"] for attrs, _ in seats] == ["0", "1", "2", "3"]
    assert [attrs["data-cards"] for attrs, _ in seats] == [str(n) for n in counts]
    assert [attrs["data-presence"] for attrs, _ in seats] == ["online", "offline", "bot", "bot"]
    me, bob_seat = seats[0][1], seats[1][1]
    assert "me" in seats[0][0]["class"].split() and "online" in me and "offline" not in me
    assert "presence-dot" in html  # online is quiet: a dot, the word for screen readers only
    assert "offline" in bob_seat and "bot plays" not in bob_seat
    assert "bot" in seats[2][1] and "bot" in seats[3][1]

    later = board_html(table, alice, now + timedelta(seconds=16))  # the grace has run out
    attrs, bob_seat = seat_of(later, 1)
    assert attrs["data-presence"] == "offline" and "offline · the bot plays for them" in bob_seat

    Seat.objects.filter(table=table, user=bob).update(offline_since=None)
    leave_table(table_id=table.pk, user=bob)
    attrs, bob_seat = seat_of(board_html(table, alice), 1)
    assert attrs["data-presence"] == "bot" and "left · the bot plays" in bob_seat


def test_a_seat_shown_through_the_real_render_carries_its_hooks(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("puskiyon", [alice, bob], bots=2)
    html = render_board(table, make_member("watcher"))
    assert [attrs["data-presence"] for attrs, _ in elements(html, "seat")] == ["online", "online", "bot", "bot"]
    assert all(attrs["data-cards"].isdigit() for attrs, _ in elements(html, "seat"))


# The prompt never waits for someone who will not act


def bob_to_act(table: Table, alice: User, rng: random.Random) -> None:
    until(table, {0: alice}, rng, lambda: seat_to_act(table) == 1)


def test_the_prompt_says_the_bot_plays_for_an_offline_member_once_the_grace_is_over(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    watcher = make_member("watcher")
    table = full_table("hawk", [alice, bob], bots=2)
    bob_to_act(table, alice, random.Random(3))
    now = timezone.now()
    Seat.objects.filter(table=table, user=bob).update(offline_since=now - timedelta(seconds=5))

    for viewer in (alice, watcher):
        html = board_html(table, viewer, now)
        assert text_of(html, "prompt") == "Waiting for Bob (offline) — the bot plays for them in a moment."
        assert 'class="countdown"' in html  # his time still runs

        later = board_html(table, viewer, now + timedelta(seconds=30))
        assert text_of(later, "prompt") == "The bot is playing for Bob…"
        assert 'class="countdown"' not in later  # nobody's time is counting down: the bot plays
        assert "to-act" in seat_of(later, 1)[0]["class"].split()


def test_the_prompt_says_a_bot_or_the_bot_for_a_member_who_left_is_playing(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = paced_hawk(alice, bob)
    rng = random.Random(5)
    members = {0: alice, 1: bob}
    until(table, members, rng, lambda: seat_to_act(table) in (2, 3))  # the bots wait for the clock: a bot is to act
    bot = seat_to_act(table)
    html = board_html(table, alice)
    assert text_of(html, "prompt") == f"Bot {bot + 1} is playing…"
    assert "Waiting" not in text_of(html, "prompt") and 'class="countdown"' not in html

    leave_table(table_id=table.pk, user=bob)  # then Bob's turns are the bot's
    later = timezone.now()
    for _ in range(20):  # the table clock moves the bots, a minute apart, Alice her own cards
        if seat_to_act(table) == 1:
            break
        if seat_to_act(table) == 0:
            play_one(table, {0: alice}, rng)
        else:
            later += timedelta(minutes=1)
            clock.advance(table_id=table.pk, now=later)
    assert seat_to_act(table) == 1
    html = board_html(table, alice)
    assert text_of(html, "prompt") == "The bot is playing for Bob…" and 'class="countdown"' not in html
    assert text_of(board_html(table, bob), "prompt") == "The bot is playing for you…"


def test_a_member_to_act_who_is_here_is_prompted_as_before(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawk", [alice, bob], bots=2)
    bob_to_act(table, alice, random.Random(3))
    html = board_html(table, alice)
    assert text_of(html, "prompt") == "Waiting for Bob to play." and 'class="countdown"' in html
    assert text_of(board_html(table, bob), "prompt").startswith("Your")


# What happened this round


def first_trick_taken(table: Table) -> bool:
    return any(line.get("trick") for line in current_round(table).log or [])


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_the_round_log_tells_each_viewer_what_happened_in_order(make_member, game) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    watcher = make_member("watcher")
    table = full_table(game, [alice, bob], bots=PLAYERS[game] - 2)
    rng = random.Random(11)
    moves_made = {"n": 0}

    def enough() -> bool:
        trick_game = game in ("sheepshead", "hawk")
        return moves_made["n"] >= 6 and (not trick_game or first_trick_taken(table))

    for _ in range(400):
        if enough():
            break
        assert play_one(table, {0: alice, 1: bob}, rng)
        moves_made["n"] += 1
    rnd = current_round(table)
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    names = [line.name for line in board_for(table, watcher).seats]
    dealt = [line for line in rnd.log if line["actor"] == "deal"]
    assert len(rnd.log) == len(dealt) + len(moves)

    public = log_of(board_html(table, watcher))
    own = log_of(board_html(table, alice))
    assert len(public) == len(own) == len(rnd.log)  # every move, oldest first
    for move, said, mine in zip(moves, public[len(dealt):], own[len(dealt):], strict=True):
        assert names[move.seat] in said or said.startswith("Everybody passed"), (move.text, said)
        kind, *cards = move.text.split()
        if kind == "play":
            assert all(shown(c) in said for c in cards), (move.text, said)  # names the card, with its suit
        if kind == "bury":
            assert shown(cards[0]) not in said  # a buried card is the picker's alone
        if move.seat == 0 and game != "hawsker":
            assert _YOU.search(mine), (move.text, mine)  # Alice reads her own moves as "You ..."
    assert not any(_YOU.search(line) for line in public), "a spectator reads the public text only"
    assert not any(_SEAT_NUMBER.search(line) for line in public + own), "seats are named"
    taken = [line.get("trick", False) for line in rnd.log]
    assert [took for took, _text in log_items(board_html(table, alice))] == taken  # lines taking a trick are marked
    if game in ("sheepshead", "hawk"):
        assert any(taken)


def test_a_drawn_card_is_named_to_its_drawer_only_puskiyon(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    watcher = make_member("watcher")
    table = full_table("puskiyon", [alice, bob], bots=2)
    rng = random.Random(2)
    until(table, {0: alice, 1: bob}, rng, lambda: seat_to_act(table) in (0, 1) and "draw" in legal_for(
        table, seat_to_act(table)))
    seat = seat_to_act(table)
    drawer, other = (alice, bob) if seat == 0 else (bob, alice)
    play.play_move(table_id=table.pk, user=drawer, move_text="draw", expected_version=table.version)
    drawn = str(registry.game("puskiyon").from_json(current_round(table).state).drawn)

    assert log_of(board_html(table, drawer))[-1].startswith(f"You drew {shown(drawn)}")
    for viewer in (other, watcher):
        last = log_of(board_html(table, viewer))[-1]
        assert last == f"{drawer.display_name} drew a card."
        assert shown(drawn) not in " ".join(log_of(board_html(table, viewer)))


def test_a_drawn_card_is_named_to_nobody_else_hawsker(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawsker", [alice, bob])
    rng = random.Random(4)
    game = registry.game("hawsker")
    for _ in range(200):
        table.refresh_from_db()
        seat = seat_to_act(table)
        assert seat is not None
        before = game.from_json(current_round(table).state)
        mover = (alice, bob)[seat]
        plays = [m for m in legal_for(table, seat) if m.startswith("play")]
        move = rng.choice(plays or legal_for(table, seat))
        play.play_move(table_id=table.pk, user=mover, move_text=move, expected_version=table.version)
        after = game.from_json(current_round(table).state)
        new = set(after.hands[seat]) - set(before.hands[seat])
        if new:
            break
    else:
        raise AssertionError("nobody drew")
    drawn = str(new.pop())
    mine, theirs = board_html(table, mover), board_html(table, (bob, alice)[seat])
    # the drawer reads the move as their own, the other player the same words with the drawer's name; the
    # card drawn is in neither
    told_me, told_them = log_of(mine)[-1], log_of(theirs)[-1]
    assert told_me.startswith("You played ") and "drew a card." in told_me
    # (what follows the draw, such as the end of pegging, speaks to each reader of themselves: compare the draw's part)
    drew = told_me.index(" drew a card.") + len(" drew a card.")
    assert told_them.startswith(told_me[:drew].replace("You played ", f"{mover.display_name} played ", 1))
    assert shown(drawn) not in told_me
    # in the drawer's hand: as a card, or as the button that discards it when the drawer must discard now
    assert re.search(rf'aria-label="(?:[^"]*: )?{re.escape(face(drawn).name)}"', mine)
    assert face(drawn).name not in theirs and shown(drawn) not in theirs
    assert not re.search(rf"(?<![A-Za-z0-9]){drawn}(?![A-Za-z0-9])", theirs)


def test_a_buried_card_is_named_to_the_picker_only(make_member) -> None:
    members = [make_member(f"m{i}", display_name=f"M{i}") for i in range(5)]
    watcher = make_member("watcher")
    table = full_table("sheepshead", members)
    by_seat = dict(enumerate(members))
    picker, buried = None, []
    for _ in range(20):  # the first to act picks, then buries
        table.refresh_from_db()
        seat = seat_to_act(table)
        legal = legal_for(table, seat)
        move = "pick" if "pick" in legal else next((m for m in legal if m.startswith("bury")), None)
        if move is None:
            break
        play.play_move(table_id=table.pk, user=by_seat[seat], move_text=move, expected_version=table.version)
        if move.startswith("bury"):
            picker = seat
            buried.append(move.split()[1])
    assert picker is not None and len(buried) == 2
    picker_log = log_of(board_html(table, by_seat[picker]))
    assert f"You buried {shown(buried[0])}." in picker_log  # the picker's own account names the card
    for viewer in [*(m for s, m in by_seat.items() if s != picker), watcher]:
        log = " ".join(log_of(board_html(table, viewer)))
        assert "buried a card" in log and not any(shown(c) in log for c in buried)


# The trick just taken


@pytest.mark.parametrize(("game", "unit"), [("sheepshead", "points"), ("hawk", "pips")])
def test_the_trick_just_taken_stays_on_the_table_with_who_took_it(make_member, game, unit) -> None:
    members = [make_member(f"m{i}", display_name=f"M{i}") for i in range(PLAYERS[game])]
    table = full_table(game, members)
    engine = registry.game(game)
    rng = random.Random(8)

    def trick_just_taken() -> bool:
        state = engine.from_json(current_round(table).state)
        return bool(state.tricks) and not engine.view(state, None)["trick"] and not current_round(table).over

    until(table, dict(enumerate(members)), rng, trick_just_taken)
    view = engine.view(engine.from_json(current_round(table).state), None)
    last = view["last_trick"] if game == "sheepshead" else view["history"][-1]
    count = last["points"] if game == "sheepshead" else last["pips"]
    taker = f"M{last['winner']}"
    for viewer in (members[0], make_member("watcher")):
        html = board_html(table, viewer)
        figures = re.findall(r"<figure>(.*?)</figure>", html[html.index('class="trick last-trick"'):], flags=re.S)
        assert len(figures) == len(last["cards"])
        for figure, played in zip(figures, last["cards"], strict=True):
            assert f'aria-label="{face(played["card"]).name}"' in figure
            assert f"<figcaption>M{played['seat']}</figcaption>" in figure  # who played each card
        assert text_of(html, "took-trick") == f"{taker} took the trick ({count} {unit})"

    play_one(table, dict(enumerate(members)), rng)  # the next lead: the trick in play, the last one as a line
    html = board_html(table, members[0])
    assert 'class="trick last-trick"' not in html
    assert text_of(html, "last-trick-line").startswith(f"Last trick to {taker} ({count} {unit}): ")
    # Who played which card, as a screen reader says it (the symbols are hidden from it, the names are not).
    plays = ", ".join(f"M{played['seat']} played {face(played['card']).name}" for played in last["cards"])
    assert spoken_text_of(html, "last-trick-line") == f"Last trick to {taker} ({count} {unit}): {plays}"


# Totals once a round is over


def test_puskiyon_totals_agree_with_the_result_once_the_round_is_over(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("puskiyon", [alice, bob], bots=2)
    until(table, {0: alice, 1: bob}, random.Random(6), lambda: current_round(table).over, limit=2000)
    rnd = current_round(table)
    totals = Match.objects.get(table=table).state["totals"]
    assert totals != rnd.result["summary"]["totals_before"]  # the round moved them: the old line would be wrong
    assert totals == rnd.result["summary"]["totals_after"]
    html = board_html(table, alice)
    facts = text_of(html, "game-facts")
    assert f"totals Alice {totals[0]}, Bob {totals[1]}, Bot 3 {totals[2]}, Bot 4 {totals[3]}" in facts
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>\s*<td class="num">[^<]*</td>\s*<td class="num">([^<]*)</td>',
                      html)
    assert [int(total) for _name, total in rows] == totals  # the result table says the same


# A table that closed by itself


def test_a_table_that_closed_by_itself_says_why_and_invites_nothing(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    table = full_table("hawk", [alice], bots=3)
    leave_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and table.close_reason == EVERYONE_LEFT
    for viewer in (alice, make_member("watcher")):
        html = board_html(table, viewer)
        notice = text_of(html, "closed-notice")
        assert EVERYONE_LEFT in notice and "Back to the lobby" in notice
        assert text_of(html, "prompt") == "This table has closed."
        assert "hx-post" not in html and "data-move" not in html and "Ready for the next round" not in html
        assert 'class="countdown"' not in html


def test_a_table_whose_members_all_went_offline_closes_with_that_reason(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    table = full_table("puskiyon", [alice], bots=3)
    long_ago = timezone.now() - timedelta(hours=2)
    Seat.objects.filter(table=table, user=alice).update(offline_since=long_ago, gone_at=None)
    Table.objects.filter(pk=table.pk).update(due_at=long_ago)
    clock.advance(table_id=table.pk)
    html = board_html(table, alice)
    assert clock.ALL_OFFLINE in text_of(html, "closed-notice")
    assert "hx-post" not in html and "Ready for the next round" not in html


# Leaving


def test_leaving_says_what_will_happen_and_it_does(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("puskiyon", [alice, bob], bots=2)

    def confirm(user: User) -> str:
        found = re.search(r'hx-confirm="([^"]*)"', board_html(table, user))
        assert found, "no leave button"
        return html.unescape(found.group(1))

    assert confirm(alice) == ("Leave the table? The bot finishes this round for you (its result is yours); from the "
                              "next round the house plays your seat (its results are the house's, not yours). Take "
                              "your seat back between rounds to play for yourself again.")
    leave_table(table_id=table.pk, user=bob)
    assert confirm(alice) == ("You are the last player here. If you leave, the bots finish this round (it is "
                              "settled as usual, unless no member has moved in this match yet: then it counts for "
                              "nothing) and the table closes.")
    assert "Take my seat back" in board_html(table, bob)

    # "Your results still count for you": the round the bot finished for Bob is in the ledger in his name.
    rnd = current_round(table)
    rng = random.Random(9)
    for _ in range(2000):  # Alice plays her turns; the table clock has the bot play Bob's
        if current_round(table).over:
            break
        if not play_one(table, {0: alice}, rng):
            clock.advance(table_id=table.pk, now=timezone.now() + timedelta(minutes=1))
    entry = LedgerEntry.objects.get(round=rnd, seat=1)
    assert entry.member == bob and not entry.is_bot

    # After the round, nothing is left of it to finish: leaving then says so, alone or not (issue 41).
    assert confirm(alice) == ("You are the last player here. If you leave, the table closes; the rounds played so far "
                              "stand.")
    join_table(table_id=table.pk, user=bob)
    assert confirm(alice) == ("Leave the table? From the next round the house plays your seat: its results are the "
                              "house's, not yours. Take your seat back between rounds to play for yourself again.")
    assert "the bots finish this round" not in confirm(alice)


def test_the_house_rules_say_the_bot_speed_and_the_grace(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, bot_speed="slow", grace_seconds=40)
    html = board_html(table, alice)
    rules = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", html))
    assert rules["Bot speed"] == "slow (a move every 1.5 s)"
    assert rules["Grace before the bot plays for an offline player"] == "40 s"
    assert rules["Time per turn"] == "60 s"


def test_the_log_says_when_the_bot_played_a_members_seat(make_member) -> None:
    """The engine tells a move as the seat's own ("You played 4♣"); the log adds who really made it."""
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawk", [alice, bob], bots=2)
    bob_to_act(table, alice, random.Random(4))
    watching(table, alice)
    Seat.objects.filter(table=table, user=bob).update(offline_since=timezone.now() - timedelta(minutes=1))
    Table.objects.filter(pk=table.pk).update(due_at=timezone.now())  # as the clock's own step would have it
    assert clock.advance(table_id=table.pk)
    assert Move.objects.filter(round__match__table=table, seat=1, actor=Move.Actor.ABSENT).exists()
    now = timezone.now()
    by_bob = [line for line in log_of(board_html(table, alice, now)) if line.startswith("Bob played")]
    assert by_bob[-1].endswith("(played by the bot while Bob was offline)")
    as_bob = [line for line in log_of(board_html(table, bob, now)) if line.startswith("You played")]
    assert as_bob[-1].endswith("(played by the bot while you were offline)")
    absent = Move.objects.filter(round=current_round(table), seat=1, actor=Move.Actor.ABSENT).count()
    # as many of Bob's lines say so as the bot made for him this round (his own say nothing of the kind)
    assert sum(line.endswith("(played by the bot while Bob was offline)") for line in by_bob) == absent
    assert sum("(played by the bot" in line for line in by_bob) == absent
    members_own = [line for line in log_of(board_html(table, alice, now)) if line.startswith("You played")]
    assert members_own and not any("(played by the bot" in line for line in members_own)  # Alice's are hers
