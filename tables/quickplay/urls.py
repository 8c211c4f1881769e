from __future__ import annotations

from django.urls import path

from tables.quickplay import views

urlpatterns = [
    path("quick/", views.panel, name="quick_panel"),
    path("quick/form/", views.form, name="quick_form"),
    path("quick/join/", views.join, name="quick_join"),
    path("quick/cancel/", views.cancel, name="quick_cancel"),
    path("quick/now/", views.play_now, name="quick_play_now"),
    path("quick/go/<str:code>/", views.go, name="quick_go"),
]
