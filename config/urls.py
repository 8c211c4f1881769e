from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from config.favicon import favicon
from config.health import health
from config.pwa import manifest, offline, service_worker
from tables.lobby import views as lobby_views

urlpatterns = [
    path("", lobby_views.home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("health/", health, name="health"),  # for nginx, systemd and monitoring: config/health.py
    # The club as an installable app (config/pwa.py); the worker at the root, so that its scope is the whole site.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline, name="offline"),
    path("admin/", admin.site.urls),
    # Django's set_language (django.conf.urls.i18n), which also saves a signed-in member's choice.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("rules/", include("rules.urls")),
    path("", include("tables.urls")),
]
