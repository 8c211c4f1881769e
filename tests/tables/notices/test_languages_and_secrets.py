"""Every email in its member's language and time zone, and none, in either language, holding a card of any hand,
the blind, a seed or a salt: a whole correspondence match is played with the job looking after every move."""

from __future__ import annotations

import random
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from rules.engine import registry
from tables.models import Notice, Round, Table
from tables.notices.job import NoticeJob
from tables.play.services import clock
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.notices.conftest import correspondence, member_moves, run_job, text_of
from tests.tables.play.test_hidden_information import cards_shown

pytestmark = pytest.mark.django_db


def test_a_german_member_reads_german_in_their_zone(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    greta = make_member("greta", display_name="Greta", language="de", time_zone="Europe/Berlin")
    table = full_table("hawk", [greta], bots=3)
    now = timezone.now()
    deadline = correspondence(table, hours=24, now=now).deadline
    assert seat_to_act(table) == 0
    run_job(NoticeJob(), now, django_capture_on_commit_callbacks)
    [message] = smtp.inbox.messages
    body = text_of(message)
    assert message["Content-Language"] == "de"
    assert "Du bist dran" in body and "Hawk-Tisch von Greta" in body  # the catalogue's German, the table's name
    local = deadline.astimezone(ZoneInfo("Europe/Berlin"))
    assert local.strftime("%H:%M") in body and ("CET" in body or "CEST" in body)
    assert "Hello" not in body or gettext_in_german("Hello %(name)s,") == "Hello %(name)s,"
    # The subject is the German catalogue's (the same words in English until the catalogue has them).
    assert str(message["Subject"]) == "[The Card Club] " + gettext_in_german("Your turn at %(table)s") % {
        "table": "Hawk-Tisch von Greta"}


def gettext_in_german(msgid: str) -> str:
    with translation.override("de"):
        return translation.gettext(msgid)


def test_an_english_member_reads_english(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    ed = make_member("ed", display_name="Ed", language="en", time_zone="America/New_York")
    table = full_table("hawk", [ed], bots=3)
    correspondence(table)
    run_job(NoticeJob(), timezone.now(), django_capture_on_commit_callbacks)
    [message] = smtp.inbox.messages
    assert "Your turn" in text_of(message) and "Ed's Hawk table" in text_of(message)
    assert "EST" in text_of(message) or "EDT" in text_of(message)


def cards_in_play(state) -> set:
    """Every card the state holds out of sight or in hand: all hands, and the blind, buried, stock, out cards."""
    cards = {c for hand in getattr(state, "hands", ()) for c in hand}
    for name in ("blind", "buried", "stock", "out"):
        cards |= set(getattr(state, name, ()) or ())
    return cards


@pytest.mark.parametrize("game,bots", [("hawk", 2), ("sheepshead", 3)])
def test_no_email_of_a_whole_match_holds_a_card_or_a_seed(make_member, smtp, django_capture_on_commit_callbacks,
                                                          game, bots) -> None:
    anna = make_member("anna", display_name="Anna", language="de", deadline_emails=True)
    ben = make_member("ben", display_name="Ben")
    table = full_table(game, [anna, ben], bots=bots, rounds=1)
    watching(table, anna, ben)
    members = {0: anna, 1: ben}
    now = timezone.now()
    correspondence(table, hours=12, now=now)
    job = NoticeJob()
    rng = random.Random(7)
    choose = registry.bot(table.game).choose
    engine = registry.game(table.game)
    cards: set = set()
    for step in range(400):
        table.refresh_from_db()
        current = current_round(table)
        if current.over or table.status != Table.Status.RUNNING:
            break
        later = now + timedelta(minutes=step)
        # Now and then the reminder's hour comes before the member moves; once, their time runs out.
        run_job(job, later, django_capture_on_commit_callbacks)
        if step % 5 == 2:
            run_job(NoticeJob(), current.deadline - timedelta(hours=1), django_capture_on_commit_callbacks)
        seat = seat_to_act(table)
        if step == 3:
            assert clock.advance(table_id=table.pk, now=current.deadline + timedelta(seconds=1))
            continue
        state = engine.from_json(current.state)
        cards |= cards_in_play(state)
        move = choose(engine.view(state, seat), engine.legal_moves(state, seat))
        if rng.random() < 0.5:
            move = rng.choice(engine.legal_moves(state, seat))
        member_moves(table, members[seat], str(move))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    run_job(job, now + timedelta(days=1), django_capture_on_commit_callbacks)
    sent = set(Notice.objects.filter(sent_at__isnull=False).values_list("kind", flat=True))
    assert sent == {"turn", "reminder", "timeout", "match_over"}  # every kind of email was read
    assert len(smtp.inbox.messages) == Notice.objects.filter(sent_at__isnull=False).count()
    words = {w for r in Round.objects.filter(match__table=table) for w in (r.seed, r.salt, r.match.seed)}
    assert len(cards) >= 24 and words  # the check has something to find: the whole deal
    for message in smtp.inbox.messages:
        text = text_of(message)
        assert cards_shown(text) == set(), (message["Subject"], cards_shown(text))
        assert not any(word and word in text for word in words)


def test_the_scan_for_cards_would_see_one() -> None:
    """The check above is only worth what its scanner finds: a card in English, German, symbol or code."""
    assert len(cards_shown("the queen of spades, Herz Dame, 10♦ and 7C")) == 4
