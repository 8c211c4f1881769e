"""The club's admin: each feature's admin module, registered when Django autodiscovers `tables.admin`."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tables.chat import admin as chat_admin  # noqa: F401
from tables.ledger import admin as ledger_admin  # noqa: F401
from tables.notices import admin as notices_admin  # noqa: F401
from tables.play import admin as play_admin  # noqa: F401
from tables.quickplay import admin as quickplay_admin  # noqa: F401
from tables.tournaments import admin as tournaments_admin  # noqa: F401

# The admin is the club's, not Django's: its name on every admin page (and the treasurer's, which extend them).
admin.site.site_header = format_lazy(_("{club}: administration"), club=settings.CLUB_NAME)
admin.site.site_title = format_lazy(_("{club} admin"), club=settings.CLUB_NAME)
admin.site.index_title = _("The club's books, tables and members")
