from __future__ import annotations

from django.urls import path

urlpatterns: list = []

# A club night's score sheet (issue 20, part 1).
from tables.treasury.views import nights  # noqa: E402

urlpatterns += [
    path("nights/", nights.night_list, name="treasury_nights"),
    path("nights/new/", nights.night_new, name="treasury_night_new"),
    path("nights/<int:night_id>/", nights.night_detail, name="treasury_night"),
    path("nights/sheet/<str:token>/", nights.night_sheet, name="treasury_night_sheet"),
    path("nights/sheet/<str:token>/rows/", nights.night_row, name="treasury_night_row"),
    path("nights/sheet/<str:token>/rows/<int:number>/remove/", nights.night_row_remove,
         name="treasury_night_row_remove"),
    path("nights/sheet/<str:token>/save/", nights.night_save, name="treasury_night_save"),
]
