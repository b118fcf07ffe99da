"""Counting a service from a case's note, stay or hearing (under the case), from a call (under
the call: a call may be on no case), and the agency's catalogue under /services/."""

from django.urls import path

from caseflow.servicelog import views

app_name = "servicelog"

CASE = "cases/<pid:public_id>/services/"

urlpatterns = [
    path(f"{CASE}note/<pid:source_id>/", views.from_note, name="from_note"),
    path(f"{CASE}stay/<pid:source_id>/", views.from_stay, name="from_stay"),
    path(f"{CASE}hearing/<pid:source_id>/", views.from_hearing, name="from_hearing"),
    path("calls/<pid:call_id>/service/", views.from_call, name="from_call"),
    path("services/categories/", views.categories, name="categories"),
]
