from __future__ import annotations

from django.urls import path

from tables.notices import views

urlpatterns = [
    path("emails/unsubscribe/<str:token>/", views.unsubscribe, name="notices_unsubscribe"),
    path("emails/unsubscribe/<str:token>/on/", views.resubscribe, name="notices_resubscribe"),
]
