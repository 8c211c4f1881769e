from __future__ import annotations

from django.urls import path

from tables.play import views

urlpatterns = [
    path("t/<str:code>/", views.table, name="table"),
    path("t/<str:code>/board/", views.board, name="board"),
    path("t/<str:code>/move/", views.move, name="move"),
    path("t/<str:code>/ready/", views.ready, name="ready"),
    path("t/<str:code>/away/choice/", views.away_choice, name="away_choice"),
    path("t/<str:code>/away/seen/", views.away_seen, name="away_seen"),
    path("t/<str:code>/premove/", views.premove, name="premove"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/leave/", views.leave, name="leave"),
    path("t/<str:code>/rematch/", views.rematch, name="rematch"),
    path("t/<str:code>/bots/add/", views.add_bot, name="add_bot"),
    path("t/<str:code>/bots/remove/", views.remove_bot, name="remove_bot"),
]
