from __future__ import annotations

from django.urls import path

from tables.invitations import views

urlpatterns = [
    path("t/<str:code>/invitations/", views.table_panel, name="table_invitations"),
    path("t/<str:code>/invitations/list/", views.table_list, name="table_invitation_list"),
    path("t/<str:code>/invitations/members/", views.member_suggestions, name="invite_suggestions"),
    path("t/<str:code>/invitations/new/", views.invite, name="invite"),
    path("invitations/", views.lobby_list, name="lobby_invitations"),
    path("invitations/<int:pk>/accept/", views.accept, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.decline, name="invitation_decline"),
    path("invitations/<int:pk>/withdraw/", views.withdraw, name="invitation_withdraw"),
]
