"""Tournament set-ups for the browser tests, made by the services in a Django process on the server's database (the
test process has no database of its own): a running Swiss tournament, a result recorded. Whatever the services push
goes to the server's channel layer when the environment names it (REDIS_URL), as a result from a play table would."""

from __future__ import annotations

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
