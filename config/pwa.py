"""The club as an installable app (issue 44): the web app manifest, the service worker and the offline page.

A browser offers to install a site that links a manifest (a name, a start URL, a standalone display, icons of 192
and 512 pixels) and registers a service worker. The worker is served from the site's root, `/sw.js`, because a
worker controls only the paths under its own script's folder: from /static/ it could serve nothing but /static/.

What the worker keeps is the shell and nothing else: the static files the offline page loads (the stylesheet, the
scripts, the icon), the app icons and the offline page itself. A table, a board, a fragment, a socket, the admin,
an answer of any view, anything a member sees as theirs never goes into its cache, so a phone that is lost or
shared holds nothing of the club's; and the offline page is rendered without the member (no name, no CSRF token,
no messages, which the worker's fetch would otherwise use up).

The cache's name is a digest of what it holds (the offline page as rendered, each file's URL and bytes): a change
to any of them changes the worker's script, the browser installs the new worker, and it deletes the old cache.
The offline page is rendered in the language of the request for the script, so a member who switches language
gets a new worker (and the offline page in their language) at their next page.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import unquote

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, get_language_bidi, gettext
from django.views.decorators.http import require_safe

from rules.context_processors import club

# club.css's --felt (the header's green) and --paper (the page's background): the bar and the splash screen of
# the installed app look like the site (tests/test_pwa.py reads them from the stylesheet).
THEME_COLOUR = "#1f5f3f"
BACKGROUND_COLOUR = "#fbfaf6"
OFFLINE_TEMPLATE = "pwa/offline.html"


@dataclass(frozen=True)
class Icon:
    name: str  # under static/ (drawn by deploy/make_icons.py)
    pixels: int
    purpose: str  # "any": shown as drawn; "maskable": full bleed, the platform crops it to its own shape


ICONS = (
    Icon("icons/icon-192.png", 192, "any"),
    Icon("icons/icon-512.png", 512, "any"),
    Icon("icons/icon-maskable-512.png", 512, "maskable"),
)


@login_not_required
@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """In the request's language (the browser fetches it without cookies: its Accept-Language decides)."""
    data = {
        "id": "/",
        "name": settings.CLUB_NAME,
        "short_name": settings.CLUB_SHORT_NAME,
        "description": gettext("The club's card games, played live: %(games)s.") % {
            "games": club(request)["club_games"]},
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [{"src": static(icon.name), "sizes": f"{icon.pixels}x{icon.pixels}", "type": "image/png",
                   "purpose": icon.purpose} for icon in ICONS],
    }
    return JsonResponse(data, content_type="application/manifest+json",
                        json_dumps_params={"ensure_ascii": False, "indent": 1})


@login_not_required
@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page the network could not bring. Also a page of its own, so the worker can
    fetch it like any other and a person can look at it."""
    return render(request, OFFLINE_TEMPLATE)


class StaticReferences(HTMLParser):
    """The static files a page loads: stylesheets and icons it links, scripts, images."""

    def __init__(self, prefix: str) -> None:
        super().__init__(convert_charrefs=True)
        self.prefix = prefix
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        url = found.get("href") if tag == "link" else found.get("src") if tag in ("script", "img") else None
        if url and url.startswith(self.prefix) and url not in self.urls:
            self.urls.append(url)


def static_bytes(url: str, prefix: str) -> bytes:
    """The file behind a static URL: found in the sources (development, where the URL is the file's own name) or
    in STATIC_ROOT (production, where the URL carries the hash collectstatic put in the name)."""
    name = unquote(url.removeprefix(prefix))
    path = finders.find(name)
    if path is not None:
        with open(path, "rb") as file:
            return file.read()
    with staticfiles_storage.open(name) as file:
        return file.read()


@dataclass(frozen=True)
class Shell:
    cache: str  # the cache's name: changes with anything it holds
    precache: list[str]  # the static URLs, then the offline page's


def shell(request: HttpRequest) -> Shell:
    """What the worker precaches: whatever the offline page loads (base.html's stylesheet and scripts, so a new
    script there is kept without anyone listing it here), the apple-touch icon it links and the manifest's icons."""
    prefix = static("")
    page = render_to_string(OFFLINE_TEMPLATE, request=request)
    references = StaticReferences(prefix)
    references.feed(page)
    references.close()
    urls = references.urls + [url for url in (static(icon.name) for icon in ICONS) if url not in references.urls]
    digest = hashlib.sha256(page.encode())
    for url in urls:
        digest.update(b"\0" + url.encode() + b"\0")
        digest.update(static_bytes(url, prefix))
    return Shell(cache=f"club-shell-{digest.hexdigest()[:20]}", precache=[*urls, reverse("offline")])


@login_not_required
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """Sent with `no-cache`, so the browser asks again at each page (a changed script is a new worker at once)."""
    found = shell(request)
    names = {
        "cache": found.cache, "precache": found.precache, "offline": reverse("offline"), "static": static(""),
        # a push's notification: the club's name when a message has no title, and its icon
        "club": settings.CLUB_NAME, "icon": static(ICONS[0].name),
        # Other static files are kept as they are fetched only where each name carries its file's hash (production's
        # manifest storage): in development a name stays when its file changes, and the cache would serve the old one.
        "keep_fetched": isinstance(staticfiles_storage, ManifestFilesMixin),
    }
    script = render_to_string("pwa/sw.js", {"names": json.dumps(names, indent=1)})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True)
    return response
