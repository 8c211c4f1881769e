from __future__ import annotations

from django.urls import path

from tables.chat import views

urlpatterns = [
    path("chat/t/<str:code>/", views.post_table, name="chat_table"),
    path("chat/lobby/", views.post_lobby, name="chat_lobby"),
    path("chat/mute/<str:member_id>/", views.mute, name="chat_mute"),
    path("chat/unmute/<str:member_id>/", views.unmute, name="chat_unmute"),
    path("chat/hide/<str:message_id>/", views.hide, name="chat_hide"),
]
