from __future__ import annotations

from django.urls import path

from tables import views, views_history, views_quickplay

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/", views.lobby_tables_fragment, name="lobby_tables"),
    path("lobby/new/", views.new_table_form, name="new_table_form"),
    path("tables/new/", views.create_table, name="create_table"),
    path("t/<str:code>/", views.table, name="table"),
    path("t/<str:code>/board/", views.board, name="board"),
    path("t/<str:code>/move/", views.move, name="move"),
    path("t/<str:code>/ready/", views.ready, name="ready"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/leave/", views.leave, name="leave"),
    path("t/<str:code>/bots/add/", views.add_bot, name="add_bot"),
    path("t/<str:code>/bots/remove/", views.remove_bot, name="remove_bot"),
    path("history/", views_history.my_history, name="my_history"),
    path("standings/", views_history.standings_page, name="standings"),
    path("rounds/<int:round_id>/replay/", views_history.round_replay, name="round_replay"),
    path("fair/<int:round_id>/", views_history.fair_deal, name="fair_deal"),
    path("quick/", views_quickplay.panel, name="quick_panel"),
    path("quick/form/", views_quickplay.form, name="quick_form"),
    path("quick/join/", views_quickplay.join, name="quick_join"),
    path("quick/cancel/", views_quickplay.cancel, name="quick_cancel"),
    path("quick/go/<str:code>/", views_quickplay.go, name="quick_go"),
]
