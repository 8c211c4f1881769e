from __future__ import annotations

from django.urls import path

from tables.tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.create, name="tournament_create"),
    path("<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("<int:tournament_id>/enter/", views.enter, name="tournament_enter"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("<int:tournament_id>/open/", views.open_entries, name="tournament_open_entries"),
    path("<int:tournament_id>/close/", views.close_entries, name="tournament_close_entries"),
    path("<int:tournament_id>/entrants/add/", views.add_entrant, name="tournament_add_entrant"),
    path("<int:tournament_id>/entrants/club-player/", views.add_club_player, name="tournament_add_club_player"),
    path("<int:tournament_id>/draw/", views.draw, name="tournament_draw"),
    path("<int:tournament_id>/redraw/", views.redraw, name="tournament_redraw"),
    path("<int:tournament_id>/start/", views.start_round, name="tournament_start_round"),
    path("<int:tournament_id>/finish/", views.finish_round, name="tournament_finish_round"),
    path("<int:tournament_id>/tables/<int:table_id>/void/", views.void_table, name="tournament_void_table"),
    path("<int:tournament_id>/tables/<int:table_id>/replace/", views.replace_player, name="tournament_replace"),
    path("<int:tournament_id>/pause/", views.pause, name="tournament_pause"),
    path("<int:tournament_id>/resume/", views.resume, name="tournament_resume"),
    path("<int:tournament_id>/cancel/", views.cancel, name="tournament_cancel"),
    path("<int:tournament_id>/publish/", views.publish, name="tournament_publish"),
]
