"""`{% load invitations %}` then `{% lobby_invitations %}`: the member's open invitations on the lobby page, with their
own context, so the lobby's view stays as it is (the library is registered by name in settings)."""

from __future__ import annotations

from typing import Any

from django import template

from tables.invitations.rendering import lobby_context

register = template.Library()


@register.inclusion_tag("tables/invitations/lobby.html", takes_context=True)
def lobby_invitations(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return {**lobby_context(user), "csrf_token": context.get("csrf_token")}
