"""`manage.py backup [--dir DIR] [--keep N]`: a consistent copy of the whole database, taken while the site runs.

The work is tables.treasury.services.backups.take_backup; README "Backups" says how to run it nightly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.treasury.services.backups import BackupError, take_backup


class Command(BaseCommand):
    help = "Copy the whole database (with a manifest: SHA-256, release, migrations) and keep the newest N copies."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", type=Path, help="Where backups go (default: settings.BACKUP_DIR, var/backups).")
        parser.add_argument("--keep", type=int, help="How many backups to keep (default: settings.BACKUP_KEEP, 14).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            done = take_backup(directory=options.get("dir"), keep=options.get("keep"))
        except BackupError as error:
            raise CommandError(str(error)) from None
        manifest = done.manifest
        self.stdout.write(f"backup: {done.path} ({manifest['size']} bytes, {manifest['vendor']})")
        self.stdout.write(f"sha256: {manifest['sha256']}")
        self.stdout.write(f"release: {manifest['release']}")
        self.stdout.write(f"manifest: {done.manifest_path}")
        for old in done.pruned:
            self.stdout.write(f"deleted older backup: {old.name}")
        self.stdout.write(self.style.SUCCESS(f"Backup written and verified in {done.seconds:.2f} s."))
