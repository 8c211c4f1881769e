from __future__ import annotations

from django.urls import path

from tables.ratings import views

urlpatterns = [
    path("ratings/", views.ratings_page, name="ratings"),
]
