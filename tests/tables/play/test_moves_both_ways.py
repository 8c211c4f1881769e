"""A move and "ready" are made by POST (the page's way while its socket is closed) or over the table's open socket:
every reliability test runs both ways (`way`), and both refuse the same things in the same words, changing nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables.models import Move, Round, Table
from tests.sockets import communicator, session_cookie, version_of
from tests.tables.helpers import full_table, legal_for, seat_to_act
from tests.tables.ledger_support import finished_table
from tests.tables.play.move_paths import WAYS, Answer, Way, refusal_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NAMES = ["Alice Able", "Bob Baker", "Carol Cole"]
MOVED_ON = "The table has moved on since you looked; nothing was changed."
NO_VERSION = "This request carries no table version; reload the page."
ODD = ("²", "١٢", "\uff11", "-1", "", " 1", "9" * 40)  # "\uff11": a full-width one


@pytest.fixture(params=sorted(WAYS))
def way(request: pytest.FixtureRequest) -> Way:
    return WAYS[request.param]


@sync_to_async
def hawsker(make_member: Any) -> tuple[Table, list[Any], Any]:
    """A running two-member Hawsker table (alice, bob) and carol, who is not seated there."""
    members = [make_member(f"m{i}", display_name=name) for i, name in enumerate(NAMES)]
    return full_table("hawsker", members[:2]), members[:2], members[2]


@sync_to_async
def to_act(table: Table) -> tuple[int, str, int]:
    """(the seat to act, a legal move of theirs, the table's version)."""
    table.refresh_from_db()
    seat = seat_to_act(table)
    return seat, legal_for(table, seat)[0], table.version


@sync_to_async
def state(table: Table) -> tuple[int, int, int]:
    """What a refused move must leave as it was: the table's version, its moves and its rounds."""
    return (Table.objects.get(pk=table.pk).version, Move.objects.filter(round__match__table=table).count(),
            Round.objects.filter(match__table=table).count())


async def test_a_move_is_taken_once_and_its_replay_is_refused(make_member, way: Way) -> None:
    table, members, _ = await hawsker(make_member)
    seat, move, version = await to_act(table)
    fields = {"move": move, "version": str(version)}
    first = await way(members[seat], table, fields)
    table_now, moves, _ = await state(table)
    assert first == Answer(version=table_now) and table_now > version
    again = await way(members[seat], table, fields)  # a double click, a replayed request or frame
    assert again == Answer(refusal=MOVED_ON)
    assert await state(table) == (table_now, moves, 1)
    assert moves == 1


@pytest.mark.parametrize(("fields", "refusal"), [
    ({"move": "play 10D"}, NO_VERSION),
    ({"move": "play 10D", "version": "abc"}, NO_VERSION),
    *[({"move": "{legal}", "version": odd}, NO_VERSION) for odd in ODD],  # see test_request_numbers.py
    ({"move": "discard everything", "version": "{v}"}, "That is not a move"),
    ({"version": "{v}"}, "That is not a move"),
    ({"move": "draw", "version": "{v}"}, ""),  # a move of the game, not legal now
    ({"move": "{legal}", "version": "{stale}"}, MOVED_ON),
    ({"move": "{legal}", "version": "{ahead}"}, MOVED_ON),
])
async def test_bad_moves_are_refused_with_the_reason_and_change_nothing(make_member, way: Way, fields, refusal) -> None:
    table, members, _ = await hawsker(make_member)
    seat, legal, version = await to_act(table)
    values = {"v": version, "stale": version - 1, "ahead": version + 1, "legal": legal}
    before = await state(table)
    answer = await way(members[seat], table, {k: v.format(**values) for k, v in fields.items()})
    assert answer.version is None and answer.refusal
    assert refusal in answer.refusal
    assert await state(table) == before


async def test_a_member_not_seated_cannot_move(make_member, way: Way) -> None:
    """Carol watches (by socket, a spectator's) or posts: the table is not hers to play."""
    table, _members, carol = await hawsker(make_member)
    _seat, legal, version = await to_act(table)
    before = await state(table)
    answer = await way(carol, table, {"move": legal, "version": str(version)})
    assert answer.refusal is not None and "not seated" in answer.refusal
    assert await state(table) == before


async def test_a_move_out_of_turn_names_the_player_to_act(make_member, way: Way) -> None:
    table, members, _ = await hawsker(make_member)
    seat, legal, version = await to_act(table)
    before = await state(table)
    answer = await way(members[1 - seat], table, {"move": legal, "version": str(version)})
    assert answer.refusal is not None and NAMES[seat] in answer.refusal
    assert not re.search(r"\bseat \d", answer.refusal, re.IGNORECASE)
    assert await state(table) == before


@sync_to_async
def round_over(make_member: Any) -> tuple[Table, Any]:
    ann = make_member("ann")
    return finished_table("hawk", [ann], bots=3), ann


async def test_ready_deals_the_next_round_once_and_a_stale_ready_changes_nothing(make_member, way: Way) -> None:
    table, ann = await round_over(make_member)
    before = await state(table)
    version, _, rounds = before
    stale = await way(ann, table, {"version": str(version - 1)}, kind="ready")
    assert stale == Answer(refusal=MOVED_ON)
    no_version = await way(ann, table, {"version": "x"}, kind="ready")
    assert no_version == Answer(refusal=NO_VERSION)
    assert await state(table) == before
    dealt = await way(ann, table, {"version": str(version)}, kind="ready")
    now, _, rounds_now = await state(table)
    assert dealt == Answer(version=now) and rounds_now == rounds + 1
    again = await way(ann, table, {"version": str(version)}, kind="ready")
    assert again == Answer(refusal=MOVED_ON)
    assert (await state(table))[::2] == (now, rounds_now)


async def test_a_spectator_cannot_say_ready(make_member, way: Way) -> None:
    table, _ann = await round_over(make_member)
    watcher = await sync_to_async(make_member)("watcher")
    before = await state(table)
    answer = await way(watcher, table, {"version": str(before[0])}, kind="ready")
    assert answer.refusal is not None and "not seated" in answer.refusal
    assert await state(table) == before


# Only the socket: what a POST cannot carry (a message for another table, fields that are not text) and the pushes.


async def connected(table: Table, user: Any) -> Any:
    comm = communicator(f"/ws/table/{table.code}/", cookie=await sync_to_async(session_cookie)(user))
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)  # the whole table, on connect
    return comm


async def test_an_accepted_socket_move_reaches_the_mover_and_the_other_member_by_the_push(make_member) -> None:
    table, members, _ = await hawsker(make_member)
    seat, move, version = await to_act(table)
    mover, other = await connected(table, members[seat]), await connected(table, members[1 - seat])
    await mover.send_json_to({"kind": "move", "table": table.code, "move": move, "version": str(version)})
    pushed_to_mover, pushed_to_other = await mover.receive_from(timeout=5), await other.receive_from(timeout=5)
    made, moves, _ = await state(table)
    assert version_of(pushed_to_mover) == version_of(pushed_to_other) == made > version
    assert moves == 1
    assert 'id="table-error"' not in pushed_to_mover
    await mover.disconnect()
    await other.disconnect()


async def test_a_refused_socket_move_is_answered_to_the_mover_alone_and_changes_nothing(make_member) -> None:
    table, members, _ = await hawsker(make_member)
    seat, move, version = await to_act(table)
    mover, other = await connected(table, members[seat]), await connected(table, members[1 - seat])
    before = await state(table)
    await mover.send_json_to({"kind": "move", "table": table.code, "move": move, "version": str(version - 1)})
    assert refusal_in(await mover.receive_from(timeout=5)) == MOVED_ON
    assert await other.receive_nothing(timeout=0.5)
    assert await state(table) == before
    await mover.disconnect()
    await other.disconnect()


@sync_to_async
def second_table(make_member: Any) -> Table:
    return full_table("hawsker", [make_member("dan"), make_member("eve")])


async def test_a_message_naming_another_table_is_refused_at_both(make_member) -> None:
    """A move for another table (its code, version and a legal move there) sent through this table's socket, or
    one that names no table, moves nowhere."""
    table, members, _ = await hawsker(make_member)
    other_table = await second_table(make_member)
    _seat, move, version = await to_act(other_table)
    comm = await connected(table, members[0])
    before, other_before = await state(table), await state(other_table)
    for named in (other_table.code, "", None, 7, table.code + "x"):
        await comm.send_json_to({"kind": "move", "table": named, "move": move, "version": str(version)})
        refusal = refusal_in(await comm.receive_from(timeout=5))
        assert refusal in ("That move was made on another table's page; nothing was changed here.",
                           "This message names no table; reload the page.")
    assert await state(table) == before and await state(other_table) == other_before
    await comm.disconnect()


HOSTILE_FIELDS = [
    {"version": None}, {"version": True}, {"version": 1.5}, {"version": [1]}, {"version": {"v": 1}}, {"version": -1},
    {"version": "{v}", "move": 12}, {"version": "{v}", "move": ["play", "AS"]}, {"version": "{v}", "move": None},
    {"version": "{v}", "move": "x" * 10_000}, {"version": "{v}", "move": "play \u0000"},
]


async def test_hostile_move_messages_are_refused_and_the_socket_keeps_working(make_member) -> None:
    table, members, _ = await hawsker(make_member)
    seat, move, version = await to_act(table)
    comm = await connected(table, members[seat])
    before = await state(table)
    for fields in HOSTILE_FIELDS:
        fields = {k: (v.format(v=version) if isinstance(v, str) else v) for k, v in fields.items()}
        await comm.send_json_to({"kind": "move", "table": table.code, "move": move, **fields})
        refusal = refusal_in(await comm.receive_from(timeout=5))
        assert refusal in (NO_VERSION, "") or refusal.startswith("That is not a move"), (fields, refusal)
    await comm.send_json_to({"kind": "ready", "table": table.code, "version": str(version)})
    assert refusal_in(await comm.receive_from(timeout=5)) == "There is no next round to get ready for."
    assert await state(table) == before
    await comm.send_json_to({"kind": "move", "table": table.code, "move": move, "version": str(version)})
    assert version_of(await comm.receive_from(timeout=5)) > version  # and a real move still goes
    await comm.disconnect()
