"""The table clock's search threads (tables.play.search_pool): at most `threads` jobs at once, each on a thread of the
pool (never the caller's), a thread free again when its job ends, even one that fails; a stopped pool takes nothing;
and one pool per event loop, none when TABLE_SEARCH_THREADS is 0."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from tables.play import search_pool
from tables.play.search_pool import SearchPool

WAIT = 20.0


@pytest.mark.asyncio
async def test_a_pool_runs_at_most_its_threads_jobs_at_once_on_threads_of_its_own(caplog) -> None:
    pool = SearchPool(threads=2, loop=asyncio.get_running_loop())
    release, started = threading.Event(), threading.Semaphore(0)
    ran: list[str] = []

    def job() -> None:
        ran.append(threading.current_thread().name)
        started.release()
        release.wait(WAIT)

    def broken() -> None:
        raise RuntimeError("a search bug")

    try:
        assert pool.free() == 2
        assert await asyncio.to_thread(pool.submit, job)  # from another thread, as the clock's pass hands it over
        assert await asyncio.to_thread(pool.submit, job)
        assert pool.free() == 0
        assert not await asyncio.to_thread(pool.submit, job)  # no thread free: nothing queues
        for _ in range(2):
            assert await asyncio.to_thread(started.acquire, True, WAIT)
        release.set()
        assert await asyncio.to_thread(pool.wait_idle, WAIT)
        assert pool.free() == 2 and len(ran) == 2 and all(name.startswith("search") for name in ran)

        with caplog.at_level(logging.ERROR, logger="tables.play.search_pool"):
            assert await asyncio.to_thread(pool.submit, broken)
            assert await asyncio.to_thread(pool.wait_idle, WAIT)
            for _ in range(100):  # the failure is logged on the loop once the thread is done
                if "a search bug" in caplog.text:
                    break
                await asyncio.sleep(0.01)
        assert "a search bug" in caplog.text and pool.free() == 2
    finally:
        release.set()
        pool.stop()
    assert pool.free() == 0 and not pool.submit(job)


@pytest.mark.asyncio
async def test_one_pool_per_loop_and_none_without_threads(settings) -> None:
    settings.TABLE_SEARCH_THREADS = 0
    try:
        assert search_pool.start() is None
        settings.TABLE_SEARCH_THREADS = 1
        pool = search_pool.start()
        assert pool is not None and pool.threads == 1 and search_pool.start() is pool
        assert search_pool.current() is pool
    finally:
        search_pool.stop()
    assert search_pool.current() is None and pool.free() == 0
