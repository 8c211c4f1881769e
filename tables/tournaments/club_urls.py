"""The club's pages of a tournament round (staff): print, where a table plays, the night sheet, the winner, the final
totals (Puskiyon). Included under tournaments/ beside the tournament's own pages (tables.tournaments.urls): these
paths are their own."""
from __future__ import annotations

from django.urls import path

from tables.tournaments import club_views

urlpatterns: list = [
    path("<int:tournament_id>/rounds/<int:number>/print/", club_views.round_print_page,
         name="tournament_round_print"),
    path("tables/<int:table_id>/where/", club_views.table_where, name="tournament_table_where"),
    path("tables/<int:table_id>/sheet/", club_views.table_sheet, name="tournament_table_sheet"),
    path("tables/<int:table_id>/winner/", club_views.table_winner, name="tournament_table_winner"),
    path("tables/<int:table_id>/totals/", club_views.table_totals, name="tournament_table_totals"),
]
