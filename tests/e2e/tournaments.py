"""Tournament set-ups for the browser tests, made by the services in a Django process on the server's database (the
test process has no database of its own): a running Swiss tournament, a result recorded. Whatever the services push
goes to the server's channel layer when the environment names it (REDIS_URL), as a result from a play table would."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.servers import ROOT

RUNNING_SWISS = """
import uuid
import django
django.setup()
from accounts.models import User
from tables.tournaments import controls, services
tag = uuid.uuid4().hex[:6]
staff = User.objects.create_user(username=f"organiser{tag}", email=f"organiser{tag}@example.org", is_staff=True)
cup = controls.organise(organiser=staff, name="Hawsker open", game="hawsker", format="swiss", rounds=3,
                        entry_fee_cents=500, prize_shares=[60, 40])
services.open_entries(tournament_id=cup.pk, staff=staff)
for name in ("Ada", "Bea", "Cy", "Dot", "Eli"):
    member = User.objects.create_user(username=f"{name.lower()}{tag}", email=f"{name.lower()}{tag}@example.org",
                                      display_name=f"{name} {tag}")
    services.enter(tournament_id=cup.pk, user=member)
services.close_entries(tournament_id=cup.pk, staff=staff)
services.draw_next_round(tournament_id=cup.pk, staff=staff)
services.start_round(tournament_id=cup.pk, staff=staff)
table = cup.round_set.get(number=1).tables.order_by("number").first()
services.record_swiss_result(table_id=table.pk, winner=User.objects.get(pk=table.seats[0]))
print(cup.pk)
"""

FIRST_PLAYER_WINS = """
import sys
import django
django.setup()
from accounts.models import User
from tables.models import TournamentTable
from tables.tournaments import services
table = TournamentTable.objects.get(pk=int(sys.argv[1]))
services.record_swiss_result(table_id=table.pk, winner=User.objects.get(pk=table.seats[0]))
print(User.objects.get(pk=table.seats[0]).username)
"""

FIRST_TABLE = """
import sys
import django
django.setup()
from tables.models import TournamentTable
print(TournamentTable.objects.filter(round__tournament_id=int(sys.argv[1])).order_by("round__number", "number")
      .values_list("pk", flat=True).first())
"""


def run_django(env: dict[str, str], code: str, *args: str) -> str:
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"the Django script failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout.strip().splitlines()[-1]


def running_swiss(env: dict[str, str]) -> int:
    """A Swiss tournament of five, its first round playing, one result in: its id."""
    return int(run_django(env, RUNNING_SWISS))


def first_table(env: dict[str, str], tournament_id: int) -> int:
    return int(run_django(env, FIRST_TABLE, str(tournament_id)))


def first_player_wins(env: dict[str, str], table_id: int) -> str:
    """The table's first seat wins its match, through the service: their username."""
    return run_django(env, FIRST_PLAYER_WINS, str(table_id))


# A tournament's first round drawn, its tables numbered in `club` played at the club, started or not, as staff run it
# (the organiser is the seeded treasurer, who is staff). Its entrants may log in (the demo password, a confirmed
# address): a member at an online table opens it as a member would. Prints what the browser needs, as JSON.
ROUND_AT_THE_CLUB = """
import json, sys, uuid
import django
django.setup()
from allauth.account.models import EmailAddress
from accounts.models import User
from tables.models import Round, Seat
from rules.engine import registry
from tables.tournaments import club_tables, services
spec = json.loads(sys.argv[1])
tag = uuid.uuid4().hex[:6]
staff = User.objects.get(username="treasurer")
cup = services.create_tournament(organiser=staff, name=spec["name"], game=spec["game"], format=spec["format"],
                                 rounds=2, hands_per_session=spec.get("hands"), options=spec.get("options"))
services.open_entries(tournament_id=cup.pk, staff=staff)
for index in range(spec["count"]):
    name = f"entrant{index}{tag}"
    member = User.objects.create_user(username=name, email=f"{name}@example.org", password=spec["password"],
                                      display_name=f"Entrant {index} {tag}")
    EmailAddress.objects.create(user=member, email=member.email, verified=True, primary=True)
    services.enter(tournament_id=cup.pk, user=member)
services.close_entries(tournament_id=cup.pk, staff=staff)
drawn = services.draw_next_round(tournament_id=cup.pk, staff=staff)
tables = list(drawn.tables.order_by("number"))
for table in tables:
    if table.number in spec["club"]:
        club_tables.set_where(table_id=table.pk, staff=staff, where="club")
if spec["start"]:
    services.start_round(tournament_id=cup.pk, staff=staff)
online = {}
for table in drawn.tables.order_by("number").select_related("table"):
    if table.table is None:
        continue
    rnd = Round.objects.filter(match__table=table.table).order_by("-number").first()
    game = registry.game(table.table.game)
    to_act = game.to_act(game.from_json(rnd.state))
    seat = Seat.objects.select_related("user").get(table=table.table, position=to_act)
    online[table.number] = {"code": table.table.code, "to_act": seat.user.username}
print(json.dumps({"tournament": cup.pk, "round": drawn.number, "tables": {t.number: t.pk for t in tables},
                  "online": online}))
"""


def round_at_the_club(env: dict[str, str], *, password: str, name: str, game: str, format: str, count: int,
                      club: list[int], start: bool, hands: int | None = None,
                      options: dict[str, object] | None = None) -> dict:
    """A tournament's first round drawn (and started, with `start`), the tables numbered in `club` at the club: its
    id, the round's number, the tables' ids by number and each online table's code and the member to act there."""
    spec = {"name": name, "game": game, "format": format, "count": count, "club": club, "start": start,
            "hands": hands, "options": options, "password": password}
    found = json.loads(run_django(env, ROUND_AT_THE_CLUB, json.dumps(spec)))
    found["tables"] = {int(number): pk for number, pk in found["tables"].items()}
    found["online"] = {int(number): table for number, table in found["online"].items()}
    return found
