"""Demo data from `seeds/`: safe to load again and again (it only adds what is missing)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from tables.models import Seat, Table

SEEDS_DIR = Path(settings.BASE_DIR) / "seeds"


@dataclass(frozen=True)
class SeedReport:
    members_created: int
    members_existing: int


DEMO_TABLE_NAME = "Practice against bots"


def seed_members(*, seeds_dir: Path = SEEDS_DIR) -> SeedReport:
    data = tomllib.loads((seeds_dir / "members.toml").read_text())
    created = existing = 0
    with transaction.atomic():
        for entry in data["members"]:
            user, was_created = User.objects.get_or_create(
                username=entry["username"],
                defaults={"email": entry["email"], "display_name": entry.get("display_name", "")},
            )
            if was_created:
                staff = bool(entry.get("staff", False))
                user.is_staff = user.is_superuser = staff
                user.set_password(data["password"])
                user.save()
                EmailAddress.objects.get_or_create(
                    user=user, email=entry["email"], defaults={"verified": True, "primary": True}
                )
                created += 1
            else:
                existing += 1
    return SeedReport(members_created=created, members_existing=existing)


def seed_open_tables() -> list[Table]:
    """One open table per game, every seat a bot but the first: sit down and the match starts."""
    created = []
    host = User.objects.filter(is_staff=True).order_by("pk").first()
    with transaction.atomic():
        for spec in registry.all_specs():
            if Table.objects.filter(game=spec.key, name=DEMO_TABLE_NAME, status=Table.Status.OPEN).exists():
                continue
            config = spec.make_config()
            table = Table.objects.create(
                game=spec.key, name=DEMO_TABLE_NAME, seat_count=config.players, options=dict(config.options),
                created_by=host,
            )
            now = timezone.now()
            Seat.objects.bulk_create(
                Seat(table=table, position=p, is_bot=p > 0, joined_at=now if p > 0 else None)
                for p in range(config.players)
            )
            created.append(table)
    return created
