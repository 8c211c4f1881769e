"""Issue 44's whole story, shared by the default tier (SQLite) and the services tier (PostgreSQL): a correspondence
Sheepshead table of two members and three bots plays across simulated days, the table clock and the notices' job
run as a serving process runs them (`background.run_pass`: the clock's sweep, then every job), and each member is
told by email and by push, exactly once per turn of theirs, in their own words, and never of a card.

A member's turn is a run of their own moves: it starts when the seat to act becomes theirs after another seat's
move (a bot's or the other member's) or a deal, and lasts while they are to act (Sheepshead's pick, then bury; the
bot's move for them when their time ran out, if they are to act again). The members move after some hours, or
let their time run out now and then."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

from django.utils import translation

from accounts import webpush
from rules.engine import registry
from tables.models import Move, Notice, Table
from tables.notices.job import NoticeJob
from tables.play import background
from tables.play.services import clock, play
from tables.play.services.tables import add_bot, create_table, join_table
from tests.push_service import PushService
from tests.tables.helpers import current_round, legal_for, seat_to_act
from tests.tables.notices.conftest import SmtpServer, text_of
from tests.tables.play.table_life import FakeTime
from tests.tables.play.test_hidden_information import cards_shown

HOURS = 24


def server_pass(job: NoticeJob, time: FakeTime, capture: Any) -> None:
    """One pass of a serving process's clock at the fake time: the tables' sweep, then the notices' job, with the
    job's sending run once its scan has committed (the test's transaction stands in for the commit)."""
    with capture(execute=True):
        background.run_pass(lambda: clock.sweep(now=time.now), jobs={"notices": lambda: job(now=time.now)})


def play_across_days(*, make_member: Any, smtp: SmtpServer, pushes: PushService, capture: Any, time: FakeTime,
                     turns_wanted: int = 14, seed: int = 11) -> dict[str, Any]:
    """Plays until `turns_wanted` member turns have begun; returns what was counted, for the test's asserts."""
    anna = make_member("anna", display_name="Anna", language="de", time_zone="Europe/Berlin")
    ben = make_member("ben", display_name="Ben")
    devices = {}
    for member in (anna, ben):
        device = pushes.device(member.username)
        webpush.subscribe(user=member, endpoint=pushes.endpoint(device), p256dh=device.p256dh,
                          auth=device.auth_text)
        devices[member.pk] = device
    table = create_table(creator=anna, game="sheepshead", players=5, move_hours=HOURS)
    join_table(table_id=table.pk, user=ben)
    for _ in range(3):
        add_bot(table_id=table.pk, user=anna, bot_level=Table.BotLevel.EASY)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and table.bot_speed == Table.BotSpeed.INSTANT
    members = {0: anna, 1: ben}
    rng = random.Random(seed)
    engine = registry.game("sheepshead")
    job = NoticeJob()
    turns: Counter[int] = Counter()  # member id -> turns begun
    timeouts = 0
    cards: set[str] = set()
    begun: set[tuple[int, int]] = set()  # (round, moves made) at which a member's turn began
    for _ in range(2000):
        time.now += timedelta(minutes=1)  # the clock's next pass (the job looks every 30 s)
        server_pass(job, time, capture)
        table.refresh_from_db()
        current = current_round(table)
        seat = seat_to_act(table)
        if seat not in members:  # between rounds: the clock deals when the pause is over
            time.now = max(time.now, current.deadline or time.now) + timedelta(seconds=1)
            continue
        before = Move.objects.filter(round=current, seq=current.moves_made).values_list("seat", flat=True).first()
        if before != seat and (current.number, current.moves_made) not in begun:  # a turn began: the pass told it
            begun.add((current.number, current.moves_made))
            turns[members[seat].pk] += 1
            if sum(turns.values()) >= turns_wanted:
                break
        state = engine.from_json(current.state)
        cards |= {c for hand in state.hands for c in hand} | set(getattr(state, "blind", ()) or ())
        if rng.random() < 0.2:  # the member lets the day run out: the bot moves for them, and they are told
            time.now = current.deadline
            server_pass(job, time, capture)
            timeouts += 1
            continue
        time.now += timedelta(hours=rng.choice([1, 3, 7, 20]))  # a reminder comes before some of these moves
        server_pass(job, time, capture)
        table.refresh_from_db()
        if seat_to_act(table) != seat or current_round(table).pk != current.pk:
            continue  # (the move was already made for them: a pass can only have timed it out)
        play.play_move(table_id=table.pk, user=members[seat], move_text=rng.choice(legal_for(table, seat)),
                       expected_version=table.version)
    time.now += timedelta(minutes=1)
    server_pass(job, time, capture)
    return {"anna": anna, "ben": ben, "table": table, "turns": turns, "timeouts": timeouts, "cards": cards,
            "devices": devices}


def check_told_once_per_turn(outcome: dict[str, Any], smtp: SmtpServer, pushes: PushService) -> None:
    anna, ben, table = outcome["anna"], outcome["ben"], outcome["table"]
    turns: Counter[int] = outcome["turns"]
    assert turns[anna.pk] >= 3 and turns[ben.pk] >= 3 and outcome["timeouts"] >= 1, (turns, outcome["timeouts"])
    with translation.override("de"):
        german_name = str(table)
    subjects = {anna.pk: f"Du bist dran an {german_name}", ben.pk: f"Your turn at {table}"}
    for member in (anna, ben):
        # Exactly once per turn: one email and one push for each turn the member had (the last one too: it is told
        # before the loop stops).
        emails = [m for m in smtp.inbox.to(member.email) if subjects[member.pk] in str(m["Subject"])]
        assert len(emails) == turns[member.pk], (member.username, len(emails), turns[member.pk])
        told = pushes.messages(outcome["devices"][member.pk])
        turn_pushes = [p for p in told if p["title"] in ("Your turn", "Du bist dran")]
        assert len(turn_pushes) == turns[member.pk], (member.username, len(turn_pushes), turns[member.pk])
        assert {p["url"] for p in told} == {f"/t/{table.code}/"}
        assert {p["tag"] for p in told} == {f"table-{table.code}"}
        # Time ran out: told by both channels as well, once for each such move.
        ran_out = Notice.objects.filter(user=member, kind=Notice.Kind.TIMEOUT)
        assert ran_out.filter(channel=Notice.Channel.EMAIL, sent_at__isnull=False).count() == ran_out.filter(
            channel=Notice.Channel.PUSH, sent_at__isnull=False).count()
    assert {p["title"] for p in pushes.messages(outcome["devices"][anna.pk])} >= {"Du bist dran"}  # her language
    # Never a card: not in any email, not in any push (decrypted), in either language.
    assert len(outcome["cards"]) >= 30
    for message in smtp.inbox.messages:
        assert cards_shown(text_of(message)) == set(), str(message["Subject"])
    for told in pushes.messages():
        assert cards_shown(f"{told['title']} {told['body']}") == set(), told
    # Every row of the outbox was sent or knowingly dropped (a turn that passed before its look), none failed.
    assert not Notice.objects.filter(sent_at__isnull=True, given_up_at__isnull=True).exists()
    assert not Notice.objects.filter(attempts__gt=0).exists()

