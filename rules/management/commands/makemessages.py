"""Django's makemessages, also finding the engine's sentences: `said("...")` (rules/engine/text.py)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=said"]
