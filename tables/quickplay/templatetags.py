"""`{% load quickplay %}` then `{% quick_play %}`: the lobby's quick-play panel, with its own context
(counts, place, form). The library is registered by name in settings (TEMPLATES' "libraries").

An inclusion tag, so the lobby view stays as it is and the panel reads the same way on the page
as it does when the socket or a quick-play view renders it.
"""

from __future__ import annotations

from typing import Any

from django import template

from tables.quickplay.rendering import panel_context

register = template.Library()


@register.inclusion_tag("tables/quickplay/panel.html", takes_context=True)
def quick_play(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return panel_context(user)
