"""`{% lobby_chat %}`: the lobby's chat pane, as the lobby page shows it."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.chat import rendering

register = template.Library()


@register.simple_tag(takes_context=True)
def lobby_chat(context: dict[str, Any]) -> SafeString:
    return rendering.pane_html(context["request"], None)
