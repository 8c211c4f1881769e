"""A socket to a path the site does not serve is refused quietly: no traceback, no error in the log."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async

from tests.sockets import communicator, refusal_code, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/table/", "/nothing-at-all"])
async def test_an_unknown_path_is_closed_with_not_found_and_nothing_is_logged(make_member, caplog, path) -> None:
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)())
    caplog.set_level(logging.INFO)
    for member_cookie in (cookie, None):
        comm = communicator(path, cookie=member_cookie)
        assert await refusal_code(comm) == 4404
        await comm.disconnect()
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []
