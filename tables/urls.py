from __future__ import annotations

from django.urls import path

from tables import views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
]
