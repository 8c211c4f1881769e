from __future__ import annotations

from django.urls import path

from tables.lobby import views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/", views.lobby_tables_fragment, name="lobby_tables"),
    path("lobby/new/", views.new_table_form, name="new_table_form"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/mine/", views.member_tables, name="my_tables"),
]
