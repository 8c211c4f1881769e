from __future__ import annotations

from django.urls import path

from tables.ledger import views

urlpatterns = [
    path("history/", views.my_history, name="my_history"),
    path("standings/", views.standings_page, name="standings"),
    path("rounds/<int:round_id>/replay/", views.round_replay, name="round_replay"),
    path("fair/<int:round_id>/", views.fair_deal, name="fair_deal"),
]
