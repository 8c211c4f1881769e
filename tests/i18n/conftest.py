"""The German tests read the compiled catalogue: compile it first when the .po is newer (as `make install` does),
so a catalogue edited since the last install is what the tests see."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.conf import settings

CATALOGUE = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="session", autouse=True)
def _german_compiled() -> None:
    compiled = CATALOGUE.with_suffix(".mo")
    if not compiled.exists() or compiled.stat().st_mtime < CATALOGUE.stat().st_mtime:
        subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(CATALOGUE)], check=True)
