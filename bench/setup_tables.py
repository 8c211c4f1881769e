"""Seat the load generator's simulated members at running tables, and give each a logged-in session.

Run before a bench run against the database the servers will use (the runner does it):
    python -m bench.setup_tables --tables 400 --out var/bench/tables.json [--finished-rounds 10000]

Members are created in bulk with sessions made by Django's session engine (the same rows a login through
/accounts/login/ writes): logging 800 members in through the form would spend minutes on password hashing
that says nothing about playing. Tables are formed through the site's own services (create, join, add bots),
so every table is exactly what a member would have made in the lobby, with a match dealt and bots played.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import string
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

# Matches long enough never to end during a run: 50 rounds of Hawk or Sheepshead, Puskiyon to 1000 points.
LONG_MATCH: dict[str, dict[str, Any]] = {
    "puskiyon": {"target": 1000},
    "hawk": {"rounds": 50},
    "sheepshead": {"rounds": 50},
    "hawsker": {},
}
CSRF_ALPHABET = string.ascii_letters + string.digits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--members-per-table", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", default="puskiyon,hawk,sheepshead",
                        help="comma-separated; tables take the games in turn")
    parser.add_argument("--finished-rounds", type=int, default=0,
                        help="also write this many finished rounds (on finished tables) behind the run")
    parser.add_argument("--prefix", default="bench")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The campaign's tables are instant (bots answer inside the member's move), whoever runs this.
    os.environ.setdefault("TABLE_BOT_SPEED", "instant")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from bench.history import bulk_finished_history, bulk_members
    from tables.models import Seat
    from tables.play.services.tables import add_bot, create_table, join_table

    started = time.monotonic()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    per_table = args.members_per_table
    members = bulk_members(f"{args.prefix}-", args.tables * per_table)
    store = SessionStore()
    expires = timezone.now() + timedelta(days=2)
    sessions: dict[int, str] = {}
    rows = []
    for user in members:
        key = "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(32))
        data = {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
                HASH_SESSION_KEY: user.get_session_auth_hash()}
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        sessions[user.pk] = key
    Session.objects.bulk_create(rows, batch_size=1000)

    tables = []
    for i in range(args.tables):
        game = games[i % len(games)]
        seated = members[i * per_table:(i + 1) * per_table]
        table = create_table(creator=seated[0], game=game, players=args.players, options=LONG_MATCH.get(game),
                             turn_seconds=600)
        for user in seated[1:]:
            join_table(table_id=table.pk, user=user)
        for _ in range(args.players - per_table):
            add_bot(table_id=table.pk, user=seated[0])
        tables.append({"code": table.code, "game": game,
                       "members": [{"username": u.username, "session": sessions[u.pk]} for u in seated]})
        if (i + 1) % 50 == 0:
            print(f"  {i + 1} tables", file=sys.stderr)
    # The simulated members sit at their tables from the start: none was seated "without the page open", which
    # would make them offline 30 s later (tables.play.pace.FIRST_LOOK) and let the server's table clock play their
    # turns, deal round after round and finally close the tables of the later steps, whose sockets open minutes
    # after this. The clock, looking at the time it had planned for that, finds nothing to do and waits for the
    # turn's deadline instead.
    Seat.objects.filter(table__code__in=[t["code"] for t in tables], user__isnull=False).update(
        gone_at=None, offline_since=None)

    history = 0
    if args.finished_rounds:
        history_members = bulk_members(f"{args.prefix}-h-", 200)
        per = 50
        history = bulk_finished_history(members=history_members, tables=max(1, args.finished_rounds // per),
                                        rounds_per_table=per)
    csrf = "".join(secrets.choice(CSRF_ALPHABET) for _ in range(32))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"csrf": csrf, "tables": tables, "finished_rounds": history}, indent=1))
    print(f"set up {len(tables)} tables, {len(members)} members, {history} finished rounds "
          f"in {time.monotonic() - started:.1f}s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
