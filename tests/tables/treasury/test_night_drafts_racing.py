"""Two devices changing or saving one sheet at the same moment, on PostgreSQL (services tier): the draft's row lock
and its version make one of them win and the other be refused (or told "already saved"), never both written."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tables.models import ClubNight, DraftRow, InPersonRecord, NightDraft
from tables.treasury.services import nights

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NAMES = ["ann", "ben", "cat"]


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Runs the calls in threads released together; each answer, or the exception it raised."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            start.wait()
            answers[index] = call()
        except Exception as error:  # the answer of a refused call is its exception
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


@pytest.fixture
def sheet(make_member):
    tess = make_member("tess", is_staff=True)
    players = [make_member(name) for name in NAMES]
    draft = nights.open_sheet(admin=tess, game="sheepshead", played_on=None, players=players, stake_cents=100)
    nights.add_row(admin=tess, draft=draft, version=1, members=players,
                   row={"picker": str(players[0].pk), "points": "75"})
    return tess, players, draft.token


def test_two_devices_adding_at_once_from_one_version_add_one_hand(sheet) -> None:
    tess, players, token = sheet

    def add(points: str) -> Callable[[], Any]:
        return lambda: nights.add_row(admin=tess, draft=NightDraft.objects.get(token=token), version=2,
                                      members=players, row={"picker": str(players[1].pk), "points": points})

    answers = at_once(add("61"), add("90"))
    assert sum(isinstance(a, DraftRow) for a in answers) == 1
    assert sum(isinstance(a, nights.StaleSheet) for a in answers) == 1, answers
    assert DraftRow.objects.filter(draft__token=token).count() == 2
    assert NightDraft.objects.get(token=token).version == 3


def test_two_devices_saving_at_once_book_the_night_once(sheet) -> None:
    tess, players, token = sheet

    def save() -> Any:
        return nights.save_night(admin=tess, draft=NightDraft.objects.get(token=token), version=2, members=players)

    answers = at_once(save, save)
    assert sorted(a.created for a in answers) == [False, True], answers
    assert answers[0].night == answers[1].night
    assert ClubNight.objects.count() == 1 and InPersonRecord.objects.count() == 1
    assert NightDraft.objects.get(token=token).night == answers[0].night
