from __future__ import annotations

from django.urls import path

from rules import views

urlpatterns = [
    path("", views.index, name="rules_index"),
    path("<slug:key>/", views.game, name="rules_game"),
]
