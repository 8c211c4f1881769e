"""The stack's patches restate framework code (config/asgi_handler.py, config/channel_layer.py, config/sqlite,
config/redis_cache.py, tables/play/sockets.py's ClubConsumer.dispatch). Each is right only for the upstream code it
was written against, so every package whose internals they restate is pinned in pyproject.toml, and each
patch has a test here that fails the moment that upstream code changes under it (a version bump included):
the message says which file to re-read. After re-reading it (and adapting the patch), record the new
fingerprint printed in the failure.
"""

from __future__ import annotations

import hashlib
import inspect
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def fingerprint(*sources: Callable[..., Any]) -> str:
    """One hash of the upstream source of every function a patch restates or relies on."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(inspect.getsource(source).encode())
    return digest.hexdigest()[:16]


def assert_unchanged(found: str, recorded: str, patch: str) -> None:
    assert found == recorded, (
        f"upstream changed: re-read {patch} against the new upstream code it restates, "
        f"then record fingerprint {found!r} here"
    )


def test_every_package_whose_internals_are_restated_is_pinned_to_the_installed_release() -> None:
    """asgiref is only a dependency of Django and Channels: without a range of its own a newer or older
    asgiref could come in under them, and before 3.13 `ThreadSensitiveContext(executor=...)` does not exist
    (every request would fail)."""
    from importlib.metadata import version

    declared = {}
    for line in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]:
        requirement = Requirement(line)
        declared[requirement.name.lower()] = requirement.specifier
    for package in ("django", "channels", "asgiref", "daphne", "autobahn"):
        assert package in declared, f"{package} is patched (see this module's docstring) but not declared"
        specifier = declared[package]
        assert str(specifier), f"{package} is declared without a version range"
        assert version(package) in specifier, f"installed {package} {version(package)} is outside {specifier}"
        assert any(spec.operator in ("==", "<", "<=", "~=") for spec in specifier), (
            f"{package} has no upper bound: a new release could change the code the patch restates")


def test_asgi_handler_restates_djangos_asgi_entry_point_on_asgiref_that_takes_an_executor() -> None:
    from asgiref.sync import ThreadSensitiveContext
    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.base import BaseHandler

    parameter = inspect.signature(ThreadSensitiveContext).parameters.get("executor")
    assert parameter is not None and parameter.kind is inspect.Parameter.KEYWORD_ONLY, (
        "upstream changed: ThreadSensitiveContext takes no executor=; re-read config/asgi_handler.py")
    assert_unchanged(
        fingerprint(ASGIHandler.__call__, ASGIHandler.handle, BaseHandler.load_middleware,
                    BaseHandler.get_response_async, ThreadSensitiveContext),
        "47c5bef0f109e4a8", "config/asgi_handler.py")


def test_sweeping_channel_layer_restates_channels_in_memory_layer() -> None:
    from channels.layers import InMemoryChannelLayer

    assert_unchanged(
        fingerprint(InMemoryChannelLayer.__init__, InMemoryChannelLayer.send, InMemoryChannelLayer.group_send,
                    InMemoryChannelLayer._clean_expired, InMemoryChannelLayer.flush),
        "d3738877e6dd6592", "config/channel_layer.py")


def test_club_consumer_dispatch_restates_channels_dispatch() -> None:
    from channels.consumer import AsyncConsumer
    from channels.generic.websocket import AsyncWebsocketConsumer

    from tables.play.sockets import ClubConsumer

    between = ClubConsumer.__mro__[1:ClubConsumer.__mro__.index(AsyncConsumer)]
    assert AsyncWebsocketConsumer in between
    assert not [cls for cls in between if "dispatch" in vars(cls)], (
        "upstream changed: a Channels class between ClubConsumer and AsyncConsumer now has its own dispatch; "
        "re-read tables/play/sockets.py")
    assert_unchanged(fingerprint(AsyncConsumer.dispatch), "39f34e7d4fb0f655", "tables/play/sockets.py (ClubConsumer)")


def test_sqlite_writer_queue_restates_how_djangos_sqlite_transactions_begin_and_end() -> None:
    """The queue's lock is taken where a transaction begins and let go wherever one can end; a new way in
    or out upstream would leave a writer holding it."""
    from django.db import transaction
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.sqlite3.base import DatabaseWrapper

    assert_unchanged(
        fingerprint(DatabaseWrapper._start_transaction_under_autocommit, DatabaseWrapper.close,
                    BaseDatabaseWrapper.set_autocommit, BaseDatabaseWrapper.commit, BaseDatabaseWrapper.rollback,
                    BaseDatabaseWrapper.close, BaseDatabaseWrapper._commit, BaseDatabaseWrapper._rollback,
                    BaseDatabaseWrapper._close, transaction.Atomic.__enter__, transaction.Atomic.__exit__),
        "ce2f1e51dcb34ed1", "config/sqlite/base.py")


def test_shared_redis_cache_restates_djangos_redis_client() -> None:
    from django.core.cache.backends.redis import RedisCache, RedisCacheClient

    assert_unchanged(
        fingerprint(RedisCacheClient.__init__, RedisCacheClient.get_client, RedisCacheClient._get_connection_pool,
                    RedisCacheClient._get_connection_pool_index, RedisCache.__init__, vars(RedisCache)["_cache"].func),
        "bd4b417d50ebe0f4", "config/redis_cache.py")



def test_dropping_a_flooders_connection_restates_daphnes_close() -> None:
    """config/daphne_stop.py wraps `serverClose`, which `handle_reply` calls for an application's close; a frame
    still reaches the application through `onMessage` until the connection is dropped."""
    from daphne.ws_protocol import WebSocketProtocol

    assert_unchanged(fingerprint(WebSocketProtocol.serverClose, WebSocketProtocol.handle_reply,
                                 WebSocketProtocol.onMessage), "4542a12b41920223", "config/daphne_stop.py")


def test_a_flooders_grace_relies_on_autobahn_reading_the_close_timeout_as_it_sends_the_close() -> None:
    """config/daphne_stop.py sets a connection's `closeHandshakeTimeout` before Daphne's close: autobahn's
    `sendCloseFrame` reads it to start the drop timer, and `onCloseHandshakeTimeout` then drops the connection."""
    from autobahn.websocket.protocol import WebSocketProtocol

    assert_unchanged(fingerprint(WebSocketProtocol.sendCloseFrame, WebSocketProtocol.onCloseHandshakeTimeout),
                     "fbacfc3e8bd68f48", "config/daphne_stop.py")


def test_relabelling_fields_restates_djangos_alter_field_for_a_label() -> None:
    """tables/migration_operations.py's `RelabelFields` sets fields on the state as `alter_field` does, lets the
    state recompute its relations, and reloads the models once (`reload_models`)."""
    from django.db.migrations.state import ProjectState

    assert_unchanged(fingerprint(ProjectState.alter_field, ProjectState.reload_models, ProjectState.relations.fget),
                     "2529c714e022f3c4", "tables/migration_operations.py")
