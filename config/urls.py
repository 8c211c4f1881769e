from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from config.favicon import favicon
from tables.lobby import views as lobby_views

urlpatterns = [
    path("", lobby_views.home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("rules/", include("rules.urls")),
    path("", include("tables.urls")),
]
