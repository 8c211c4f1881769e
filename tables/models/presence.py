"""Who has the lobby or a table open, counted the same by every Daphne process."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Presence(models.Model):
    """One open lobby socket. Rows live in the database so every Daphne process counts the same."""

    channel_name = models.CharField(verbose_name=_("channel name"), max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.CASCADE, related_name="presences")
    connected_at = models.DateTimeField(verbose_name=_("connected at"), auto_now_add=True)
    last_seen = models.DateTimeField(verbose_name=_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("lobby presence")
        verbose_name_plural = _("lobby presences")

    def __str__(self) -> str:
        return gettext("%(member)s on %(channel)s") % {"member": self.user, "channel": self.channel_name}


class TableSocket(models.Model):
    """One open socket of a member to a table. A seated member with none (on any process) is offline.

    Rows are removed when their socket closes and kept fresh by the socket while it lives; a process
    that dies leaves its rows behind, which go stale and are swept (tables.play.services.presence)."""

    channel_name = models.CharField(verbose_name=_("channel name"), max_length=200, unique=True)
    table = models.ForeignKey("tables.Table", verbose_name=_("table"), on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("member"),
        on_delete=models.CASCADE, related_name="table_sockets")
    last_seen = models.DateTimeField(verbose_name=_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("table connection")
        verbose_name_plural = _("table connections")
        indexes = [models.Index(fields=["table", "user"], name="table_socket_by_member")]

    def __str__(self) -> str:
        return gettext("%(member)s at %(table)s on %(channel)s") % {"member": self.user, "table": self.table,
                                                                    "channel": self.channel_name}
