"""Turning a table into the HTML one viewer may see. Used by the page, the POST replies and the
sockets alike, so every path shows the same thing and hides the same things."""

from __future__ import annotations

from django.template.loader import render_to_string

from accounts.models import User
from tables.models import Table
from tables.selectors import board_for


def render_board(table: Table, user: User, *, oob: bool = False) -> str:
    board = board_for(table, user)
    return render_to_string("tables/board.html", {"board": board, "oob": oob, "user": user})
