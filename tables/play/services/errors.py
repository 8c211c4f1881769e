"""Refusals a member can read. Views and consumers show `str(error)` as it is."""

from __future__ import annotations


class TableError(Exception):
    """Something a member asked for that cannot be done; nothing was changed."""

    status = 400


class NoSuchTable(TableError):
    """The table named is not there (a page's address names it by its code: the view answers 404)."""

    status = 404


class TableFull(TableError):
    status = 409


class StaleVersion(TableError):
    status = 409


class NotSeated(TableError):
    status = 403


class NotAllowed(TableError):
    status = 403


class PlayingElsewhere(NotAllowed):
    """The member is already playing at a running table: the page that refuses links to it (`table_code`)."""

    def __init__(self, message: str, *, table_code: str) -> None:
        super().__init__(message)
        self.table_code = table_code


class IllegalPlay(TableError):
    status = 400
