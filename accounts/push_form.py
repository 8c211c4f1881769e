"""What a device's push subscription must be before the club keeps it: an address at a push service the club knows
(the server will POST to it: an address of the member's choosing would let them aim the server at anything), and
keys of the sizes RFC 8291 gives them."""

from __future__ import annotations

import base64
import binascii
import re

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

P256_POINT = 65  # an uncompressed P-256 public key: 0x04, then x and y
AUTH_SECRET = 16


def _decoded(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


class PushSubscriptionForm(forms.Form):
    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=120)
    auth = forms.CharField(max_length=40)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        if not any(re.match(pattern, endpoint) for pattern in settings.WEBPUSH_ENDPOINTS):
            raise forms.ValidationError(_("That is not the address of a push service this club sends to."))
        return endpoint

    def clean_p256dh(self) -> str:
        key = _decoded(self.cleaned_data["p256dh"])
        if key is None or len(key) != P256_POINT or key[0] != 4:
            raise forms.ValidationError(_("The device's key is not a P-256 public key."))
        return self.cleaned_data["p256dh"]

    def clean_auth(self) -> str:
        secret = _decoded(self.cleaned_data["auth"])
        if secret is None or len(secret) != AUTH_SECRET:
            raise forms.ValidationError(_("The device's secret is not 16 bytes."))
        return self.cleaned_data["auth"]
