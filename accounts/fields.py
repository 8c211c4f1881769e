"""A form field naming one member: typed, suggested as one types (htmx), resolved by `accounts.members`."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.members import find_member
from accounts.models import User


class MemberInput(forms.TextInput):
    """A text box tied to a `<datalist>` that the suggestions view (accounts.views.member_suggestions) fills as one
    types: htmx sends the box's own value under its name, and `field` says which name that is."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        base = {"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        super().__init__({**base, **(attrs or {})})

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        list_id = f"{(attrs or {}).get('id') or self.attrs.get('id') or name}-members"
        url = f"{reverse('member_suggestions')}?{urlencode({'field': name})}"
        extra = {
            "list": list_id, "hx-get": url, "hx-trigger": "input changed delay:250ms", "hx-target": f"#{list_id}",
            "hx-swap": "innerHTML", "hx-sync": "this:replace",
        }
        box = super().render(name, value, {**(attrs or {}), **extra}, renderer)
        return format_html('{}<datalist id="{}" class="member-suggestions"></datalist>', box, list_id)

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, User):
            return value.username
        return super().format_value(value)


class MemberField(forms.CharField):
    """Cleans to the one active `User` the text names (username, display name or email), or says why not."""

    widget = MemberInput

    def __init__(self, *, by_email: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 254)
        super().__init__(**kwargs)
        self.by_email = by_email

    def prepare_value(self, value: Any) -> Any:
        return value.username if isinstance(value, User) else value

    def clean(self, value: Any) -> User | None:  # type: ignore[override]
        """The text is checked as text first (required, length), then resolved to its member."""
        if isinstance(value, User):
            return value
        text = super().clean(value)
        if text in self.empty_values:
            return None
        found = find_member(text, by_email=self.by_email)
        if found.member is None:
            raise forms.ValidationError(found.problem, code="no_such_member")
        return found.member
