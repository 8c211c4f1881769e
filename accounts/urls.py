from __future__ import annotations

from django.urls import path

from accounts import push_views, views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("emails/", views.email_notices, name="email_notices"),
    path("turn-sound/", views.turn_sound, name="turn_sound"),
    path("members/suggest/", views.member_suggestions, name="member_suggestions"),
    path("push/subscribe/", push_views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.push_unsubscribe, name="push_unsubscribe"),
]
