from __future__ import annotations

from django.urls import path

from tables.profiles import views

urlpatterns = [
    path("members/<str:username>/", views.profile_page, name="member_profile"),
]
