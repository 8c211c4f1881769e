from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import PushSubscription, User
from accounts.names import reads_like_another


class MemberChangeForm(UserChangeForm):
    """Staff may give the club's titles ("The Treasurer"), but not a name reading like another member's: the
    database would refuse it (accounts.names), and here it is said on the field instead."""

    def _unique_name(self, field: str) -> str:
        value = self.cleaned_data[field]
        if value and value != getattr(self.instance, field) and reads_like_another(value, member_id=self.instance.pk):
            raise forms.ValidationError(_("Another member goes by a name that reads like this one."))
        return value

    def clean_username(self) -> str:
        return self._unique_name("username")

    def clean_display_name(self) -> str:
        name = self._unique_name("display_name")
        username = self.cleaned_data.get("username") or self.instance.username
        if not name and self.instance.display_name and reads_like_another(username, member_id=self.instance.pk):
            raise forms.ValidationError(_("Another member is shown by a name that reads like this username: keep a "
                                          "display name."))
        return name


@admin.register(User)
class MemberAdmin(UserAdmin):
    form = MemberChangeForm
    fieldsets = (*UserAdmin.fieldsets, (_("Club"), {"fields": ("display_name", "language", "plays_only_at_club")}))
    list_display = ("username", "display_name", "email", "is_staff", "last_login")
    search_fields = ("username", "display_name", "email")


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The devices members have told the club to notify: staff see whose and which browser, and may remove one (a
    lost phone); a subscription is made only by its own browser (accounts.webpush), never here, and its keys are not
    shown (they decrypt what the club sends that device)."""

    list_display = ("user", "user_agent", "created_at", "last_used_at")
    search_fields = ("user__username", "user__display_name", "user_agent")
    list_select_related = ("user",)
    fields = ("user", "user_agent", "created_at", "last_used_at")
    readonly_fields = fields
    ordering = ("-created_at",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
