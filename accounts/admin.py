from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class MemberAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, (_("Club"), {"fields": ("display_name", "language")}))
    list_display = ("username", "display_name", "email", "is_staff", "last_login")
    search_fields = ("username", "display_name", "email")
