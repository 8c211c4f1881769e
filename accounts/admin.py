from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class MemberAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Club", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff", "last_login")
    search_fields = ("username", "display_name", "email")
