"""Where a form sends a member back to (`next`): a page of this site, or nowhere.

A `next` is whatever the request says, so a link or a form on another site can set it: taken as it comes, a
redirect to it sends a member who clicked a link of ours to a page that looks like ours and is not (an open
redirect). Every view that redirects to a `next` of its own reads it here; Django's and allauth's views (login,
the language switcher, the admin) check theirs the same way, with Django's `url_has_allowed_host_and_scheme`.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def same_site_next(request: HttpRequest, target: str | None) -> str:
    """`target` if it is a page of this site (a path, or this host's own URL over the request's scheme or a safer
    one); "" for anything else (another host, `//evil.example`, `javascript:`, nothing at all)."""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""
