"""The site's URLs found from its URLconf, and the query and form fields its own pages use, for the no-500 sweep.

Nothing here lists the site's pages or their parameters by hand: the URLs come from `django.urls.get_resolver()`,
their path arguments from the objects a test made (by the argument's name), and what to vary from the pages
themselves (their forms, links and htmx attributes). A page added tomorrow is swept without anyone writing it down.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, quote, urljoin, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver

NASTY = (
    "9999-12-31", "0001-01-01", "10000-01-01", "2026-02-30",  # the calendar's limits, and beyond
    "²", "١٢", "\uff11",  # digits int() reads (or fails on) that nobody types as a number
    "9" * 40, "-1", "0", "",  # too big for any database integer, negative, zero, empty
    "<x'\"%>", "https://evil.example/", "a\x00b",  # markup and quotes; another site (a `next`); a NUL
)
"""What a crafted request puts in every field and query parameter."""

_ROUTE_PARAM = re.compile(r"(?<!\?P)<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


@dataclass(frozen=True)
class Route:
    """One URL pattern: its whole pattern (every level's, joined), its name and its path arguments."""

    pattern: str
    name: str | None
    params: tuple[tuple[str, str], ...]  # (name, converter: "int", "str", "slug", "path" or "regex")

    def url(self, values: dict[str, str]) -> str:
        """The pattern with each argument replaced by `values[name]` (quoted as a path segment)."""
        def route(found: re.Match[str]) -> str:
            return quote(values[found.group("name")], safe="/" if found.group("converter") == "path" else "")

        def regex(found: re.Match[str]) -> str:
            return quote(values[found.group("name")], safe="")

        return "/" + _REGEX_GROUP.sub(regex, _ROUTE_PARAM.sub(route, self.pattern))


def routes() -> list[Route]:
    """Every URL pattern of the site, in the URLconf's order."""
    found: list[Route] = []

    def walk(patterns: list[Any], prefix: str, namespace: str) -> None:
        for pattern in patterns:
            text = str(pattern.pattern).removeprefix("^").removesuffix("$")
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else (
                    pattern.namespace or namespace)
                walk(pattern.url_patterns, prefix + text, inner)
            elif isinstance(pattern, URLPattern):
                whole = prefix + text
                params = tuple((m.group("name"), m.group("converter") or "str") for m in _ROUTE_PARAM.finditer(whole))
                params += tuple((m.group("name"), "regex") for m in _REGEX_GROUP.finditer(whole))
                name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name
                found.append(Route(pattern=whole, name=name, params=params))

    walk(get_resolver().url_patterns, "", "")
    return found


@dataclass
class Form:
    """A form as a page draws it: where it goes, how, and its fields with the values they start with."""

    action: str
    method: str
    htmx: bool
    fields: list[tuple[str, str]] = field(default_factory=list)

    def names(self) -> list[str]:
        return list(dict.fromkeys(name for name, _value in self.fields if name != "csrfmiddlewaretoken"))

    def data(self, changed: str | None = None, value: str = "") -> dict[str, list[str]]:
        """The form as sent, with the field `changed` (every value of it) set to `value`."""
        data: dict[str, list[str]] = {}
        for name, start in self.fields:
            data.setdefault(name, []).append(value if name == changed else start)
        for name in data:
            if name == changed:
                data[name] = [value]
        return data


class PageReader(HTMLParser):
    """The forms of a page, and the query parameters its links and htmx requests use, per path they go to."""

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.queries: dict[str, set[str]] = {}
        self._form: Form | None = None
        self._select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self._textarea: tuple[str, list[str]] | None = None

    def _link(self, target: str | None) -> None:
        if not target or target.startswith(("#", "javascript:", "mailto:")):
            return
        parts = urlsplit(urljoin(self.url, target))
        if parts.netloc not in ("", "testserver"):
            return
        keys = {key for key, _value in parse_qsl(parts.query, keep_blank_values=True)}
        self.queries.setdefault(parts.path, set()).update(keys)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        for attribute in ("href", "hx-get", "src"):
            if attribute in a and tag != "link" and tag != "script":
                self._link(a[attribute])
        if tag == "form":
            htmx = a.get("hx-post") or a.get("hx-get") or ""
            post = a.get("method", "").lower() == "post" or bool(a.get("hx-post"))
            self._form = Form(action=urljoin(self.url, htmx or a.get("action") or self.url),
                              method="post" if post else "get", htmx=bool(htmx))
            self.forms.append(self._form)
        elif tag in ("input", "button") and self._form is not None and a.get("name"):
            kind = a.get("type", "text" if tag == "input" else "submit").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                if kind == "radio" and not any(n == a["name"] for n, _v in self._form.fields):
                    self._form.fields.append((a["name"], a.get("value", "on")))
                return
            if kind in ("image", "button", "reset"):
                return
            self._form.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self._select = (a["name"], [], [])
        elif tag == "option" and self._select is not None:
            self._select[1].append(a.get("value", ""))
            if "selected" in a:
                self._select[2].append(a.get("value", ""))
        elif tag == "textarea" and a.get("name"):
            self._textarea = (a["name"], [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            name, options, selected = self._select
            if self._form is not None:
                chosen = selected or options[:1] or [""]
                self._form.fields.extend((name, value) for value in chosen)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            if self._form is not None:
                self._form.fields.append((self._textarea[0], "".join(self._textarea[1]).strip("\n")))
            self._textarea = None


def read_page(url: str, html: str) -> PageReader:
    reader = PageReader(url)
    reader.feed(html)
    reader.close()
    return reader


def off_site(response: Any) -> bool:
    """The response sends the browser to another site (a redirect, or htmx's own redirect headers)."""
    for header in ("Location", "HX-Redirect", "HX-Location"):
        target = response.headers.get(header)
        if target and urlsplit(target.strip()).netloc not in ("", "testserver"):
            return True
        if target and target.strip().startswith(("//", "\\", "javascript:")):
            return True
    return False


@dataclass
class Findings:
    """What went wrong, each line one request: collected over the whole sweep so one run names every failure."""

    lines: list[str] = field(default_factory=list)
    requests: int = 0

    def check(self, response: Any, what: str) -> None:
        self.requests += 1
        if response.status_code >= 500:
            self.lines.append(f"{response.status_code} {what}")
        elif off_site(response):
            self.lines.append(f"off-site redirect {what} -> {response.headers.get('Location')}")

    def report(self) -> str:
        return f"{len(self.lines)} of {self.requests} requests went wrong:\n" + "\n".join(self.lines[:60])


def each_value(keys: list[str]) -> Iterator[tuple[str, str]]:
    for key in keys:
        for value in NASTY:
            yield key, value


Visit = Callable[[str, dict[str, Any]], Any]
