"""`/favicon.ico`, which browsers ask every site for whatever the page links: the club's own icon."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.http import require_safe

ICON = "favicon.svg"


@login_not_required
@require_safe
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """A temporary redirect, looked up per request: in production the static name carries the file's hash,
    which changes with the icon, so browsers must not remember the target for good."""
    return HttpResponseRedirect(static(ICON))
