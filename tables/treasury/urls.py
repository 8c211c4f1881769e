from __future__ import annotations

from django.urls import path  # noqa: F401  (each part of the treasury adds its pages below)

urlpatterns: list = []
