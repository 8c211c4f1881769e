"""`manage.py restore FILE [--yes] [--trust-unsigned]`: bring a backup back into an empty database, then migrate it
if it is older.

The work is tables.treasury.services.backups.restore_backup: it checks the file against its manifest and the
manifest's signature first, the file's schema against the code's migrations, and refuses a database that holds any
rows. Stop the site while restoring.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from tables.treasury.services.backups import BackupError, check_restorable, restore_backup, signed_by_this_site


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into the configured database, which must be empty."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The backup file (its manifest, FILE.json, must be beside it).")
        parser.add_argument("--yes", action="store_true", help="Do not ask before restoring.")
        parser.add_argument(
            "--trust-unsigned", action="store_true",
            help="Restore a backup whose manifest this site did not sign (another site or SECRET_KEY, older code): "
                 "only for a file whose origin you know. Its schema is checked all the same.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        trust_unsigned: bool = options["trust_unsigned"]
        try:
            manifest = check_restorable(path=path, trust_unsigned=trust_unsigned)
            signed = "signed by this site" if signed_by_this_site(manifest) else "NOT signed by this site (trusted)"
            self.stdout.write(
                f"{path.name}: made {manifest['created_at']} by release {manifest['release']}, checksum good, "
                f"{signed}, schema as the code makes it."
            )
            if not options["yes"]:
                target = connections["default"].settings_dict["NAME"]
                answer = input(f"Restore it into {target}? Type 'yes' to go on: ")
                if answer.strip().lower() != "yes":
                    raise CommandError("Nothing was restored.")
            done = restore_backup(path=path, trust_unsigned=trust_unsigned)
        except BackupError as error:
            raise CommandError(str(error)) from None
        except EOFError:
            raise CommandError("No answer (not a terminal?): pass --yes to restore without asking.") from None
        if done.migrated:
            self.stdout.write(f"The backup was older than the code; migrated: {', '.join(done.migrated)}")
        else:
            self.stdout.write("The backup's migrations match the code; nothing to migrate.")
        self.stdout.write(self.style.SUCCESS(f"Restored {path.name} in {done.seconds:.2f} s. "
                                             "Run `manage.py check_books` to check the books."))
